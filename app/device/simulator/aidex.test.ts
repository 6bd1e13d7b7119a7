import { describe, expect, it } from "vitest";
import type { CgmRecordWire } from "~/schemas/upload";
import { createAidexLink } from "../aidex-link";
import { uploadCgm, type CgmUploadApi } from "../cgm-upload";
import { UploadProgress, type UploadState } from "../progress";
import type { Clock, Envelope } from "../upload-api";
import { answerAidex, createAidex, SimulatedAidexTransport, type Aidex } from "./aidex";
import { createHandheld, FramedSimulator, SimulatedTransport, type SimulatedFault } from "./equil";

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });
const clock: Clock = { now: () => 0, sleep: async () => undefined };
const at = (day: number, hour: number, minute: number) => ({
  year: 2026,
  month: 7,
  day,
  hour,
  minute,
  second: 0,
});

/** A small handheld written out by hand: records 1-6 in one sequence, finger-pricks at 2 and 5. */
const SMALL: Aidex = {
  serial: "AX0042",
  version: "1.2.0",
  manual: [
    { index: 2, time: at(1, 7, 14), raw: 72 },
    { index: 5, time: at(1, 21, 31), raw: 90 },
  ],
  readings: [
    { index: 1, time: at(1, 7, 10), raw: 61 },
    { index: 3, time: at(1, 7, 15), raw: 63 },
    { index: 4, time: at(1, 21, 30), raw: 88 },
    { index: 6, time: at(1, 21, 35), raw: 400 },
  ],
};

/** A server that stores what it is sent; `stored` is the newest index it has of handheld AX0042. */
function fakeServer(stored: number | null = null) {
  const sent: CgmRecordWire[] = [];
  const api: CgmUploadApi = {
    findLastRecord: async (_pid, origin) =>
      ok(origin === 2 && stored !== null ? { deviceSn: "AX0042", index: stored } : null),
    getSliceId: async () => ok(4),
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

async function upload(transport: FramedSimulator, stored: number | null = null) {
  const server = fakeServer(stored);
  const progress = new UploadProgress();
  const seen: UploadState[] = [];
  progress.subscribe((s) => seen.push(s));
  await uploadCgm(
    createAidexLink(transport, { timeoutMs: 50 }),
    server.api,
    { pid: 7, timeZone: "Europe/Warsaw" },
    progress,
    clock,
  );
  return { server, progress, seen, transport };
}

describe("the AiDEX link against the simulated handheld", () => {
  it("reads the version, serial, finger-pricks from the newest down and the history; the records reach the server field by field", async () => {
    const { server, seen, transport } = await upload(new SimulatedAidexTransport(SMALL));
    expect(transport.asked).toEqual([
      "version",
      "serial",
      "manualCount",
      "manualRecord",
      "manualRecord",
      "history",
    ]);
    expect(seen.map((s) => s.percent)).toEqual([60, 65, 70, 99.01, 100]);
    expect(server.sent.map((r) => r.eventIndex)).toEqual([1, 2, 3, 4, 5, 6]);
    // The finger-prick at 21:31, raw 90 (162 mg/dL), typed in by hand: origin 3, no reading type.
    expect(server.sent[4]).toEqual({
      eventIndex: 5,
      deviceTime: "2026-07-01 21:31:00",
      eventData: 90,
      eventType: 0,
      dataOrigin: 3,
    });
    // A sensor reading: sensor 1, history id = index, type 7, origin 0.
    expect(server.sent[5]).toEqual({
      eventIndex: 6,
      deviceTime: "2026-07-01 21:35:00",
      sensorIndex: 1,
      historyId: 6,
      eventType: 7,
      dataOrigin: 0,
      eventData: 400,
    });
    expect(transport.isOpen).toBe(false);
  });

  it("a handheld the server has up to index 3: one finger-prick read (index 5; the next down, 2, is stored) and the history after 3", async () => {
    const { server, transport } = await upload(new SimulatedAidexTransport(SMALL), 3);
    expect(transport.asked.filter((name) => name === "manualRecord")).toHaveLength(2);
    expect(server.sent.map((r) => r.eventIndex)).toEqual([4, 5, 6]);
  });

  it("an Equil pump handheld on the AiDEX choice: 'Current Connected device is equil pump pda', nothing sent, closed", async () => {
    const { server, progress, transport } = await upload(new SimulatedTransport(createHandheld()));
    expect(progress.state).toMatchObject({ status: "failed", failure: "equilPumpPda" });
    expect(server.sent).toEqual([]);
    expect(transport.isOpen).toBe(false);
  });

  it("a finger-prick reply that is not a multiple of 12 bytes is the same refusal", async () => {
    // Version, serial and count from the AiDEX; the record read answers 28 bytes, as a pump handheld's history record.
    const mixed = new FramedSimulator((frame) =>
      frame.port === 0x03 && frame.parameter === 0x23
        ? { name: "manualRecord", payload: new Uint8Array(28) }
        : answerAidex(SMALL, frame),
    );
    const { progress } = await upload(mixed);
    expect(progress.state).toMatchObject({
      status: "failed",
      failure: "equilPumpPda",
      percent: 60,
    });
  });

  it.each<[SimulatedFault, string, number]>([
    [{ kind: "silent", on: "history" }, "timeout", 65],
    [{ kind: "badCrc", on: "manualRecord" }, "deviceReadFailed", 60],
    [{ kind: "badMd5", on: "history" }, "deviceReadFailed", 65],
    [{ kind: "shortPacket", on: "serial" }, "deviceReadFailed", 0],
    [{ kind: "unplugged", on: "history", afterBytes: 30 }, "replugUsb", 65],
  ])(
    "%o ends with %s at %d %%, nothing sent, the device closed",
    async (fault, failure, percent) => {
      const { server, progress, transport } = await upload(
        new SimulatedAidexTransport(SMALL, { faults: [fault] }),
      );
      expect(progress.state).toMatchObject({ status: "failed", failure, percent });
      expect(server.sent).toEqual([]);
      expect(transport.isOpen).toBe(false);
    },
  );

  it("replies split across many small reads are put together", async () => {
    const { server } = await upload(new SimulatedAidexTransport(SMALL, { readSizes: [1, 7, 3] }));
    expect(server.sent).toHaveLength(6);
  });
});

describe("createAidex: realistic days", () => {
  const aidex = createAidex({ start: "2026-07-01", days: 3, seed: 4 });
  const mgdl = (raw: number) => raw * 1.8;
  const minuteOf = (t: { hour: number; minute: number }) => t.hour * 60 + t.minute;

  it("a reading every 5 minutes (288 a day) and two finger-pricks a day, numbered 1.. in one sequence in time order", () => {
    expect(aidex.readings).toHaveLength(3 * 288);
    expect(aidex.manual).toHaveLength(6);
    const all = [...aidex.readings, ...aidex.manual].sort((a, b) => a.index - b.index);
    expect(all.map((e) => e.index)).toEqual(Array.from({ length: 870 }, (_, i) => i + 1));
    const times = all.map((e) =>
      Date.UTC(e.time.year, e.time.month - 1, e.time.day, e.time.hour, e.time.minute),
    );
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("glucose within 40-400 mg/dL, higher after lunch than in the small hours", () => {
    expect(aidex.readings.every((r) => mgdl(r.raw) >= 39 && mgdl(r.raw) <= 401)).toBe(true);
    const mean = (from: number, to: number) => {
      const values = aidex.readings
        .filter((r) => minuteOf(r.time) >= from && minuteOf(r.time) < to)
        .map((r) => mgdl(r.raw));
      return values.reduce((a, b) => a + b, 0) / values.length;
    };
    expect(mean(13 * 60 + 15, 14 * 60 + 15) - mean(3 * 60, 5 * 60)).toBeGreaterThan(30);
  });
});
