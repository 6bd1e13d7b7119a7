import { describe, expect, it } from "vitest";
import type { CgmRecordInput } from "~/ingest/records";
import type { CgmRecordWire } from "~/schemas/upload";
import { uploadCgm, type CgmLink, type CgmUploadApi } from "./cgm-upload";
import { UploadProgress, type UploadState } from "./progress";
import { DeviceTimeout } from "./pump-upload";
import type { Clock, Envelope } from "./upload-api";

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });
const clock: Clock = { now: () => 0, sleep: async () => undefined };

const reading = (eventIndex: number): CgmRecordInput => ({
  eventIndex,
  eventType: 7,
  rawGlucose: 60,
  deviceTime: "2026-07-01 08:00:00",
});
const fingerPrick = (eventIndex: number): CgmRecordInput => ({
  eventIndex,
  eventType: 0,
  rawGlucose: 70,
  dataOrigin: 3,
  deviceTime: "2026-07-01 07:55:00",
});

/**
 * A handheld whose records are numbered in one sequence: finger-pricks at `manual` (oldest
 * first), readings at `history`. It logs what was asked.
 */
function sensor(options: {
  manual: number[];
  history: number[];
  version?: string;
  serial?: string;
  timeOut?: "history";
}) {
  const log: string[] = [];
  const link: CgmLink = {
    open: async () => void log.push("open"),
    close: async () => void log.push("close"),
    readVersion: async () => (log.push("version"), options.version ?? "1.2.0"),
    readSerial: async () => options.serial ?? "AX2024001",
    readManualCount: async () => options.manual.length,
    readManualRecord: async (position) => (
      log.push(`manual ${position}`),
      fingerPrick(options.manual[position]!)
    ),
    readHistory: async (after) => {
      log.push(`history after ${after}`);
      if (options.timeOut === "history") throw new DeviceTimeout("history");
      return options.history.filter((index) => index > after).map(reading);
    },
  };
  return { link, log };
}

function server(stored: number | null) {
  const sent: CgmRecordWire[] = [];
  const api: CgmUploadApi = {
    findLastRecord: async (_pid, origin) =>
      origin === 2 && stored !== null ? ok({ deviceSn: "AX2024001", index: stored }) : ok(null),
    getSliceId: async () => ok(3),
    sliceSave: async (s) => (sent.push(...(s.dataList as CgmRecordWire[])), ok({})),
    completeSliceTask: async () => ok({}),
    checkSave: async () =>
      ok({
        status: "done" as const,
        inserted: sent.length,
        duplicates: 0,
        flagged: 0,
        otherPatientDevice: false,
        error: null,
      }),
  };
  return { api, sent };
}

const records = { manual: [2, 5, 9], history: [0, 1, 3, 4, 6, 7, 8, 10] };

describe("uploadCgm", () => {
  it("a handheld the server has not seen: every finger-prick from the newest down, the whole history, sent oldest first; 60, 65, 70, 99.01, 100", async () => {
    const { link, log } = sensor(records);
    const { api, sent } = server(null);
    const progress = new UploadProgress();
    const seen: UploadState[] = [];
    progress.subscribe((s) => seen.push(s));
    await uploadCgm(link, api, { pid: 2, timeZone: "Europe/Warsaw" }, progress, clock);
    expect(log).toEqual([
      "open",
      "version",
      "manual 2",
      "manual 1",
      "manual 0",
      "history after -1",
      "close",
    ]);
    expect(seen.map((s) => s.percent)).toEqual([60, 65, 70, 99.01, 100]);
    expect(sent.map((r) => r.eventIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sent.filter((r) => r.dataOrigin === 3).map((r) => r.eventIndex)).toEqual([2, 5, 9]);
  });

  it("a handheld the server knows: finger-pricks down to the first one stored, the history after the newest stored index; nothing newer ends at 98", async () => {
    const { link, log } = sensor(records);
    const known = server(6);
    await uploadCgm(link, known.api, { pid: 2, timeZone: "UTC" }, new UploadProgress(), clock);
    // Position 1 holds index 5, which the server has: the read stops there.
    expect(log).toEqual(["open", "version", "manual 2", "manual 1", "history after 6", "close"]);
    expect(known.sent.map((r) => r.eventIndex)).toEqual([7, 8, 9, 10]);

    const progress = new UploadProgress();
    await uploadCgm(
      sensor(records).link,
      server(10).api,
      { pid: 2, timeZone: "UTC" },
      progress,
      clock,
    );
    expect(progress.state).toEqual({ status: "noNewRecords", percent: 98 });
  });

  it("the server's newest index of another handheld does not count", async () => {
    const { link, log } = sensor({ ...records, serial: "AX2024999" });
    const { api, sent } = server(6);
    await uploadCgm(link, api, { pid: 2, timeZone: "UTC" }, new UploadProgress(), clock);
    expect(log).toContain("history after -1");
    expect(sent).toHaveLength(11);
  });

  it("an Equil pump handheld chosen as the AiDEX is refused after its version, and closed", async () => {
    const { link, log } = sensor({ ...records, version: "5.3.0" });
    const progress = new UploadProgress();
    await uploadCgm(link, server(null).api, { pid: 2, timeZone: "UTC" }, progress, clock);
    expect(progress.state).toMatchObject({ status: "failed", failure: "equilPumpPda" });
    expect(log).toEqual(["open", "version", "close"]);
  });

  it("a time-out ends the upload with 'timeout' and closes the device", async () => {
    const { link, log } = sensor({ ...records, timeOut: "history" });
    const progress = new UploadProgress();
    await uploadCgm(link, server(null).api, { pid: 2, timeZone: "UTC" }, progress, clock);
    expect(progress.state).toMatchObject({ status: "failed", failure: "timeout", percent: 65 });
    expect(log.at(-1)).toBe("close");
  });
});
