import type { MeterRecordInput } from "~/ingest/records";
import type { MeterRecordWire } from "~/schemas/upload";
import { meterRecordToWire } from "~/wire/upload";
import { parseMeterText } from "./meter-text";
import { PROGRESS, type UploadFailureKey, type UploadProgress } from "./progress";
import { DeviceFault, DeviceTimeout } from "./pump-upload";
import {
  lostCallFailure,
  realClock,
  SLICE_RECORDS,
  type Clock,
  type Envelope,
  type UploadSummary,
} from "./upload-api";

/**
 * The blood-glucose meter's upload over the serial port: the whole memory in one read, then one
 * call to the server per 1000 readings.
 *
 * Progress: 10 % when the read starts; while the meter sends, the bar moves on by a random 1 to 4
 * points every second (it cannot know how much is left), never past 59; 60 % once the text is
 * read; 99.1 to 99.5 while the readings go to the server (spread over the calls); 100 % with
 * what was added. A meter that answers no reading is probably another device ("make sure it is
 * the same device"); readings that are all stored already end at 98.1.
 */

/** The meter's memory, read over the serial port (send "h", read until the line is quiet, close). */
export interface MeterLink {
  readMemory(): Promise<Uint8Array>;
}

export interface MeterUploadApi {
  saveSugar(body: {
    pid: number;
    deviceSn: string;
    timeZone: string;
    dataList: MeterRecordWire[];
  }): Promise<Envelope<UploadSummary | null>>;
}

/** A meter that does not send its serial number is stored under this name. */
export const UNNAMED_METER = "gochek";
/** How often the bar moves while the meter sends, ms; and the largest step. */
export const READ_TICK_MS = 1000;
const READ_TICK_MAX_STEP = 4;
const READ_CEILING = PROGRESS.serialRead - 1;

/** Moves the bar while `reading` runs; stops when it settles. */
async function tickWhile<T>(
  reading: Promise<T>,
  progress: UploadProgress,
  clock: Clock,
  random: () => number,
): Promise<T> {
  let done = false;
  const ticking = (async () => {
    let percent: number = PROGRESS.serialStart;
    for (;;) {
      await clock.sleep(READ_TICK_MS);
      if (done) return;
      percent = Math.min(READ_CEILING, percent + 1 + Math.floor(random() * READ_TICK_MAX_STEP));
      progress.step(percent, "reading");
    }
  })();
  try {
    return await reading;
  } finally {
    done = true;
    await ticking;
  }
}

type MeterRead =
  | { ok: true; records: MeterRecordInput[]; serial: string }
  | { ok: false; failure: UploadFailureKey };

async function readMeter(
  link: MeterLink,
  progress: UploadProgress,
  clock: Clock,
  random: () => number,
): Promise<MeterRead> {
  let bytes: Uint8Array;
  try {
    bytes = await tickWhile(link.readMemory(), progress, clock, random);
  } catch (error) {
    return {
      ok: false,
      failure:
        error instanceof DeviceTimeout
          ? "timeout"
          : error instanceof DeviceFault
            ? error.failure
            : "deviceReadFailed",
    };
  }
  const read = parseMeterText(bytes);
  if (!read.ok)
    return {
      ok: false,
      failure: read.error.kind === "sureSameDevice" ? "sureSameDevice" : "deviceReadFailed",
    };
  return { ok: true, records: read.value.records, serial: read.value.deviceSn ?? UNNAMED_METER };
}

/** Uploads the meter's memory for patient `pid`; never throws: the progress tells how it ended. */
export async function uploadMeter(
  link: MeterLink,
  api: MeterUploadApi,
  request: { pid: number; timeZone: string },
  progress: UploadProgress,
  clock: Clock = realClock,
  random: () => number = Math.random,
): Promise<void> {
  progress.step(PROGRESS.serialStart, "start");
  const read = await readMeter(link, progress, clock, random);
  if (!read.ok) return progress.fail(read.failure);
  progress.step(PROGRESS.serialRead, "read");

  const calls = Math.ceil(read.records.length / SLICE_RECORDS);
  const totals = { added: 0, duplicates: 0, flagged: 0, otherPatientDevice: false };
  for (let i = 0; i < calls; i++) {
    const spread = calls === 1 ? 0 : i / (calls - 1);
    progress.step(
      Number(
        (
          PROGRESS.serialUploadFrom +
          spread * (PROGRESS.serialUploadTo - PROGRESS.serialUploadFrom)
        ).toFixed(2),
      ),
      "upload",
    );
    let answer: Envelope<UploadSummary | null>;
    try {
      answer = await api.saveSugar({
        ...request,
        deviceSn: read.serial,
        dataList: read.records
          .slice(i * SLICE_RECORDS, (i + 1) * SLICE_RECORDS)
          .map(meterRecordToWire),
      });
    } catch (error) {
      return progress.fail(lostCallFailure(error));
    }
    if (answer.code !== 200 || !answer.data)
      return progress.fail("uploadFailed", { message: answer.msg });
    totals.added += answer.data.inserted;
    totals.duplicates += answer.data.duplicates;
    totals.flagged += answer.data.flagged;
    totals.otherPatientDevice ||= answer.data.otherPatientDevice;
  }
  if (totals.added === 0) return progress.noNewRecords(PROGRESS.noNewRecordsServer);
  progress.succeed(totals);
}
