import { describe, expect, it } from "vitest";
import {
  HISTORY_READ,
  PUMP_SETTING_READS,
  SERIAL_NUMBER_READ,
  basalProgramRead,
  requestOf,
} from "./commands";
import {
  crc8,
  encodeFrame,
  encodeRequest,
  escapeHeader,
  FrameReader,
  headerCrc,
  MAX_BODY_BYTES,
  MAX_READS_PER_FRAME,
  md5,
  type Frame,
} from "./frame";

/** Bytes from hex text; spaces are ignored. */
const hex = (text: string) =>
  Uint8Array.from(text.replace(/\s+/g, "").match(/../g) ?? [], (h) => parseInt(h, 16));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** Every frame and the error of reading `reads` one after the other with one reader. */
function readAll(...reads: Uint8Array[]) {
  const reader = new FrameReader();
  const frames: Frame[] = [];
  let error = null;
  for (const read of reads) {
    const result = reader.push(read);
    frames.push(...result.frames);
    error = result.error;
  }
  return { frames, error };
}

const EMPTY_MD5 = "d41d8cd98f00b204e9800998ecf8427e";
const ZEROS4_MD5 = "f1d3ff8443297732862df21dc4e57262";
/** Test vectors of the Equil fact sheet. */
const HISTORY_REQUEST = hex(`2B2B 05 01 02 45 10 00 00 00 2B2B ${EMPTY_MD5}`);
const SERIAL_REQUEST = hex(`2B2B 00 07 02 30 14 00 00 00 2B2B 00000000 ${ZEROS4_MD5}`);
/** Port 4 parameter 2 (basal program 0): its CRC is 0x2F and is escaped. */
const BASAL0_REQUEST = hex(`2B2B 04 02 02 2F 2F 14 00 00 00 2B2B 00000000 ${ZEROS4_MD5}`);

describe("crc8 (CRC-8/MAXIM)", () => {
  it.each([
    ["01", 0x5e],
    ["02", 0xbc],
    ["03", 0xe2],
    ["313233343536373839", 0xa1], // ASCII "123456789": the check value
  ])("crc8(%s) = %i", (bytes, expected) => {
    expect(crc8(hex(bytes))).toBe(expected);
  });

  it.each([
    ["03 11 02 00 14 00 00 00", 0x9e],
    ["04 05 02 00 14 00 00 00", 0xaa],
    ["03 10 02 00 14 00 00 00", 0xa9],
    ["05 00 02 00 14 00 00 00", 0x7c],
    ["04 02 02 00 14 00 00 00", 0x2f],
    ["05 01 02 00 10 00 00 00", 0x45],
    ["00 07 02 00 14 00 00 00", 0x30],
  ])("header %s has CRC %i (byte 3 is not covered)", (header, expected) => {
    expect(headerCrc(hex(header))).toBe(expected);
    const withOtherByte3 = hex(header);
    withOtherByte3[3] = 0xff;
    expect(headerCrc(withOtherByte3)).toBe(expected);
  });
});

describe("md5", () => {
  it.each([
    ["", EMPTY_MD5],
    ["00000000", ZEROS4_MD5],
  ])("md5(%s)", (bytes, digest) => {
    expect(md5(hex(bytes))).toEqual(hex(digest));
  });
});

describe("encodeRequest", () => {
  it.each([
    ["history", 0x05, 0x01, "", HISTORY_REQUEST],
    ["serial number", 0x00, 0x07, "00000000", SERIAL_REQUEST],
    ["basal program 0 (escaped CRC)", 0x04, 0x02, "00000000", BASAL0_REQUEST],
  ])("%s request", (_name, port, parameter, payload, expected) => {
    expect(encodeRequest(port, parameter, hex(payload))).toEqual(expected);
  });

  it("escapes 0x2B and 0x2F in the header only, never in the body", () => {
    const frame = encodeFrame({ port: 0x2b, parameter: 0x2f, operation: 0x02, body: hex("2B2F") });
    expect([...frame.subarray(0, 6)]).toEqual([0x2b, 0x2b, 0x2f, 0x2b, 0x2f, 0x2f]);
    expect([...frame.subarray(frame.length - 18, frame.length - 16)]).toEqual([0x2b, 0x2f]);
  });
});

describe("the command table", () => {
  it.each([
    ["history", HISTORY_READ, HISTORY_REQUEST],
    ["serial number", SERIAL_NUMBER_READ, SERIAL_REQUEST],
    ["basal program 0", basalProgramRead(0), BASAL0_REQUEST],
  ])("%s request is the fact sheet's vector", (_name, read, expected) => {
    expect(requestOf(read)).toEqual(expected);
  });

  it.each([
    ["lowBg", PUMP_SETTING_READS.lowBg, "2B2B 03 11 02 9E 14 00 00 00 2B2B 01000000"],
    ["originBasal", PUMP_SETTING_READS.originBasal, "2B2B 04 05 02 AA 14 00 00 00 2B2B 0C000000"],
    [
      "effectiveTime",
      PUMP_SETTING_READS.effectiveTime,
      "2B2B 03 10 02 A9 14 00 00 00 2B2B 03000000",
    ],
  ])("%s request: header and payload", (_name, read, start) => {
    const request = requestOf(read);
    expect(request.subarray(0, request.length - 16)).toEqual(hex(start));
  });
});

describe("escapeHeader", () => {
  it.each([
    ["00 01 02 03", "00 01 02 03"],
    ["2B", "2F 2B"],
    ["2F", "2F 2F"],
    ["2B 2B 2F 2F", "2F 2B 2F 2B 2F 2F 2F 2F"],
  ])("%s -> %s", (header, escaped) => {
    expect(escapeHeader(hex(header))).toEqual(hex(escaped));
  });
});

describe("FrameReader", () => {
  it.each([
    ["history request", HISTORY_REQUEST, { port: 5, parameter: 1, operation: 2, body: hex("") }],
    [
      "serial-number request",
      SERIAL_REQUEST,
      { port: 0, parameter: 7, operation: 2, body: hex("00000000") },
    ],
    ["escaped CRC", BASAL0_REQUEST, { port: 4, parameter: 2, operation: 2, body: hex("00000000") }],
  ])("reads the %s", (_name, bytes, frame) => {
    expect(readAll(bytes)).toEqual({ frames: [frame], error: null });
  });

  it("reads two frames in one read, and skips bytes before a frame", () => {
    const { frames, error } = readAll(concat(hex("00 11 2B 00"), SERIAL_REQUEST, BASAL0_REQUEST));
    expect(error).toBeNull();
    expect(frames.map((f) => [f.port, f.parameter])).toEqual([
      [0, 7],
      [4, 2],
    ]);
  });

  it("reads the same frames whatever the split of two frames into two reads", () => {
    const stream = concat(BASAL0_REQUEST, HISTORY_REQUEST);
    for (let cut = 0; cut <= stream.length; cut++) {
      const { frames, error } = readAll(stream.subarray(0, cut), stream.subarray(cut));
      expect(error).toBeNull();
      expect(frames.map((f) => [f.port, f.parameter, f.body.length])).toEqual([
        [4, 2, 4],
        [5, 1, 0],
      ]);
    }
  });

  it("reads a frame delivered one byte per read", () => {
    const { frames } = readAll(...Array.from(BASAL0_REQUEST, (b) => Uint8Array.of(b)));
    expect(frames).toEqual([{ port: 4, parameter: 2, operation: 2, body: hex("00000000") }]);
  });

  it("round-trips headers full of 0x2B and 0x2F, and bodies that hold markers", () => {
    const frame = { port: 0x2b, parameter: 0x2f, operation: 0x2b, body: hex("2B2B 2F 2B 00") };
    expect(readAll(encodeFrame(frame))).toEqual({ frames: [frame], error: null });
  });

  it("reads a body spread over many 1,024-byte reads", () => {
    const body = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
    const wire = encodeFrame({ port: 5, parameter: 1, operation: 2, body });
    const reads = Array.from({ length: Math.ceil(wire.length / 1024) }, (_, i) =>
      wire.subarray(i * 1024, (i + 1) * 1024),
    );
    const { frames } = readAll(...reads);
    expect(frames[0]!.body).toEqual(body);
  });

  it.each([
    [
      "a frame under 12 bytes",
      "2B2B 05 01 02 2B2B",
      { kind: "shortPacket", detail: { headerBytes: 3 } },
    ],
    [
      "0x2F followed by another byte",
      "2B2B 05 2F 01",
      { kind: "badEscape", detail: { byte: 0x01 } },
    ],
    ["a lone 0x2B in the header", "2B2B 05 2B 01", { kind: "badEscape", detail: { byte: 0x2b } }],
    [
      "no closing marker",
      "2B2B 05 01 02 45 10 00 00 00 2B 00",
      { kind: "badMarker", detail: { byte: 0x00 } },
    ],
    [
      "a header too long",
      "2B2B 05 01 02 45 10 00 00 00 00",
      { kind: "badMarker", detail: { byte: 0x00 } },
    ],
    [
      "a wrong CRC",
      `2B2B 05 01 02 46 10 00 00 00 2B2B ${EMPTY_MD5}`,
      { kind: "badCrc", detail: { expected: 0x45, received: 0x46 } },
    ],
    [
      "a wrong MD5",
      `2B2B 05 01 02 45 10 00 00 00 2B2B ${EMPTY_MD5.slice(0, -2)}7f`,
      { kind: "badMd5" },
    ],
    [
      "a wrong MD5 of a payload",
      `2B2B 00 07 02 30 14 00 00 00 2B2B 00000001 ${ZEROS4_MD5}`,
      { kind: "badMd5" },
    ],
  ])("refuses %s", (_name, bytes, error) => {
    expect(readAll(hex(bytes))).toEqual({ frames: [], error });
  });

  /** A header with a correct CRC and the given length bytes. */
  function headerWithLength(lengthBytes: string) {
    const header = hex(`05 01 02 00 ${lengthBytes}`);
    header[3] = headerCrc(header);
    return concat(hex("2B2B"), escapeHeader(header), hex("2B2B"));
  }

  it.each([
    ["under 16 (no room for the MD5)", "0F 00 00 00", 15],
    ["negative", "FF FF FF FF", -1],
    ["2^31 (negative as i32)", "00 00 00 80", -2147483648],
    ["above the largest reply", "11 00 80 00", MAX_BODY_BYTES + 17],
  ])("refuses a length %s", (_name, lengthBytes, length) => {
    expect(readAll(headerWithLength(lengthBytes)).error).toEqual({
      kind: "badLength",
      detail: { length },
    });
  });

  it("accepts the largest length and waits for its bytes", () => {
    expect(readAll(headerWithLength("10 00 80 00"))).toEqual({ frames: [], error: null });
  });

  it("stops after too many reads without a frame", () => {
    const reader = new FrameReader();
    for (let i = 0; i < MAX_READS_PER_FRAME; i++)
      expect(reader.push(new Uint8Array(0)).error).toBeNull();
    expect(reader.push(new Uint8Array(0)).error).toEqual({
      kind: "loopGuard",
      detail: { reads: MAX_READS_PER_FRAME + 1, bytes: 0 },
    });
  });

  it("stops after more bytes than the longest frame without a frame", () => {
    const reader = new FrameReader();
    const longest = 2 + 16 + 2 + MAX_BODY_BYTES;
    expect(reader.push(new Uint8Array(longest)).error).toBeNull();
    expect(reader.push(Uint8Array.of(0)).error).toEqual({
      kind: "loopGuard",
      detail: { reads: 2, bytes: longest + 1 },
    });
  });

  it("counts reads and bytes from the last complete frame", () => {
    const reader = new FrameReader();
    for (let i = 0; i < MAX_READS_PER_FRAME; i++) reader.push(new Uint8Array(0));
    expect(reader.push(HISTORY_REQUEST)).toEqual({
      frames: [expect.objectContaining({ port: 5 })],
      error: null,
    });
    expect(reader.push(new Uint8Array(0)).error).toBeNull();
  });

  it("keeps its first error and reads nothing more", () => {
    const reader = new FrameReader();
    const first = reader.push(hex("2B2B 05 01 02 2B2B"));
    expect(reader.push(HISTORY_REQUEST)).toEqual({ frames: [], error: first.error });
  });

  it("returns the frames completed before an error in the same read", () => {
    const { frames, error } = readAll(concat(HISTORY_REQUEST, hex("2B2B 2F 00")));
    expect(frames).toHaveLength(1);
    expect(error).toEqual({ kind: "badEscape", detail: { byte: 0 } });
  });
});
