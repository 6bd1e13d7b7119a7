// The renderer's account limit across app servers, asked before any browser is involved.
import { describe, expect, it } from "vitest";
import { createPdfRenderer, PdfRenderError, type SharedAccountLimiter } from "./pdf.server";

const origin = "http://127.0.0.1:9";

function rendererWith(shared: SharedAccountLimiter) {
  return createPdfRenderer({
    // No browser at this path: an admitted render fails with `browser`.
    executablePath: "/nonexistent/chromium",
    concurrency: 1,
    timeoutMs: 2_000,
    allowedOrigins: [origin],
    perAccount: 2,
    sharedLimiter: () => shared,
  });
}

async function failure(promise: Promise<unknown>): Promise<PdfRenderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PdfRenderError);
  return error as PdfRenderError;
}

describe("shared account limit", () => {
  it("refuses with 429 when the other servers hold the account's places, and releases nothing", async () => {
    const calls: string[] = [];
    const renderer = rendererWith({
      acquire: async (account, perAccount) => (
        calls.push(`acquire ${account} ${perAccount}`),
        false
      ),
      release: async (account) => void calls.push(`release ${account}`),
    });
    const error = await failure(renderer.render({ url: `${origin}/x`, account: 7 }));
    expect(error.code).toBe("account-limit");
    expect(error.httpStatus).toBe(429);
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(calls).toEqual(["acquire 7 2"]);
    expect(renderer.stats().accounts).toEqual({});
  });

  it("gives the place back when an admitted render ends, failed or not", async () => {
    const calls: string[] = [];
    const renderer = rendererWith({
      acquire: async (account) => (calls.push(`acquire ${account}`), true),
      release: async (account) => void calls.push(`release ${account}`),
    });
    expect((await failure(renderer.render({ url: `${origin}/x`, account: 7 }))).code).toBe(
      "browser",
    );
    expect(calls).toEqual(["acquire 7", "release 7"]);
    await renderer.close();
  });

  it("answers busy (503) when the count cannot be read", async () => {
    const renderer = rendererWith({
      acquire: async () => {
        throw new Error("connection refused");
      },
      release: async () => {},
    });
    const error = await failure(renderer.render({ url: `${origin}/x`, account: 7 }));
    expect(error.code).toBe("busy");
    expect(error.httpStatus).toBe(503);
  });

  it("is not asked for a render without an account", async () => {
    let asked = false;
    const renderer = rendererWith({
      acquire: async () => (asked = true),
      release: async () => {},
    });
    await failure(renderer.render({ url: `${origin}/x` }));
    expect(asked).toBe(false);
    await renderer.close();
  });
});
