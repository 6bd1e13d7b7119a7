import type { CgmRecordInput, PumpRecordInput } from "~/ingest/records";
import { checkPumpVersion } from "~/ingest/pump-rules";
import type { CgmRecordWire, PumpSettingWire } from "~/schemas/upload";
import { cgmRecordToWire, pumpRecordToWire } from "~/wire/upload";
import { PROGRESS, type UploadFailureKey, type UploadProgress } from "./progress";
import {
  lostCallFailure,
  realClock,
  uploadInSlices,
  type Clock,
  type Envelope,
  type UploadApi,
} from "./upload-api";

/**
 * The insulin-pump handheld's upload, step by step, on a link to the device (WebUSB with the
 * frame codec in the browser, the simulator in tests and the demo):
 *
 *  1. open; with a password (6 characters) send it: accepted -> 30 %; refused -> "wrong password";
 *     no answer in time -> the handheld has no password: close, and start again without one;
 *  2. the software version (x.y.z; "1." is a CGM handheld, refused as a pump) -> 60 %;
 *  3. the 7 basal programs and the 15 settings, in their fixed order -> 62 %;
 *  4. the record tasks in order: the handheld's CGM readings (65 %), its time zone (70 %), the
 *     history (75 %). A time-out in the first two is skipped: close, wait 1 s, reopen, go on with
 *     the next task; the history cannot be skipped;
 *  5. close the device; save the basal programs and the settings; keep only the history records
 *     newer than the newest one the server has (findLastRecord); none -> "no new records" (98);
 *  6. send them in slices; once the server has them all, follow its processing (99.01), then success (100) with
 *     what was added, skipped and flagged.
 *
 * Any failure closes the device and ends the upload with its message; the next attempt starts
 * again from the version.
 */

/** A device that did not answer in time. */
export class DeviceTimeout extends Error {
  constructor(readonly step: string) {
    super(`no answer from the device: ${step}`);
  }
}

/** A device answer that broke the protocol (a bad frame or record), with the message to show. */
export class DeviceFault extends Error {
  constructor(
    readonly failure: UploadFailureKey,
    readonly step: string,
  ) {
    super(`${failure} at ${step}`);
  }
}

export type BasalProgram = { settingIndex: number; valueArray: number[]; name: string };
export type PumpSettings = Omit<PumpSettingWire, "pid" | "pdaSn" | "pdaVersion">;

/** The reads of a handheld; each throws DeviceTimeout when the device does not answer in time. */
export interface PumpLink {
  open(): Promise<void>;
  close(): Promise<void>;
  /** True when the handheld accepts the password. */
  sendPassword(password: string): Promise<boolean>;
  readVersion(): Promise<string>;
  readSerial(): Promise<string>;
  readBasalProgram(index: number): Promise<BasalProgram>;
  readSettings(): Promise<PumpSettings>;
  readCgmRecords(): Promise<CgmRecordInput[]>;
  /** The handheld's zone string ("GMT+01:00"). */
  readTimeZone(): Promise<string>;
  readHistory(): Promise<PumpRecordInput[]>;
}

/** The calls of a pump upload besides the slices. */
export interface PumpUploadApi extends UploadApi {
  findLastRecord(
    pid: number,
    origin: 0 | 2,
  ): Promise<Envelope<{ deviceSn: string; index: number } | null>>;
  saveBasalPrograms(body: {
    pid: number;
    pdaSn: string;
    pdaVersion: string;
    pdaTimeZone?: string;
    list: BasalProgram[];
  }): Promise<Envelope<unknown>>;
  savePumpSettings(body: PumpSettingWire & { pid: number }): Promise<Envelope<unknown>>;
  saveCgmsData(body: {
    pid: number;
    deviceSn: string;
    timeZone: string;
    dataList: CgmRecordWire[];
  }): Promise<Envelope<unknown>>;
}

export const BASAL_PROGRAMS = 7;
/** The wait before a device that timed out in a skippable task is opened again, ms. */
export const REOPEN_AFTER_MS = 1000;

export type PumpUploadRequest = { pid: number; timeZone: string; password: string | null };

type Read = {
  serial: string;
  version: string;
  basal: BasalProgram[];
  settings: PumpSettings;
  cgm: CgmRecordInput[];
  pdaTimeZone: string | null;
  history: PumpRecordInput[];
};

/** The failure a version answers, or null when the handheld is a pump this product reads. */
function versionFailure(version: string): UploadFailureKey | null {
  const check = checkPumpVersion(version);
  if (check.ok) return null;
  return check.key === "errors.cgmPda"
    ? "cgmPda"
    : check.key === "errors.wrongSoftwareVersion"
      ? "wrongSoftwareVersion"
      : "versionIncorrect";
}

/** Runs a skippable record task: a time-out closes the device, waits 1 s and reopens it; the task's answer is then null. */
async function skippable<T>(
  link: PumpLink,
  clock: Clock,
  task: () => Promise<T>,
): Promise<T | null> {
  try {
    return await task();
  } catch (error) {
    if (!(error instanceof DeviceTimeout)) throw error;
    await link.close();
    await clock.sleep(REOPEN_AFTER_MS);
    await link.open();
    return null;
  }
}

/** Steps 1 to 4: everything read from the handheld, with the progress of each step. */
async function readHandheld(
  link: PumpLink,
  request: PumpUploadRequest,
  progress: UploadProgress,
  clock: Clock,
): Promise<Read | UploadFailureKey> {
  await link.open();
  if (request.password !== null) {
    try {
      if (!(await link.sendPassword(request.password))) return "wrongPassword";
      progress.step(PROGRESS.passwordAccepted, "password");
    } catch (error) {
      if (!(error instanceof DeviceTimeout)) throw error;
      // No answer to a password: the handheld has none. Start again without one.
      await link.close();
      return readHandheld(link, { ...request, password: null }, progress, clock);
    }
  }
  const version = await link.readVersion();
  const refused = versionFailure(version);
  if (refused) return refused;
  const serial = await link.readSerial();
  progress.step(PROGRESS.version, "version");
  const basal: BasalProgram[] = [];
  for (let index = 0; index < BASAL_PROGRAMS; index++)
    basal.push(await link.readBasalProgram(index));
  const settings = await link.readSettings();
  progress.step(PROGRESS.settings, "settings");
  const cgm = (await skippable(link, clock, () => link.readCgmRecords())) ?? [];
  progress.step(PROGRESS.pumpCgm, "pumpCgm");
  const pdaTimeZone = await skippable(link, clock, () => link.readTimeZone());
  progress.step(PROGRESS.timeZone, "timeZone");
  const history = await link.readHistory();
  progress.step(PROGRESS.history, "history");
  return { serial, version: version.trim(), basal, settings, cgm, pdaTimeZone, history };
}

/** The record numbers of the history after the newest one the server has of this handheld. */
async function newHistory(
  api: PumpUploadApi,
  pid: number,
  serial: string,
  history: PumpRecordInput[],
): Promise<PumpRecordInput[]> {
  const last = await api.findLastRecord(pid, 0);
  const stored =
    last.code === 200 && last.data && last.data.deviceSn === serial ? last.data.index : null;
  if (stored === null) return history;
  return history.filter((r) => r.recordId > stored);
}

/**
 * Uploads a handheld for patient `pid`; the progress tells every step and how it ended. Never
 * throws for the device or the network: a failure is the progress's end state.
 */
export async function uploadPump(
  link: PumpLink,
  api: PumpUploadApi,
  request: PumpUploadRequest,
  progress: UploadProgress,
  clock: Clock = realClock,
): Promise<void> {
  let read: Read | UploadFailureKey;
  try {
    read = await readHandheld(link, request, progress, clock);
  } catch (error) {
    read =
      error instanceof DeviceTimeout
        ? "timeout"
        : error instanceof DeviceFault
          ? error.failure
          : "deviceReadFailed";
  } finally {
    await link.close().catch(() => undefined);
  }
  if (typeof read === "string") return progress.fail(read);

  try {
    const { pid, timeZone } = request;
    const pdaTimeZone = read.pdaTimeZone ?? undefined;
    const basal = await api.saveBasalPrograms({
      pid,
      pdaSn: read.serial,
      pdaVersion: read.version,
      ...(pdaTimeZone ? { pdaTimeZone } : {}),
      list: read.basal,
    });
    if (basal.code !== 200) return progress.fail("uploadFailed", { message: basal.msg });
    const settings = await api.savePumpSettings({
      pid,
      pdaSn: read.serial,
      pdaVersion: read.version,
      ...read.settings,
    });
    if (settings.code !== 200) return progress.fail("uploadFailed", { message: settings.msg });
    if (read.cgm.length > 0) {
      const cgm = await api.saveCgmsData({
        pid,
        deviceSn: read.serial,
        timeZone,
        dataList: read.cgm.map(cgmRecordToWire),
      });
      if (cgm.code !== 200) return progress.fail("uploadFailed", { message: cgm.msg });
    }
    const records = (await newHistory(api, pid, read.serial, read.history)).map((r) =>
      pumpRecordToWire(pdaTimeZone ? { ...r, pdaRecordTimeZone: pdaTimeZone } : r),
    );
    if (records.length === 0) return progress.noNewRecords(PROGRESS.noNewRecords);
    const sent = await uploadInSlices(
      api,
      { pid, deviceKind: "equil", deviceSn: read.serial, pdaVersion: read.version, timeZone },
      records,
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
  } catch (error) {
    progress.fail(lostCallFailure(error));
  }
}
