import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INT4_MAX } from "~/schemas/fields";
import {
  basalSaveSchema,
  cgmRecordSchema,
  meterRecordSchema,
  pumpRecordSchema,
  pumpSettingSchema,
} from "~/schemas/upload";
import { cgmRecordToWire, meterRecordToWire, pumpRecordToWire } from "~/wire/upload";
import type { DeviceError, DeviceErrorKind, Result } from "./errors";
import { encodeFrame, FrameReader, type Frame } from "./frame";
import { parseMeterText } from "./meter-text";
import { parseCgmHistory, parseManualBlood, parsePumpHistory } from "./records";
import { parseBasalProgram, parsePumpSettings, parseSerialNumber } from "./settings";

// Whatever the bytes and however they are split into reads, the frame reader and the parsers
// answer frames, records or a typed device error: never an exception, never a hang. 10,000 runs.

/** Every kind the device layer may answer (a new kind must be added here on purpose). */
const KINDS: readonly DeviceErrorKind[] = [
  "shortPacket",
  "badEscape",
  "badMarker",
  "badCrc",
  "badMd5",
  "badLength",
  "loopGuard",
  "recordSize",
  "notManualBloodRecords",
  "sureSameDevice",
  "badMeterLine",
  "badSetting",
  "cgmPda",
  "versionFormat",
  "wrongSoftwareVersion",
];
const expectTyped = (error: DeviceError) => expect(KINDS).toContain(error.kind);

/** The stream cut into reads of the given sizes, used in turn; the rest in one last read. */
function split(stream: Uint8Array, sizes: number[]): Uint8Array[] {
  const reads: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; sizes.length > 0 && at < stream.length && i < stream.length + sizes.length; i++) {
    const size = sizes[i % sizes.length]!;
    reads.push(stream.subarray(at, at + size));
    at += size;
  }
  reads.push(stream.subarray(at));
  return reads;
}

/** Frames and error of one reader fed the reads in order; checks that nothing follows an error. */
function readAll(reads: Uint8Array[]): { frames: Frame[]; error: DeviceError | null } {
  const reader = new FrameReader();
  const frames: Frame[] = [];
  let error: DeviceError | null = null;
  for (const read of reads) {
    const result = reader.push(read);
    if (error) expect(result).toEqual({ frames: [], error });
    frames.push(...result.frames);
    error = result.error;
  }
  if (error) expectTyped(error);
  return { frames, error };
}

/** Read sizes from 0 (an empty transfer) to past the 1,024 bytes of one USB read. */
const readSizes = fc.array(
  fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 1100 })),
  { maxLength: 12 },
);
/** Bytes that matter to the framing, more often than chance would give them. */
const frameByte = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(0x2b, 0x2f) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 255 }) },
);
const frame = fc.record({
  port: fc.oneof(fc.constantFrom(0x2b, 0x2f), fc.integer({ min: 0, max: 255 })),
  parameter: fc.oneof(fc.constantFrom(0x2b, 0x2f), fc.integer({ min: 0, max: 255 })),
  operation: fc.constantFrom(0x02, 0x2b, 0x2f, 0x00),
  body: fc.uint8Array({ maxLength: 80 }),
});
const mutation = fc.oneof(
  fc.record({
    op: fc.constant("flip" as const),
    at: fc.nat(),
    byte: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), byte: frameByte }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), byte: fc.constant(0) }),
);
type Mutation = { op: "flip" | "insert" | "delete"; at: number; byte: number };

function mutate(stream: Uint8Array, mutations: Mutation[]): Uint8Array {
  const bytes = [...stream];
  for (const { op, at, byte } of mutations) {
    const i = bytes.length === 0 ? 0 : at % bytes.length;
    if (op === "flip") bytes[i] = byte;
    else if (op === "insert") bytes.splice(i, 0, byte);
    else bytes.splice(i, 1);
  }
  return Uint8Array.from(bytes);
}

describe("FrameReader under random input", () => {
  it("random streams: typed errors only, and the same answer however the stream is split", () => {
    fc.assert(
      fc.property(fc.array(frameByte, { maxLength: 300 }), readSizes, (bytes, sizes) => {
        const stream = Uint8Array.from(bytes);
        expect(readAll(split(stream, sizes))).toEqual(readAll([stream]));
      }),
      { numRuns: 3_000 },
    );
  });

  it("valid frames come back exactly; mutated ones as frames or typed errors, whatever the split", () => {
    fc.assert(
      fc.property(
        fc.array(frame, { minLength: 1, maxLength: 3 }),
        fc.array(mutation, { maxLength: 3 }),
        readSizes,
        (frames, mutations, sizes) => {
          const stream = mutate(
            Uint8Array.from(frames.flatMap((f) => [...encodeFrame(f)])),
            mutations,
          );
          const whole = readAll([stream]);
          expect(readAll(split(stream, sizes))).toEqual(whole);
          if (mutations.length === 0) expect(whole).toEqual({ frames, error: null });
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

/** A result's records, checked to be typed when it is an error. */
function valueOf<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  expectTyped(result.error);
  return null;
}

const u32 = (bytes: Uint8Array, at: number) =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
/** A record the server may take: its u32 fields fit 2^31 - 1 and its clock's month to second are below 100 (two digits). */
const serverShaped = (bytes: Uint8Array, u32At: number[], clockAt: number) =>
  u32At.every((at) => u32(bytes, at) <= INT4_MAX) &&
  bytes.subarray(clockAt + 1, clockAt + 6).every((b) => b < 100);

describe("record parsers under random input", () => {
  it("answer one record per whole record size, or a typed size error; records the server can take pass its schemas", () => {
    const parsers = {
      pump: {
        parse: parsePumpHistory,
        size: 28,
        u32At: [0],
        clockAt: 10,
        schema: pumpRecordSchema,
        toWire: pumpRecordToWire,
      },
      cgm: {
        parse: parseCgmHistory,
        size: 22,
        u32At: [0, 12],
        clockAt: 4,
        schema: cgmRecordSchema,
        toWire: cgmRecordToWire,
      },
      manual: {
        parse: parseManualBlood,
        size: 12,
        u32At: [0],
        clockAt: 4,
        schema: cgmRecordSchema,
        toWire: cgmRecordToWire,
      },
    };
    const input = fc
      .constantFrom("pump" as const, "cgm" as const, "manual" as const)
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.oneof(
            fc.uint8Array({ maxLength: 120 }),
            fc.integer({ min: 0, max: 4 }).chain((n) =>
              fc.uint8Array({
                minLength: n * parsers[name].size,
                maxLength: n * parsers[name].size,
              }),
            ),
          ),
        ),
      );
    fc.assert(
      fc.property(input, ([name, bytes]) => {
        const parser = parsers[name];
        const records = valueOf<unknown[]>(parser.parse(bytes));
        expect(records === null).toBe(bytes.length % parser.size !== 0);
        for (const [i, record] of (records ?? []).entries()) {
          const raw = bytes.subarray(i * parser.size, (i + 1) * parser.size);
          if (serverShaped(raw, parser.u32At, parser.clockAt))
            expect(parser.schema.safeParse(parser.toWire(record as never)).success).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("meter text: readings the upload API accepts, or a typed error", () => {
    const unit = fc.constantFrom(
      ..."0123456789-: ,;\tTSN\r\nhx".split(""),
      "2026-07-01 08:15:00",
      "SN:",
      "\uFFFD",
      "\u0000",
    );
    const answer = fc.oneof(
      fc.string({ unit, maxLength: 200 }).map((t) => new TextEncoder().encode(t)),
      fc.uint8Array({ maxLength: 200 }),
    );
    fc.assert(
      fc.property(answer, (bytes) => {
        for (const record of valueOf(parseMeterText(bytes))?.records ?? [])
          expect(meterRecordSchema.safeParse(meterRecordToWire(record)).success).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it("settings replies: shapes the upload API accepts, or a typed error", () => {
    const reply = fc.uint8Array({ maxLength: 140 });
    const replies = fc.record({
      lowBg: reply,
      highBg: reply,
      defaultCho: reply,
      sensitiveSilver: reply,
      doubleBolus: reply,
      maxBolus: reply,
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        reply,
        replies,
        (index, bytes, settingReplies) => {
          const preset = valueOf(parseBasalProgram(index, bytes));
          if (preset)
            expect(
              basalSaveSchema.safeParse({ list: [preset], pdaVersion: "5.2.0", pdaSn: "EQ0001" })
                .success,
            ).toBe(true);
          const settings = valueOf(
            parsePumpSettings(settingReplies, { pdaSn: "EQ0001", pdaVersion: "5.2.0" }),
          );
          if (settings) expect(pumpSettingSchema.safeParse(settings).success).toBe(true);
          valueOf(parseSerialNumber(bytes));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
