import { describe, expect, it } from "vitest";
import type { PumpRecordInput } from "~/ingest/records";
import { UploadProgress, type UploadState } from "./progress";
import {
  DeviceTimeout,
  uploadPump,
  type PumpLink,
  type PumpSettings,
  type PumpUploadApi,
} from "./pump-upload";
import type { Clock, Envelope, UploadSummary } from "./upload-api";

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });

function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return { slept, now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
}

const SETTINGS: PumpSettings = {
  lowBg: [700],
  highBg: [1800],
  defaultCho: [10],
  sensitiveSilver: [400],
};
const history = (ids: number[]): PumpRecordInput[] =>
  ids.map((recordId) => ({
    recordId,
    eventIndex: recordId,
    eventPort: 4,
    eventType: 0,
    eventUrgency: 0,
    eventValue: 0,
    battery: 80,
    reservoir: 100,
    basalRateRaw: 160,
    bolusRateRaw: 0,
    deviceTime: "2026-07-01 08:00:00",
  }));

type LinkOptions = {
  password?: string | "none";
  version?: string;
  timeOut?: Partial<Record<"password" | "cgm" | "timeZone" | "history", number>>;
};

/** A handheld: answers, time-outs (how many times each read times out), and a log of what was asked. */
function fakeLink(options: LinkOptions = {}) {
  const log: string[] = [];
  const timeOuts = { ...options.timeOut };
  const maybeTimeOut = (read: keyof typeof timeOuts) => {
    if ((timeOuts[read] ?? 0) > 0) {
      timeOuts[read]!--;
      throw new DeviceTimeout(read);
    }
  };
  let open = false;
  const link: PumpLink & { isOpen: () => boolean } = {
    isOpen: () => open,
    async open() {
      log.push("open");
      open = true;
    },
    async close() {
      if (open) log.push("close");
      open = false;
    },
    async sendPassword(password) {
      log.push(`password ${password}`);
      maybeTimeOut("password");
      return password === options.password;
    },
    async readVersion() {
      log.push("version");
      return options.version ?? "5.3.0";
    },
    async readSerial() {
      return "EQ4711";
    },
    async readBasalProgram(index) {
      log.push(`basal ${index}`);
      return {
        settingIndex: index,
        valueArray: Array.from({ length: 48 }, () => 80),
        name: `P${index}`,
      };
    },
    async readSettings() {
      log.push("settings");
      return SETTINGS;
    },
    async readCgmRecords() {
      log.push("cgm");
      maybeTimeOut("cgm");
      return [];
    },
    async readTimeZone() {
      log.push("timeZone");
      maybeTimeOut("timeZone");
      return "GMT+01:00";
    },
    async readHistory() {
      log.push("history");
      maybeTimeOut("history");
      return history([1, 2, 3, 4, 5]);
    },
  };
  return { link, log };
}

/** A server: the newest stored record number of the handheld, and the calls it received. */
function fakeApi(stored: number | null = null, summary: Partial<UploadSummary> = {}) {
  const calls: string[] = [];
  const sentRecords: unknown[] = [];
  const api: PumpUploadApi = {
    findLastRecord: async () => ok(stored === null ? null : { deviceSn: "EQ4711", index: stored }),
    saveBasalPrograms: async (b) => (
      calls.push(`basal ${b.list.length} ${b.pdaTimeZone ?? "-"}`),
      ok({ saved: b.list.length })
    ),
    savePumpSettings: async (s) => (calls.push(`settings ${s.pdaVersion}`), ok({ saved: true })),
    saveCgmsData: async (c) => (calls.push(`cgm ${c.dataList.length}`), ok({})),
    getSliceId: async (s) => (calls.push(`getSliceId ${s.total}`), ok(9)),
    sliceSave: async (s) => (
      sentRecords.push(...s.dataList),
      calls.push(`slice ${s.index}`),
      ok({})
    ),
    completeSliceTask: async () => (calls.push("complete"), ok({})),
    checkSave: async () =>
      ok({
        status: "done",
        inserted: sentRecords.length,
        duplicates: 0,
        flagged: 0,
        otherPatientDevice: false,
        error: null,
        ...summary,
      }),
  };
  return { api, calls, sentRecords };
}

function watch(progress: UploadProgress) {
  const seen: UploadState[] = [];
  progress.subscribe((s) => seen.push(s));
  return seen;
}

const REQUEST = { pid: 3, timeZone: "Europe/Warsaw", password: null };

describe("uploadPump", () => {
  it("reads version, 7 basal programs, settings and the record tasks in order; the progress goes 60, 62, 65, 70, 75, 99.01, 100", async () => {
    const { link, log } = fakeLink();
    const server = fakeApi();
    const progress = new UploadProgress();
    const seen = watch(progress);
    await uploadPump(link, server.api, REQUEST, progress, fakeClock());
    expect(log).toEqual([
      "open",
      "version",
      "basal 0",
      "basal 1",
      "basal 2",
      "basal 3",
      "basal 4",
      "basal 5",
      "basal 6",
      "settings",
      "cgm",
      "timeZone",
      "history",
      "close",
    ]);
    expect(seen.map((s) => s.percent)).toEqual([60, 62, 65, 70, 75, 99.01, 100]);
    expect(progress.state).toMatchObject({ status: "success", added: 5 });
    // The programs carry the handheld's zone; no CGM readings to send; the history goes in one slice with the zone on each record.
    expect(server.calls).toEqual([
      "basal 7 GMT+01:00",
      "settings 5.3.0",
      "getSliceId 5",
      "slice 0",
      "complete",
    ]);
    // Sent in the upload calls' form.
    expect(server.sentRecords[0]).toMatchObject({
      recordId: 1,
      statusByte0: 80,
      statusShort0: 160,
      pdaRecordTimeZone: "GMT+01:00",
    });
    expect(link.isOpen()).toBe(false);
  });

  it("a password the handheld accepts gives 30 %; a wrong one ends the upload with 'wrong password' and closes the device", async () => {
    const accepted = new UploadProgress();
    const seen = watch(accepted);
    await uploadPump(
      fakeLink({ password: "ABC123" }).link,
      fakeApi().api,
      { ...REQUEST, password: "ABC123" },
      accepted,
      fakeClock(),
    );
    expect(seen[0]?.percent).toBe(30);

    const { link, log } = fakeLink({ password: "ABC123" });
    const refused = new UploadProgress();
    await uploadPump(link, fakeApi().api, { ...REQUEST, password: "654321" }, refused, fakeClock());
    expect(refused.state).toMatchObject({ status: "failed", failure: "wrongPassword" });
    expect(log).toEqual(["open", "password 654321", "close"]);
  });

  it("no answer to the password means the handheld has none: the read starts again without one", async () => {
    const { link, log } = fakeLink({ timeOut: { password: 1 } });
    const progress = new UploadProgress();
    await uploadPump(
      link,
      fakeApi().api,
      { ...REQUEST, password: "ABC123" },
      progress,
      fakeClock(),
    );
    expect(log.slice(0, 5)).toEqual(["open", "password ABC123", "close", "open", "version"]);
    expect(progress.state.status).toBe("success");
  });

  it("refuses a CGM handheld (version 1.x) and pump software older than 5.0.0, reading nothing more", async () => {
    for (const [version, failure] of [
      ["1.2.0", "cgmPda"],
      ["4.9.9", "wrongSoftwareVersion"],
      ["five", "versionIncorrect"],
    ] as const) {
      const { link, log } = fakeLink({ version });
      const progress = new UploadProgress();
      await uploadPump(link, fakeApi().api, REQUEST, progress, fakeClock());
      expect([version, progress.state]).toMatchObject([version, { status: "failed", failure }]);
      expect(log).toEqual(["open", "version", "close"]);
    }
  });

  it("a time-out in the CGM or time-zone task is skipped: close, wait 1 s, reopen, next task", async () => {
    const { link, log } = fakeLink({ timeOut: { timeZone: 1 } });
    const clock = fakeClock();
    const server = fakeApi();
    const progress = new UploadProgress();
    await uploadPump(link, server.api, REQUEST, progress, clock);
    expect(log.slice(-6)).toEqual(["cgm", "timeZone", "close", "open", "history", "close"]);
    expect(clock.slept).toEqual([1000]);
    expect(progress.state.status).toBe("success");
    // Without the handheld's zone the programs and records are sent without one.
    expect(server.calls[0]).toBe("basal 7 -");
  });

  it("a time-out in the history cannot be skipped: the upload fails with 'timeout' and the device is closed", async () => {
    const { link } = fakeLink({ timeOut: { history: 1 } });
    const progress = new UploadProgress();
    const seen = watch(progress);
    await uploadPump(link, fakeApi().api, REQUEST, progress, fakeClock());
    expect(progress.state).toMatchObject({ status: "failed", failure: "timeout", percent: 70 });
    expect(seen.at(-1)).toBe(progress.state);
    expect(link.isOpen()).toBe(false);
  });

  it("sends only records newer than the newest one stored; none newer ends at 98 'no new records'", async () => {
    const server = fakeApi(3);
    await uploadPump(fakeLink().link, server.api, REQUEST, new UploadProgress(), fakeClock());
    expect(server.sentRecords.map((r) => (r as { recordId: number }).recordId)).toEqual([4, 5]);

    const none = new UploadProgress();
    const all = fakeApi(5);
    await uploadPump(fakeLink().link, all.api, REQUEST, none, fakeClock());
    expect(none.state).toEqual({ status: "noNewRecords", percent: 98 });
    expect(all.calls.some((c) => c.startsWith("getSliceId"))).toBe(false);
  });

  it("an upload whose records were all stored already ends at 98.1; a refused slice at 99.8", async () => {
    const duplicates = new UploadProgress();
    const server = fakeApi(null, { inserted: 0, duplicates: 5 });
    await uploadPump(
      fakeLink().link,
      {
        ...server.api,
        checkSave: async () =>
          ok({
            status: "done",
            inserted: 0,
            duplicates: 5,
            flagged: 0,
            otherPatientDevice: false,
            error: null,
          }),
      },
      REQUEST,
      duplicates,
      fakeClock(),
    );
    expect(duplicates.state).toEqual({ status: "noNewRecords", percent: 98.1 });

    const refused = new UploadProgress();
    const api = fakeApi().api;
    await uploadPump(
      fakeLink().link,
      {
        ...api,
        sliceSave: async () => ({
          code: 400,
          msg: "Record 2 has an event code the server does not know (9/9).",
          data: null,
        }),
      },
      REQUEST,
      refused,
      fakeClock(),
    );
    expect(refused.state).toMatchObject({
      status: "failed",
      failure: "uploadFailed",
      percent: 99.8,
      values: { message: "Record 2 has an event code the server does not know (9/9)." },
    });
  });
});

describe("UploadProgress", () => {
  it("moves forward only, and after a failure ignores every update until reset", () => {
    const progress = new UploadProgress();
    progress.step(62, "settings");
    progress.step(60, "late answer");
    expect(progress.state.percent).toBe(62);
    progress.fail("replugUsb");
    progress.step(75, "history");
    progress.succeed({ added: 1, duplicates: 0, flagged: 0, otherPatientDevice: false });
    expect(progress.state).toEqual({ status: "failed", percent: 62, failure: "replugUsb" });
    progress.reset();
    expect(progress.state).toEqual({ status: "idle", percent: 0 });
    progress.step(10, "serial");
    expect(progress.state.percent).toBe(10);
  });
});
