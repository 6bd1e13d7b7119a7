import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UploadErrorLog, type ErrorReport } from "./error-log";

const report = (n: number): ErrorReport => ({
  operatorUserId: 4,
  patientUserId: 9,
  content: `failure ${n}`,
});

describe("UploadErrorLog", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends a burst once, 5 s after its last report", async () => {
    const calls: number[][] = [];
    const log = new UploadErrorLog(
      async (list) => (calls.push(list.map((r) => Number(r.content.split(" ")[1]))), true),
    );
    log.add(report(1));
    await vi.advanceTimersByTimeAsync(3000);
    log.add(report(2));
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([[1, 2]]);
    expect(log.pending).toBe(0);
    log.stop();
  });

  it("keeps what a failed send carried and tries again at the 20 s check", async () => {
    let up = false;
    const calls: number[] = [];
    const log = new UploadErrorLog(async (list) => (calls.push(list.length), up));
    log.add(report(1));
    await vi.advanceTimersByTimeAsync(5000);
    expect([calls, log.pending]).toEqual([[1], 1]);
    up = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect([calls, log.pending]).toEqual([[1, 1], 0]);
    log.stop();
  });

  it("keeps at most 500 reports (the oldest 250 go), sends 250 a call, and cuts a report to 2048 characters", async () => {
    const calls: ErrorReport[][] = [];
    const log = new UploadErrorLog(async (list) => (calls.push(list), true));
    for (let n = 1; n <= 501; n++) log.add(report(n));
    // 501 > 500: reports 1-250 were dropped; 251 remain.
    expect(log.pending).toBe(251);
    log.add({ ...report(502), content: "x".repeat(3000) });
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls.map((c) => c.length)).toEqual([250, 2]);
    expect(calls[0]![0]!.content).toBe("failure 251");
    expect(calls[1]![1]!.content).toHaveLength(2048);
    log.stop();
  });
});
