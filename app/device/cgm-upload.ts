import { isCgmHandheldVersion } from "~/ingest/pump-rules";
import type { CgmRecordInput } from "~/ingest/records";
import { cgmRecordToWire } from "~/wire/upload";
import { PROGRESS, type UploadProgress } from "./progress";
import { DeviceFault, DeviceTimeout, type PumpUploadApi } from "./pump-upload";
import { realClock, uploadInSlices, type Clock } from "./upload-api";

/**
 * The AiDEX CGM's upload. The handheld numbers every record it keeps in one sequence (the
 * `eventIndex`), so the newest index the server has of this handheld says where to start:
 * - the version must be a CGM handheld's ("1."); any other is an Equil pump handheld;
 * - the finger-prick records from the newest one downward, one at a time, until one the server
 *   already has;
 * - the CGM history after the server's newest index (all of it for a handheld it has not seen).
 * Progress 60 % once the device is identified, 65 % after the finger-prick records, 70 % after
 * the history, then the sliced upload (99.01 %) and 100 %.
 */
export interface CgmLink {
  open(): Promise<void>;
  close(): Promise<void>;
  readVersion(): Promise<string>;
  readSerial(): Promise<string>;
  /** How many finger-prick records the handheld keeps; position 0 is the oldest. */
  readManualCount(): Promise<number>;
  readManualRecord(position: number): Promise<CgmRecordInput>;
  /** The CGM history records with an index above `after` (-1: all), oldest first. */
  readHistory(after: number): Promise<CgmRecordInput[]>;
}

export type CgmUploadApi = Pick<
  PumpUploadApi,
  "findLastRecord" | "getSliceId" | "sliceSave" | "completeSliceTask" | "checkSave"
>;

type Read = { serial: string; records: CgmRecordInput[] };

/** findLastRecord's origin for the AiDEX. */
const AIDEX_ORIGIN = 2;

async function readCgm(
  link: CgmLink,
  api: CgmUploadApi,
  pid: number,
  progress: UploadProgress,
): Promise<Read> {
  await link.open();
  if (!isCgmHandheldVersion(await link.readVersion()))
    throw new DeviceFault("equilPumpPda", "version");
  const serial = await link.readSerial();
  progress.step(PROGRESS.cgmDevice, "device");
  const last = await api.findLastRecord(pid, AIDEX_ORIGIN);
  const stored =
    last.code === 200 && last.data && last.data.deviceSn === serial ? last.data.index : -1;
  const manual: CgmRecordInput[] = [];
  for (let position = (await link.readManualCount()) - 1; position >= 0; position--) {
    const record = await link.readManualRecord(position);
    if (record.eventIndex <= stored) break;
    manual.push(record);
  }
  progress.step(PROGRESS.cgmFingerPricks, "fingerPricks");
  const history = await link.readHistory(stored);
  progress.step(PROGRESS.cgmHistory, "history");
  // The device's own order: oldest first.
  return { serial, records: [...manual, ...history].sort((a, b) => a.eventIndex - b.eventIndex) };
}

/** Uploads the CGM for patient `pid`; never throws: the progress tells how it ended. */
export async function uploadCgm(
  link: CgmLink,
  api: CgmUploadApi,
  request: { pid: number; timeZone: string },
  progress: UploadProgress,
  clock: Clock = realClock,
): Promise<void> {
  let read: Read;
  try {
    read = await readCgm(link, api, request.pid, progress);
  } catch (error) {
    return progress.fail(
      error instanceof DeviceTimeout
        ? "timeout"
        : error instanceof DeviceFault
          ? error.failure
          : "deviceReadFailed",
    );
  } finally {
    await link.close().catch(() => undefined);
  }
  if (read.records.length === 0) return progress.noNewRecords(PROGRESS.noNewRecords);
  const sent = await uploadInSlices(
    api,
    { pid: request.pid, deviceKind: "aidex", deviceSn: read.serial, timeZone: request.timeZone },
    read.records.map(cgmRecordToWire),
    clock,
    { onCompleted: () => progress.step(PROGRESS.uploaded, "processing") },
  );
  if (!sent.ok) return progress.fail(sent.failure, sent.values);
  if (sent.summary.inserted === 0) return progress.noNewRecords(PROGRESS.noNewRecordsServer);
  progress.succeed({
    added: sent.summary.inserted,
    duplicates: sent.summary.duplicates,
    flagged: sent.summary.flagged,
    otherPatientDevice: sent.summary.otherPatientDevice,
  });
}
