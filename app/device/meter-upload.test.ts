import { describe, expect, it } from "vitest";
import { uploadMeter, type MeterLink, type MeterUploadApi } from "./meter-upload";
import { UploadProgress, type UploadState } from "./progress";
import { DeviceFault, DeviceTimeout } from "./pump-upload";
import type { Clock, Envelope, UploadSummary } from "./upload-api";

/** A clock whose sleeps end at once, in the order they were asked for. */
function fakeClock(): Clock {
  let now = 0;
  return { now: () => now, sleep: async (ms) => void (now += ms) };
}

/** A meter whose read takes `seconds` of the fake clock's ticks, then answers `text`. */
function meter(text: string, seconds = 0, clock?: Clock): MeterLink {
  return {
    async readMemory() {
      for (let i = 0; i < seconds; i++) await clock!.sleep(1000);
      return new TextEncoder().encode(text);
    },
  };
}

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });

function server(summary: Partial<UploadSummary> = {}) {
  const calls: { deviceSn: string; count: number }[] = [];
  const api: MeterUploadApi = {
    saveSugar: async (body) => {
      calls.push({ deviceSn: body.deviceSn, count: body.dataList.length });
      return ok({
        status: "done",
        inserted: body.dataList.length,
        duplicates: 0,
        flagged: 0,
        otherPatientDevice: false,
        error: null,
        ...summary,
      });
    },
  };
  return { api, calls };
}

function watch(progress: UploadProgress) {
  const seen: UploadState[] = [];
  progress.subscribe((s) => seen.push(s));
  return seen;
}

const REQUEST = { pid: 5, timeZone: "Europe/Warsaw" };
const TEXT = "SN:GC1018A\r\n2026-07-01 08:15:00,123,0\r\n2026-07-01 12:40:00,188\r\n";

describe("uploadMeter", () => {
  it("10 % at the start, 1-4 points a second while the meter sends, 60 % when read, 99.1 % on the way to the server, 100 % with what was added", async () => {
    const clock = fakeClock();
    const { api, calls } = server();
    const progress = new UploadProgress();
    const seen = watch(progress);
    // random() = 0.99 gives the largest step, 4 points: 10, then 14, 18, 22 over three seconds.
    await uploadMeter(meter(TEXT, 3, clock), api, REQUEST, progress, clock, () => 0.99);
    expect(seen.map((s) => s.percent)).toEqual([10, 14, 18, 22, 60, 99.1, 100]);
    expect(progress.state).toMatchObject({ status: "success", added: 2 });
    expect(calls).toEqual([{ deviceSn: "GC1018A", count: 2 }]);
  });

  it("stops the bar below 60 however long the meter sends", async () => {
    const clock = fakeClock();
    const progress = new UploadProgress();
    const seen = watch(progress);
    await uploadMeter(meter(TEXT, 30, clock), server().api, REQUEST, progress, clock, () => 0.99);
    const reading = seen
      .filter((s) => s.status === "active" && s.step === "reading")
      .map((s) => s.percent);
    expect(Math.max(...reading)).toBe(59);
  });

  it("sends 2500 readings in three calls spread from 99.1 to 99.5 %; a meter without a serial number is stored as 'gochek'", async () => {
    const lines = Array.from(
      { length: 2500 },
      (_, i) =>
        `2026-06-${String(1 + Math.floor(i / 100)).padStart(2, "0")} ${String(Math.floor((i % 100) / 10) + 8).padStart(2, "0")}:${String((i % 10) * 5).padStart(2, "0")}:00,${100 + (i % 50)}`,
    );
    const { api, calls } = server();
    const progress = new UploadProgress();
    const seen = watch(progress);
    await uploadMeter(meter(lines.join("\n")), api, REQUEST, progress, fakeClock(), () => 0);
    expect(calls).toEqual([
      { deviceSn: "gochek", count: 1000 },
      { deviceSn: "gochek", count: 1000 },
      { deviceSn: "gochek", count: 500 },
    ]);
    expect(
      seen.filter((s) => s.status === "active" && s.step === "upload").map((s) => s.percent),
    ).toEqual([99.1, 99.3, 99.5]);
  });

  it("no reading at all: 'make sure it is the same device'; a time-out; a port that would not open; all readings stored already: 98.1", async () => {
    const empty = new UploadProgress();
    await uploadMeter(
      meter("GoChek 2 Connect\r\nEND\r\n"),
      server().api,
      REQUEST,
      empty,
      fakeClock(),
    );
    expect(empty.state).toMatchObject({ status: "failed", failure: "sureSameDevice" });

    const silent = new UploadProgress();
    await uploadMeter(
      { readMemory: async () => Promise.reject(new DeviceTimeout("serial")) },
      server().api,
      REQUEST,
      silent,
      fakeClock(),
    );
    expect(silent.state).toMatchObject({ status: "failed", failure: "timeout" });

    const closedPort = new UploadProgress();
    await uploadMeter(
      { readMemory: async () => Promise.reject(new DeviceFault("serialOpenFailed", "open")) },
      server().api,
      REQUEST,
      closedPort,
      fakeClock(),
    );
    expect(closedPort.state).toMatchObject({ status: "failed", failure: "serialOpenFailed" });

    const stored = new UploadProgress();
    await uploadMeter(
      meter(TEXT),
      server({ inserted: 0, duplicates: 2 }).api,
      REQUEST,
      stored,
      fakeClock(),
    );
    expect(stored.state).toEqual({ status: "noNewRecords", percent: 98.1 });
  });

  it("a refusal of the server ends at 99.8 with its message", async () => {
    const progress = new UploadProgress();
    const api: MeterUploadApi = {
      saveSugar: async () => ({
        code: 400,
        msg: "Record 2: the glucose value is outside what a device can measure.",
        data: null,
      }),
    };
    await uploadMeter(meter(TEXT), api, REQUEST, progress, fakeClock());
    expect(progress.state).toEqual({
      status: "failed",
      percent: 99.8,
      failure: "uploadFailed",
      values: { message: "Record 2: the glucose value is outside what a device can measure." },
    });
  });
});
