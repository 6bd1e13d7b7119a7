import { describe, expect, it } from "vitest";
import {
  lostCallFailure,
  uploadInSlices,
  type Clock,
  type Envelope,
  type SliceStart,
  type UploadApi,
  type UploadSummary,
} from "./upload-api";

/** A clock that moves only when the code under test sleeps; it records every sleep. */
function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: "OK", data });
const SUMMARY: UploadSummary = {
  status: "done",
  inserted: 2500,
  duplicates: 0,
  flagged: 1,
  otherPatientDevice: false,
  error: null,
};

/** A server that stores slices, answers the summary after `processingPolls` looks, and logs the calls. */
function fakeServer(
  options: {
    lostSlices?: number;
    refuseSlice?: number;
    processingPolls?: number;
    neverDone?: boolean;
    openTimesOut?: boolean;
  } = {},
) {
  const calls: string[] = [];
  const slices = new Map<number, number>();
  let lost = options.lostSlices ?? 0;
  let polls = 0;
  const api: UploadApi = {
    async getSliceId(start: SliceStart) {
      calls.push(`getSliceId ${start.deviceKind} ${start.total}`);
      // What fetch rejects with when its AbortSignal.timeout fires.
      if (options.openTimesOut) throw new DOMException("The operation timed out.", "TimeoutError");
      return ok(41);
    },
    async sliceSave({ index, dataList }) {
      calls.push(`sliceSave ${index} ${dataList.length}`);
      if (lost > 0) {
        lost--;
        throw new TypeError("network");
      }
      if (index === options.refuseSlice)
        return {
          code: 400,
          msg: "Record 3: the field eventPort is missing or out of range.",
          data: { position: 3 },
        };
      slices.set(index, dataList.length);
      return ok({ index });
    },
    async completeSliceTask({ isSuccess }) {
      calls.push(`complete ${isSuccess}`);
      return ok({ status: isSuccess ? "processing" : "failed" });
    },
    async checkSave() {
      calls.push("checkSave");
      polls++;
      if (options.neverDone || polls <= (options.processingPolls ?? 0)) return ok(false);
      return ok(SUMMARY);
    },
  };
  return { api, calls, slices };
}

const START = {
  pid: 7,
  deviceKind: "equil" as const,
  deviceSn: "EQ1",
  pdaVersion: "5.3.0",
  timeZone: "Europe/Warsaw",
};
const records = (n: number) => Array.from({ length: n }, (_, i) => ({ recordId: i + 1 }));

describe("uploadInSlices", () => {
  it("sends 2500 records as slices of 1000, 1000 and 500, completes, and follows checkSave every 3.8 s", async () => {
    const server = fakeServer({ processingPolls: 2 });
    const clock = fakeClock();
    const heard: string[] = [];
    const outcome = await uploadInSlices(server.api, START, records(2500), clock, {
      onSlice: (n, of) => heard.push(`${n}/${of}`),
      onCompleted: () => heard.push("completed"),
    });
    expect(outcome).toEqual({ ok: true, summary: SUMMARY });
    expect(server.calls).toEqual([
      "getSliceId equil 2500",
      "sliceSave 0 1000",
      "sliceSave 1 1000",
      "sliceSave 2 500",
      "complete true",
      "checkSave",
      "checkSave",
      "checkSave",
    ]);
    expect(clock.slept).toEqual([3800, 3800]);
    expect(heard).toEqual(["1/3", "2/3", "3/3", "completed"]);
  });

  it("sends a slice the network lost again every 1.9 s", async () => {
    const server = fakeServer({ lostSlices: 2 });
    const clock = fakeClock();
    expect(await uploadInSlices(server.api, START, records(10), clock)).toMatchObject({ ok: true });
    expect(server.calls.filter((c) => c.startsWith("sliceSave"))).toEqual([
      "sliceSave 0 10",
      "sliceSave 0 10",
      "sliceSave 0 10",
    ]);
    expect(clock.slept).toEqual([1900, 1900]);
  });

  it("a slice the server refuses abandons the upload (nothing kept) and ends at uploadFailed with the server's message", async () => {
    const server = fakeServer({ refuseSlice: 1 });
    const outcome = await uploadInSlices(server.api, START, records(1500), fakeClock());
    expect(outcome).toEqual({
      ok: false,
      failure: "uploadFailed",
      values: { message: "Record 3: the field eventPort is missing or out of range." },
    });
    expect(server.calls.slice(-2)).toEqual(["sliceSave 1 500", "complete false"]);
  });

  it("gives up a slice after 180 s without the network, and the processing after 180 s of checkSave", async () => {
    const lost = await uploadInSlices(
      fakeServer({ lostSlices: 1000 }).api,
      START,
      records(5),
      fakeClock(),
    );
    // Lost on the network (a TypeError from fetch): the "error request" message.
    expect(lost).toEqual({ ok: false, failure: "requestFailed" });
    const clock = fakeClock();
    const slow = await uploadInSlices(
      fakeServer({ neverDone: true }).api,
      START,
      records(5),
      clock,
    );
    expect(slow).toEqual({ ok: false, failure: "pollFailed" });
    // 180 s in waits of 3.8 s: 48 waits reach 182.4 s, the first look past the deadline.
    expect(clock.slept).toHaveLength(48);
  });

  it("says a call ran out of time (Timeout Error) apart from one the network lost, and neither is a refusal", async () => {
    const server = fakeServer({ openTimesOut: true });
    expect(await uploadInSlices(server.api, START, records(5), fakeClock())).toEqual({
      ok: false,
      failure: "requestTimeout",
    });
    expect(server.calls).toEqual(["getSliceId equil 5"]);
    expect(lostCallFailure(new TypeError("Failed to fetch"))).toBe("requestFailed");
    expect(lostCallFailure(new DOMException("aborted", "AbortError"))).toBe("uploadFailed");
    expect(lostCallFailure(new Error("anything else"))).toBe("uploadFailed");
  });
});
