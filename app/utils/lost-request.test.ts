import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepFormWhenLost, lostReason, skipRevalidationWhenLost } from "./lost-request";

beforeEach(() => vi.stubGlobal("window", { location: { pathname: "/account" } }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a form request that brings no answer", () => {
  it("answers the server's action when it comes in time", async () => {
    const send = keepFormWhenLost(1000);
    await expect(send({ serverAction: async () => ({ saved: true }) as never })).resolves.toEqual({
      saved: true,
    });
  });

  it("is answered as lost when the network fails", async () => {
    const send = keepFormWhenLost(1000);
    const serverAction = () => Promise.reject(new TypeError("Failed to fetch"));
    await expect(send({ serverAction })).resolves.toEqual({ lostRequest: "requestFailed" });
  });

  it("is answered as timed out after the limit, not before", async () => {
    vi.useFakeTimers();
    const send = keepFormWhenLost(15_000);
    let settled: unknown = null;
    void send({ serverAction: () => new Promise<never>(() => {}) }).then((a) => (settled = a));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual({ lostRequest: "requestTimeout" });
  });

  it("throws on what the server threw (a redirect, an error page)", async () => {
    const send = keepFormWhenLost(1000);
    const redirect = new Response(null, { status: 302, headers: { Location: "/login" } });
    await expect(send({ serverAction: () => Promise.reject(redirect) })).rejects.toBe(redirect);
    expect(lostReason(new Error("boom"))).toBeNull();
  });

  it("keeps the page's data from reloading only after a lost request", () => {
    const lost = { lostRequest: "requestFailed" };
    expect(skipRevalidationWhenLost({ actionResult: lost, defaultShouldRevalidate: true })).toBe(
      false,
    );
    expect(
      skipRevalidationWhenLost({ actionResult: { saved: 1 }, defaultShouldRevalidate: true }),
    ).toBe(true);
    expect(skipRevalidationWhenLost({ actionResult: null, defaultShouldRevalidate: false })).toBe(
      false,
    );
  });
});
