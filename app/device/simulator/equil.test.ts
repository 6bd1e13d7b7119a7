import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PumpRecordWire } from "~/schemas/upload";
import { createEquilLink } from "../equil-link";
import { UploadProgress, type UploadState } from "../progress";
import { uploadPump, type BasalProgram, type PumpUploadApi } from "../pump-upload";
import type { Clock, Envelope } from "../upload-api";
import { simulateDays, type HistoryRecord } from "./days";
import {
  createHandheld,
  SimulatedTransport,
  type HandheldOptions,
  type SimulatedFault,
  type SimulatorOptions,
} from "./equil";

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });

/** A clock whose sleep advances time at once. */
function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return { slept, now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
}

/** A server that stores what it is sent. */
function fakeApi() {
  const calls: string[] = [];
  const sent = {
    records: [] as unknown[],
    basal: [] as BasalProgram[],
    settings: null as unknown,
    cgm: [] as unknown[],
    zone: null as string | null,
  };
  const api: PumpUploadApi = {
    findLastRecord: async () => ok(null),
    saveBasalPrograms: async (b) => (
      calls.push("basal"),
      (sent.basal = b.list),
      (sent.zone = b.pdaTimeZone ?? null),
      ok({})
    ),
    savePumpSettings: async (s) => (calls.push("settings"), (sent.settings = s), ok({})),
    saveCgmsData: async (c) => (calls.push("cgm"), (sent.cgm = c.dataList), ok({})),
    getSliceId: async () => (calls.push("getSliceId"), ok(9)),
    sliceSave: async (s) => (sent.records.push(...s.dataList), ok({})),
    completeSliceTask: async () => ok({}),
    checkSave: async () =>
      ok({
        status: "done",
        inserted: sent.records.length,
        duplicates: 0,
        flagged: 0,
        otherPatientDevice: false,
        error: null,
      }),
  };
  return { api, calls, sent };
}

const REQUEST = { pid: 3, timeZone: "Europe/Warsaw", password: null };

type Run = {
  faults?: SimulatedFault[];
  handheld?: HandheldOptions;
  sim?: SimulatorOptions;
  password?: string | null;
};

/** One upload from a simulated handheld through the Equil link, with the states the progress took. */
async function run(options: Run = {}) {
  const transport = new SimulatedTransport(createHandheld(options.handheld), {
    ...options.sim,
    faults: options.faults ?? [],
  });
  const server = fakeApi();
  const progress = new UploadProgress();
  const seen: UploadState[] = [];
  progress.subscribe((s) => seen.push(s));
  const clock = fakeClock();
  await uploadPump(
    createEquilLink(transport),
    server.api,
    { ...REQUEST, password: options.password ?? null },
    progress,
    clock,
  );
  return { transport, server, progress, seen, clock };
}

/** Three records of one morning, as the handheld stores them. */
const at = (hour: number, minute: number, second: number) => ({
  year: 2026,
  month: 7,
  day: 1,
  hour,
  minute,
  second,
});
const SMALL_DAY: HistoryRecord[] = [
  {
    recordId: 1,
    serial: "004711",
    time: at(8, 0, 0),
    battery: 90,
    reservoir: 150,
    short0: 128,
    short1: 0,
    eventIndex: 1,
    port: 4,
    type: 0,
    urgency: 0,
    value: 0,
  },
  {
    recordId: 2,
    serial: "004711",
    time: at(8, 1, 30),
    battery: 90,
    reservoir: 150,
    short0: 0,
    short1: 45,
    eventIndex: 2,
    port: 3,
    type: 1,
    urgency: 0,
    value: 0,
  },
  {
    recordId: 300,
    serial: "004711",
    time: at(23, 59, 59),
    battery: 15,
    reservoir: 12,
    short0: 128,
    short1: 16000,
    eventIndex: 65535,
    port: 5,
    type: 0,
    urgency: 1,
    value: 7,
  },
];

/** The upload record of a simulated record: the decoding, written out field by field. */
function uploaded(r: HistoryRecord): PumpRecordWire {
  const t = r.time;
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    recordId: r.recordId,
    deviceTime: `${t.year}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}`,
    statusByte0: r.battery,
    statusByte1: r.reservoir,
    statusShort0: r.short0,
    statusShort1: r.short1,
    eventIndex: r.eventIndex,
    eventPort: r.port,
    eventType: r.type,
    eventUrgency: r.urgency,
    eventValue: r.value,
    pdaRecordTimeZone: "GMT+01:00",
  };
}

describe("uploadPump through the Equil link and the simulated handheld", () => {
  it("uploads a small day: the server receives the records, programs, settings and CGM readings stated by hand", async () => {
    const { server, progress, seen, transport, clock } = await run({
      handheld: { history: SMALL_DAY },
    });
    expect(progress.state).toEqual({
      status: "success",
      percent: 100,
      added: 3,
      duplicates: 0,
      flagged: 0,
      otherPatientDevice: false,
    });
    expect(seen.map((s) => s.percent)).toEqual([60, 62, 65, 70, 75, 99.01, 100]);
    expect(server.sent.records).toEqual([
      {
        recordId: 1,
        deviceTime: "2026-07-01 08:00:00",
        statusByte0: 90,
        statusByte1: 150,
        statusShort0: 128,
        statusShort1: 0,
        eventIndex: 1,
        eventPort: 4,
        eventType: 0,
        eventUrgency: 0,
        eventValue: 0,
        pdaRecordTimeZone: "GMT+01:00",
      },
      {
        recordId: 2,
        deviceTime: "2026-07-01 08:01:30",
        statusByte0: 90,
        statusByte1: 150,
        statusShort0: 0,
        statusShort1: 45,
        eventIndex: 2,
        eventPort: 3,
        eventType: 1,
        eventUrgency: 0,
        eventValue: 0,
        pdaRecordTimeZone: "GMT+01:00",
      },
      {
        recordId: 300,
        deviceTime: "2026-07-01 23:59:59",
        statusByte0: 15,
        statusByte1: 12,
        statusShort0: 128,
        statusShort1: 16000,
        eventIndex: 65535,
        eventPort: 5,
        eventType: 0,
        eventUrgency: 1,
        eventValue: 7,
        pdaRecordTimeZone: "GMT+01:00",
      },
    ]);
    // Program 0: 0.8 U/h (raw 64) except 4-8 h (slots 8-15), 1.8 U/h (raw 144); program 6: raw 64 + 24 = 88.
    expect(server.sent.basal).toHaveLength(7);
    expect(server.sent.basal[0]).toEqual({
      settingIndex: 0,
      name: "Weekday",
      valueArray: [...Array(8).fill(64), ...Array(8).fill(144), ...Array(32).fill(64)],
    });
    expect(server.sent.basal[6]?.valueArray[0]).toBe(88);
    expect(server.sent.basal[6]?.name).toBe("Custom");
    expect(server.sent.zone).toBe("GMT+01:00");
    expect(server.sent.settings).toEqual({
      pid: 3,
      pdaSn: "EQ004711",
      pdaVersion: "5.3.0",
      lowBg: [700, 800],
      highBg: [1800, 1600],
      defaultCho: [10, 12, 10],
      sensitiveSilver: [400],
      originBasal: 64,
      bolusRate: 16000,
      maxBolus: 1000,
      doubleBolus: 1,
      effectiveTime: 4,
    });
    expect(server.sent.cgm).toEqual([
      {
        eventIndex: 1,
        deviceTime: "2026-07-01 08:00:00",
        sensorIndex: 1,
        historyId: 1,
        eventType: 7,
        dataOrigin: 0,
        eventData: 61,
      },
      {
        eventIndex: 2,
        deviceTime: "2026-07-01 08:05:00",
        sensorIndex: 1,
        historyId: 2,
        eventType: 7,
        dataOrigin: 0,
        eventData: 63,
      },
    ]);
    expect(server.calls).toEqual(["basal", "settings", "cgm", "getSliceId"]);
    expect(transport.asked).toEqual([
      "version",
      "serial",
      ...Array(7).fill("basal"),
      ...Array(9).fill("setting"),
      "cgm",
      "timeZone",
      "history",
    ]);
    expect(transport.isOpen).toBe(false);
    expect(clock.slept).toEqual([]);
  });

  it("uploads three seeded days: every record of the simulator's days arrives, in order", async () => {
    const days = simulateDays({ seed: 1, start: "2026-07-01", days: 3, serial: "EQ004711" });
    const { server, progress } = await run();
    expect(progress.state.status).toBe("success");
    expect(server.sent.records).toEqual(days.map(uploaded));
    // The days' shape: consecutive record numbers; three carbohydrate entries a day in whole 10 g from 20 to 80 g.
    expect(days.map((r) => r.recordId)).toEqual(days.map((_, i) => i + 1));
    const carbs = days.filter((r) => r.port === 3 && r.type === 1);
    expect(carbs).toHaveLength(9);
    expect(carbs.every((r) => r.short1 % 10 === 0 && r.short1 >= 20 && r.short1 <= 80)).toBe(true);
    // 40 U less day 1's boluses (6 to 24 U) less 20 U of basal leaves at most 14 U: day 2 starts with a low-insulin alarm
    // and changes the reservoir at 10:00; 25 % battery less two days' 5 to 15 % is at most 15 %: day 3 starts with a low-power alarm.
    const code = (r: HistoryRecord) =>
      `${r.port}/${r.type}/${r.urgency} ${r.time.day} ${r.time.hour}:${r.time.minute}`;
    const firstOfDay = (day: number) => days.findIndex((r) => r.time.day === day);
    expect(code(days[firstOfDay(2) + 1]!)).toMatch(/^4\/1\/1 2 /);
    expect(days.filter((r) => r.port === 4 && (r.type === 8 || r.type === 7)).map(code)).toEqual([
      "4/8/0 2 10:0",
      "4/7/0 2 10:1",
    ]);
    expect(days.filter((r) => r.port === 5).map((r) => r.time.day)).toContain(3);
    expect(code(days[firstOfDay(3) + 1]!)).toMatch(/^5\/0\/1 3 /);
    // A basal record at least every 10 minutes.
    const basalSeconds = days
      .filter((r) => r.port === 4 && r.type === 0)
      .map(
        (r) =>
          Date.UTC(
            r.time.year,
            r.time.month - 1,
            r.time.day,
            r.time.hour,
            r.time.minute,
            r.time.second,
          ) / 1000,
      );
    expect(
      Math.max(...basalSeconds.slice(1).map((s, i) => s - basalSeconds[i]!)),
    ).toBeLessThanOrEqual(600);
  });

  it("reads the same records whatever sizes the replies are split into", async () => {
    const whole = await run();
    for (const readSizes of [[1], [3, 1024, 7, 28, 1], [12, 13]]) {
      const split = await run({ sim: { readSizes } });
      expect(split.progress.state.status).toBe("success");
      expect(split.server.sent.records).toEqual(whole.server.sent.records);
    }
  });

  it("reads the small day whatever read sizes the transport gives (property)", async () => {
    const expected = SMALL_DAY.map(uploaded);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 1500 }), { minLength: 1, maxLength: 6 }),
        async (readSizes) => {
          const { server, progress } = await run({
            handheld: { history: SMALL_DAY },
            sim: { readSizes },
          });
          expect(progress.state.status).toBe("success");
          expect(server.sent.records).toEqual(expected);
        },
      ),
      { numRuns: 40, seed: 17 },
    );
  });

  it("a password the handheld accepts gives 30 %; a wrong one fails with 'wrongPassword' after the password read alone", async () => {
    const accepted = await run({ handheld: { password: "A1B2C3" }, password: "A1B2C3" });
    expect(accepted.seen[0]?.percent).toBe(30);
    expect(accepted.progress.state.status).toBe("success");

    const refused = await run({ handheld: { password: "A1B2C3" }, password: "ZZZZZZ" });
    expect(refused.progress.state).toMatchObject({ status: "failed", failure: "wrongPassword" });
    expect(refused.transport.asked).toEqual(["password"]);
    expect(refused.transport.isOpen).toBe(false);
  });

  it("a password time-out means no password: the device is closed, opened again and read without one", async () => {
    for (const options of [
      { password: "A1B2C3" },
      {
        handheld: { password: "A1B2C3" },
        faults: [{ kind: "silent", on: "password" }] as SimulatedFault[],
        password: "A1B2C3",
      },
    ]) {
      const { progress, transport } = await run(options);
      expect(progress.state.status).toBe("success");
      expect(transport.asked.slice(0, 2)).toEqual(["password", "version"]);
      expect(transport.opens).toBe(2);
      expect(transport.isOpen).toBe(false);
    }
  });

  it("a time-out in the CGM task is skipped: closed, 1 s wait, reopened; no CGM readings are sent, the rest is", async () => {
    const { progress, transport, server, clock } = await run({
      faults: [{ kind: "silent", on: "cgm" }],
      handheld: { history: SMALL_DAY },
    });
    expect(progress.state).toMatchObject({ status: "success", added: 3 });
    expect(transport.opens).toBe(2);
    expect(clock.slept).toEqual([1000]);
    expect(server.calls).toEqual(["basal", "settings", "getSliceId"]);
    expect(transport.asked.slice(-3)).toEqual(["cgm", "timeZone", "history"]);
    expect(transport.isOpen).toBe(false);
  });

  it("a time-out in the time-zone task is skipped: programs and records go without the handheld's zone", async () => {
    const { progress, transport, server } = await run({
      faults: [{ kind: "silent", on: "timeZone" }],
      handheld: { history: SMALL_DAY },
    });
    expect(progress.state.status).toBe("success");
    expect(transport.opens).toBe(2);
    expect(server.sent.zone).toBeNull();
    expect(server.sent.records[0]).not.toHaveProperty("pdaRecordTimeZone");
    expect(transport.isOpen).toBe(false);
  });

  it("a time-out in the history fails with 'timeout' at 70 %", async () => {
    const { progress, transport, server } = await run({
      faults: [{ kind: "silent", on: "history" }],
    });
    expect(progress.state).toEqual({ status: "failed", failure: "timeout", percent: 70 });
    expect(server.calls).toEqual([]);
    expect(transport.isOpen).toBe(false);
  });

  it.each([
    ["shortPacket", "history", 70],
    ["badCrc", "version", 0],
    ["badMd5", "basal", 60],
    ["shortPacket", "setting", 60],
    ["badMd5", "history", 70],
  ] as const)(
    "a %s reply to the %s read fails with 'deviceReadFailed' at %d %%",
    async (kind, on, percent) => {
      const { progress, transport, server } = await run({ faults: [{ kind, on }] });
      expect(progress.state).toEqual({ status: "failed", failure: "deviceReadFailed", percent });
      expect(server.calls).toEqual([]);
      expect(transport.isOpen).toBe(false);
    },
  );

  it.each([
    ["4.9.9", "wrongSoftwareVersion"],
    ["1.3.2", "cgmPda"],
    ["five", "versionIncorrect"],
  ] as const)(
    "version %s fails with '%s' before anything else is read",
    async (version, failure) => {
      const { progress, transport } = await run({ handheld: { version } });
      expect(progress.state).toMatchObject({ status: "failed", failure });
      expect(transport.asked).toEqual(["version"]);
      expect(transport.isOpen).toBe(false);
    },
  );

  it("a serial number that cannot be read fails with 'settingsReadFailed'", async () => {
    const { progress, transport } = await run({ handheld: { serial: "EQ 47/11" } });
    expect(progress.state).toMatchObject({ status: "failed", failure: "settingsReadFailed" });
    expect(transport.isOpen).toBe(false);
  });

  it("a handheld unplugged in the middle of the history fails with 'replugUsb'", async () => {
    const { progress, transport, server } = await run({
      faults: [{ kind: "unplugged", on: "history", afterBytes: 100 }],
      sim: { readSizes: [64] },
    });
    expect(progress.state).toEqual({ status: "failed", failure: "replugUsb", percent: 70 });
    expect(server.calls).toEqual([]);
    expect(transport.isOpen).toBe(false);
  });
});
