import { describe, expect, it } from "vitest";
import type { CgmRecordInput } from "~/schemas/upload";
import { uploadCgm, type CgmLink, type CgmUploadApi } from "./cgm-upload";
import { UploadProgress, type UploadState } from "./progress";
import { DeviceTimeout } from "./pump-upload";
import type { Clock, Envelope } from "./upload-api";

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });
const clock: Clock = { now: () => 0, sleep: async () => undefined };

const reading = (eventIndex: number): CgmRecordInput => ({ eventIndex, eventType: 7, eventData: 60, deviceTime: "2026-07-01 08:00:00" });
const fingerPrick = (eventIndex: number): CgmRecordInput => ({ eventIndex, eventType: 0, eventData: 70, dataOrigin: 3, deviceTime: "2026-07-01 07:55:00" });

/** A sensor with finger-prick records 0..`manual`-1 and history records 0..`history`-1; it logs what was asked. */
function sensor(manual: number, history: number, timeOut?: "history") {
  const log: string[] = [];
  const link: CgmLink = {
    open: async () => void log.push("open"),
    close: async () => void log.push("close"),
    readSerial: async () => "AX2024001",
    readNewestManualIndex: async () => (manual > 0 ? manual - 1 : null),
    readManualRecord: async (index) => (log.push(`manual ${index}`), fingerPrick(1000 + index)),
    readHistory: async (after) => {
      log.push(`history after ${after}`);
      if (timeOut === "history") throw new DeviceTimeout("history");
      return Array.from({ length: history }, (_, i) => reading(i)).filter((r) => r.eventIndex > after);
    },
  };
  return { link, log };
}

function server(stored: number | null) {
  const sent: CgmRecordInput[] = [];
  const api: CgmUploadApi = {
    findLastRecord: async (_pid, origin) => (origin === 2 && stored !== null ? ok({ deviceSn: "AX2024001", index: stored }) : ok(null)),
    getSliceId: async () => ok(3),
    sliceSave: async (s) => (sent.push(...(s.dataList as CgmRecordInput[])), ok({})),
    completeSliceTask: async () => ok({}),
    checkSave: async () => ok({ status: "done" as const, inserted: sent.length, duplicates: 0, flagged: 0, otherPatientDevice: false, error: null }),
  };
  return { api, sent };
}

describe("uploadCgm", () => {
  it("reads the finger-prick records from the newest down, then the whole history of a new sensor; 60, 65, 70, 99.01, 100", async () => {
    const { link, log } = sensor(3, 4);
    const { api, sent } = server(null);
    const progress = new UploadProgress();
    const seen: UploadState[] = [];
    progress.subscribe((s) => seen.push(s));
    await uploadCgm(link, api, { pid: 2, timeZone: "Europe/Warsaw" }, progress, clock);
    expect(log).toEqual(["open", "manual 2", "manual 1", "manual 0", "history after -1", "close"]);
    expect(seen.map((s) => s.percent)).toEqual([60, 65, 70, 99.01, 100]);
    // Oldest first: the finger-pricks 1000..1002, then readings 0..3.
    expect(sent.map((r) => r.eventIndex)).toEqual([1000, 1001, 1002, 0, 1, 2, 3]);
  });

  it("a sensor the server knows: the history after the newest stored reading; nothing newer ends at 98", async () => {
    const { link, log } = sensor(0, 10);
    const known = server(6);
    await uploadCgm(link, known.api, { pid: 2, timeZone: "UTC" }, new UploadProgress(), clock);
    expect(log).toContain("history after 6");
    expect(known.sent.map((r) => r.eventIndex)).toEqual([7, 8, 9]);

    const progress = new UploadProgress();
    await uploadCgm(sensor(0, 10).link, server(9).api, { pid: 2, timeZone: "UTC" }, progress, clock);
    expect(progress.state).toEqual({ status: "noNewRecords", percent: 98 });
  });

  it("a time-out ends the upload with 'timeout' and closes the device", async () => {
    const { link, log } = sensor(1, 3, "history");
    const progress = new UploadProgress();
    await uploadCgm(link, server(null).api, { pid: 2, timeZone: "UTC" }, progress, clock);
    expect(progress.state).toMatchObject({ status: "failed", failure: "timeout", percent: 65 });
    expect(log.at(-1)).toBe("close");
  });
});
