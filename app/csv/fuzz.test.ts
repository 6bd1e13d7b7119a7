import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsvFile } from "./parse-csv";
import { CSV_FORMATS, CSV_LIMITS, CSV_RANGES, type CsvParseOutcome } from "./types";

// Whatever the bytes, the parser answers a result or a typed file-level error, never throws (nor
// catches an exception of its own), and every key it answers has an English message.

const FIXTURES = path.resolve("tests/fixtures/csv");
const fixtures = readdirSync(FIXTURES).map((name) => readFileSync(path.join(FIXTURES, name)));
const messages = JSON.parse(readFileSync(path.resolve("locales/en/csv.json"), "utf8")) as {
  errors: Record<string, string>;
};
/** A key with an English message: a phrase, or a counted one's plural forms (`key_one`, `key_other`). */
const known = (key: string) => {
  const name = key.slice("errors.".length);
  return (
    key.startsWith("errors.") &&
    (typeof messages.errors[name] === "string" ||
      typeof messages.errors[`${name}_other`] === "string")
  );
};
const WALL = /^20\d\d-\d\d-\d\d \d\d:\d\d:\d\d$/;
const RUNS = { numRuns: 300 };

function checkTyped(outcome: CsvParseOutcome): void {
  if (!outcome.ok) {
    expect(known(outcome.key), outcome.key).toBe(true);
    // `errors.unreadable` stands for an exception inside the parser: none may happen.
    expect(outcome.key).not.toBe("errors.unreadable");
    return;
  }
  expect(CSV_FORMATS).toContain(outcome.format);
  expect(["mg/dL", "mmol/L"]).toContain(outcome.unit);
  expect(outcome.lines).toBeLessThanOrEqual(CSV_LIMITS.dataLines);
  for (const error of outcome.errors) {
    expect(known(error.key), error.key).toBe(true);
    expect(error.values?.line).toBe(error.line);
  }
  for (const e of outcome.entries) {
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.wall).toMatch(WALL);
    if (e.kind === "cgm" || e.kind === "bg")
      expect(e.mgdl >= CSV_RANGES.glucose.min && e.mgdl <= CSV_RANGES.glucose.max).toBe(true);
    if (e.kind === "carbs")
      expect(e.grams >= CSV_RANGES.carbs.min && e.grams <= CSV_RANGES.carbs.max).toBe(true);
    if (e.kind === "insulin")
      expect(e.units >= CSV_RANGES.insulin.min && e.units <= CSV_RANGES.insulin.max).toBe(true);
  }
}

const fixture = fc.constantFrom(...fixtures);
/** Bytes that matter to a CSV reader, and some that break encodings. */
const nastyByte = fc.constantFrom(
  0x22,
  0x2c,
  0x3b,
  0x09,
  0x0a,
  0x0d,
  0x00,
  0xff,
  0xfe,
  0xef,
  0xbb,
  0xbf,
  0xc3,
  0x80,
  0x20,
  0x31,
  0x2d,
  0x3a,
);

describe("the parser never throws", () => {
  it("on random bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2_000 }), async (bytes) =>
        checkTyped(await parseCsvFile(bytes)),
      ),
      RUNS,
    );
  });

  it("on random CSV-like text", async () => {
    const unit = fc.constantFrom(
      ...'0123456789-:./ ,;\t"\r\nAPMmgdLol'.split(""),
      "2026-01-05 08:00",
      "EGV",
      "Device Timestamp",
      "Record Type",
      "Event Type",
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 400 }), async (text) =>
        checkTyped(await parseCsvFile(Buffer.from(text))),
      ),
      RUNS,
    );
  });

  it("on truncated fixtures", async () => {
    await fc.assert(
      fc.asyncProperty(fixture, fc.double({ min: 0, max: 1, noNaN: true }), async (bytes, at) => {
        checkTyped(await parseCsvFile(bytes.subarray(0, Math.floor(bytes.length * at))));
      }),
      RUNS,
    );
  });

  it("on mutated fixtures", async () => {
    const mutation = fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      fc.oneof(nastyByte, fc.integer({ min: 0, max: 255 })),
      fc.constantFrom("replace", "insert", "delete"),
    );
    await fc.assert(
      fc.asyncProperty(
        fixture,
        fc.array(mutation, { minLength: 1, maxLength: 12 }),
        async (original, mutations) => {
          const bytes = [...original];
          for (const [at, byte, how] of mutations) {
            const i = Math.floor(at * bytes.length);
            if (how === "replace") bytes[i] = byte;
            else if (how === "insert") bytes.splice(i, 0, byte);
            else bytes.splice(i, 1);
          }
          checkTyped(await parseCsvFile(Uint8Array.from(bytes)));
        },
      ),
      RUNS,
    );
  });

  it("on huge fields and lines of many fields", async () => {
    const filler = fc.oneof(
      fc.integer({ min: 900, max: 5_000 }).map((n) => "9".repeat(n)),
      fc.integer({ min: 900, max: 5_000 }).map((n) => `"${"a,\n".repeat(Math.ceil(n / 3))}"`),
      fc.integer({ min: 150, max: 600 }).map((n) => ",".repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(
        fixture,
        fc.double({ min: 0, max: 1, noNaN: true }),
        filler,
        async (original, at, fill) => {
          const text = original.toString("latin1");
          const i = Math.floor(at * text.length);
          const bytes = Buffer.concat([
            original.subarray(0, i),
            Buffer.from(fill),
            original.subarray(i),
          ]);
          checkTyped(await parseCsvFile(bytes));
        },
      ),
      RUNS,
    );
  });
});
