import { PassThrough } from "node:stream";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { bodyLimitFor, readBodyWithin } from "./body-limit";

/** A request stand-in: headers plus a body stream fed by the test. */
function request(headers: Record<string, string>) {
  const stream = new PassThrough();
  return Object.assign(stream, { headers }) as unknown as IncomingMessage & PassThrough;
}

describe("bodyLimitFor", () => {
  it("gives forms and JSON 64 KB and the report logo form 2 MB, .data requests included", () => {
    expect(bodyLimitFor("/login").bytes).toBe(65_536);
    expect(bodyLimitFor("/api/user/register").bytes).toBe(65_536);
    expect(bodyLimitFor("/newsetting").bytes).toBe(2_097_152);
    expect(bodyLimitFor("/newsetting.data").bytes).toBe(2_097_152);
    expect(bodyLimitFor("/newsetting/other").bytes).toBe(65_536);
  });

  it("gives the upload error reports 2 MB: 250 reports of 2048 three-byte characters do not fit in 64 KB", () => {
    expect(bodyLimitFor("/api/patient-data/uploadErrLog").bytes).toBe(2_097_152);
    const largest = JSON.stringify({
      list: Array.from({ length: 250 }, () => ({
        operatorUserId: 2_147_483_647,
        patientUserId: 2_147_483_647,
        content: "€".repeat(2048),
      })),
    });
    expect(Buffer.byteLength(largest)).toBeGreaterThan(65_536);
    expect(Buffer.byteLength(largest)).toBeLessThan(2_097_152);
    expect(bodyLimitFor("/api/patient-data/findLastRecord").bytes).toBe(65_536);
  });
});

describe("readBodyWithin", () => {
  it("refuses a declared length over the cap without reading", async () => {
    const req = request({ "content-length": "101" });
    expect(await readBodyWithin(req, 100)).toEqual({ ok: false, limit: 100 });
    expect(req.listenerCount("data")).toBe(0);
  });

  it("stops a chunked body at the cap and leaves the rest unread", async () => {
    const req = request({ "transfer-encoding": "chunked" });
    const result = readBodyWithin(req, 100);
    req.write(Buffer.alloc(60));
    req.write(Buffer.alloc(60));
    expect(await result).toEqual({ ok: false, limit: 100 });
    expect(req.listenerCount("data")).toBe(0);
    expect(req.isPaused()).toBe(true);
  });

  it("returns a body that fits, byte for byte", async () => {
    const req = request({ "transfer-encoding": "chunked" });
    const result = readBodyWithin(req, 100);
    req.write(Buffer.from("hello "));
    req.end(Buffer.from("world"));
    const read = await result;
    expect(read.ok && read.body?.toString()).toBe("hello world");
  });
});
