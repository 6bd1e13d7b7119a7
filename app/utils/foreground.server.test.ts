import { describe, expect, it } from "vitest";
import {
  afterForeground,
  foregroundRequest,
  giveWay,
  yieldToForeground,
} from "./foreground.server";

const elapsedOf = async (work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

describe("background work giving way to requests somebody waits for", () => {
  it("goes on at once, before other callbacks, when no request is in flight", async () => {
    let otherRan = false;
    setImmediate(() => (otherRan = true));
    await giveWay();
    await yieldToForeground();
    expect(otherRan).toBe(false);
  });

  it("lets other callbacks run first while a request is in flight", async () => {
    const ended = foregroundRequest();
    try {
      let otherRan = false;
      setImmediate(() => (otherRan = true));
      await yieldToForeground();
      expect(otherRan).toBe(true);
    } finally {
      ended();
    }
  });

  it("waits no longer than 25 ms for a request that does not end", async () => {
    const ended = foregroundRequest();
    try {
      expect(await elapsedOf(giveWay)).toBeGreaterThanOrEqual(24);
    } finally {
      ended();
    }
  });

  it("goes on as soon as the last request in flight ends", async () => {
    const first = foregroundRequest();
    const second = foregroundRequest();
    setTimeout(first, 5);
    setTimeout(second, 10);
    let waited = false;
    const turn = afterForeground(5_000).then(() => (waited = true));
    await new Promise((resolve) => setTimeout(resolve, 7));
    expect(waited).toBe(false); // one request is still in flight
    // Resolved by the last end (at 10 ms), not by its 5 s bound.
    expect(await elapsedOf(() => turn)).toBeLessThan(2_000);
    expect(waited).toBe(true);
  });

  it("counts a request once however often its end is reported", async () => {
    const ended = foregroundRequest();
    ended();
    ended();
    const next = foregroundRequest();
    try {
      // Were the count below zero, this request would not hold the background back.
      expect(await elapsedOf(giveWay)).toBeGreaterThanOrEqual(24);
    } finally {
      next();
    }
  });
});
