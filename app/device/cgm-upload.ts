import type { CgmRecordInput } from "~/schemas/upload";
import { PROGRESS, type UploadProgress } from "./progress";
import { DeviceFault, DeviceTimeout, type PumpUploadApi } from "./pump-upload";
import { realClock, uploadInSlices, type Clock } from "./upload-api";

/**
 * The AiDEX CGM's upload: the finger-prick (manual blood) records from the newest one downward,
 * one at a time, until one the server already has; then the CGM history after the newest reading
 * the server has of this sensor (all of it for a sensor it has not seen). Progress 60 % once the
 * device is identified, 65 % after the finger-prick records, 70 % after the history, then the
 * sliced upload (99.01 %) and 100 %.
 */
export interface CgmLink {
  open(): Promise<void>;
  close(): Promise<void>;
  readSerial(): Promise<string>;
  /** The index of the newest finger-prick record, or null when there is none. */
  readNewestManualIndex(): Promise<number | null>;
  readManualRecord(index: number): Promise<CgmRecordInput>;
  /** The CGM history records with an index above `after` (-1: all). */
  readHistory(after: number): Promise<CgmRecordInput[]>;
}

export type CgmUploadApi = Pick<PumpUploadApi, "findLastRecord" | "getSliceId" | "sliceSave" | "completeSliceTask" | "checkSave">;

type Read = { serial: string; records: CgmRecordInput[] };

async function readCgm(link: CgmLink, api: CgmUploadApi, pid: number, progress: UploadProgress): Promise<Read> {
  await link.open();
  const serial = await link.readSerial();
  progress.step(PROGRESS.cgmDevice, "device");
  const last = await api.findLastRecord(pid, 2);
  const stored = last.code === 200 && last.data && last.data.deviceSn === serial ? last.data.index : -1;
  const manual: CgmRecordInput[] = [];
  const newest = await link.readNewestManualIndex();
  for (let index = newest ?? -1; index > stored && index >= 0; index--) manual.push(await link.readManualRecord(index));
  progress.step(PROGRESS.cgmFingerPricks, "fingerPricks");
  const history = await link.readHistory(stored);
  progress.step(PROGRESS.cgmHistory, "history");
  // The device's own order: oldest first.
  return { serial, records: [...manual.reverse(), ...history] };
}

/** Uploads the CGM for patient `pid`; never throws: the progress tells how it ended. */
export async function uploadCgm(link: CgmLink, api: CgmUploadApi, request: { pid: number; timeZone: string }, progress: UploadProgress, clock: Clock = realClock): Promise<void> {
  let read: Read;
  try {
    read = await readCgm(link, api, request.pid, progress);
  } catch (error) {
    return progress.fail(error instanceof DeviceTimeout ? "timeout" : error instanceof DeviceFault ? error.failure : "deviceReadFailed");
  } finally {
    await link.close().catch(() => undefined);
  }
  if (read.records.length === 0) return progress.noNewRecords(PROGRESS.noNewRecords);
  const sent = await uploadInSlices(api, { pid: request.pid, deviceKind: "aidex", deviceSn: read.serial, timeZone: request.timeZone }, read.records, clock, { onCompleted: () => progress.step(PROGRESS.uploaded, "processing") });
  if (!sent.ok) return progress.fail(sent.failure, sent.values);
  if (sent.summary.inserted === 0) return progress.noNewRecords(PROGRESS.noNewRecordsServer);
  progress.succeed({ added: sent.summary.inserted, duplicates: sent.summary.duplicates, flagged: sent.summary.flagged, otherPatientDevice: sent.summary.otherPatientDevice });
}
