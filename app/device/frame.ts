// The calculator itself: the package's top-level `crc81wire` wraps its input in Node's Buffer.
import crc81wire from "crc/calculators/crc81wire";
import SparkMD5 from "spark-md5";
import { type DeviceError } from "./errors";

/**
 * The Equil handheld's USB frame.
 *
 * Header, 8 bytes: port, parameter, operation, CRC-8, then the body length as u32 little-endian.
 * The CRC is CRC-8/MAXIM (reflected polynomial 0x8C, init 0, no final XOR) over header bytes 0-2
 * and 4-7. The body is the payload followed by the MD5 of the payload (16 bytes); the length
 * counts both. Only the header is framed and escaped: on the wire a frame is `2B 2B`, the header
 * with 0x2F put before each 0x2B or 0x2F, `2B 2B`, then the body as it is.
 */

/** A frame as read: the payload without its MD5. */
export interface Frame {
  readonly port: number;
  readonly parameter: number;
  readonly operation: number;
  readonly body: Uint8Array;
}

/** Every request the host sends reads (GET). */
const OPERATION_GET = 0x02;
const HEADER_BYTES = 8;
const MD5_BYTES = 16;
const MARKER = 0x2b;
const ESCAPE = 0x2f;

/**
 * A reply longer than this is not believed. The whole history log comes back as one reply, and
 * 8 MiB holds 299,593 history records of 28 bytes: more than the 200,000 records one upload may
 * carry.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Reads that may pass without a complete frame (a device answering empty reads forever). */
export const MAX_READS_PER_FRAME = 102_400;
/** Bytes that may pass without a complete frame: the longest frame there can be. */
export const MAX_BYTES_PER_FRAME = 2 + 2 * HEADER_BYTES + 2 + MAX_BODY_BYTES;

/** CRC-8/MAXIM (also called Dallas 1-Wire): check value 0xA1 for the ASCII text "123456789". */
export function crc8(bytes: Uint8Array): number {
  return crc81wire(bytes) & 0xff;
}

/** The CRC of a header: over bytes 0-2 and 4-7 (byte 3 holds the CRC itself). */
export function headerCrc(header: Uint8Array): number {
  return crc8(
    Uint8Array.of(
      header[0]!,
      header[1]!,
      header[2]!,
      header[4]!,
      header[5]!,
      header[6]!,
      header[7]!,
    ),
  );
}

/** The 16-byte MD5 digest of some bytes. */
export function md5(bytes: Uint8Array): Uint8Array {
  const hex = SparkMD5.ArrayBuffer.hash(bytes.slice().buffer);
  const digest = new Uint8Array(MD5_BYTES);
  for (let i = 0; i < MD5_BYTES; i++) digest[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return digest;
}

/** The header with 0x2F put before each 0x2B or 0x2F. */
export function escapeHeader(header: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const byte of header) {
    if (byte === MARKER || byte === ESCAPE) out.push(ESCAPE);
    out.push(byte);
  }
  return Uint8Array.from(out);
}

/** A frame on the wire: `2B 2B`, escaped header, `2B 2B`, payload, MD5 of the payload. */
export function encodeFrame(frame: Frame): Uint8Array {
  const length = frame.body.length + MD5_BYTES;
  const header = Uint8Array.of(
    frame.port,
    frame.parameter,
    frame.operation,
    0,
    length & 0xff,
    (length >>> 8) & 0xff,
    (length >>> 16) & 0xff,
    (length >>> 24) & 0xff,
  );
  header[3] = headerCrc(header);
  const escaped = escapeHeader(header);
  const out = new Uint8Array(4 + escaped.length + length);
  out.set([MARKER, MARKER], 0);
  out.set(escaped, 2);
  out.set([MARKER, MARKER], 2 + escaped.length);
  out.set(frame.body, 4 + escaped.length);
  out.set(md5(frame.body), 4 + escaped.length + frame.body.length);
  return out;
}

/** A request from the host: operation GET. */
export function encodeRequest(port: number, parameter: number, payload: Uint8Array): Uint8Array {
  return encodeFrame({ port, parameter, operation: OPERATION_GET, body: payload });
}

/** What one `push` produced: the frames completed, and the error that stopped the reader, if any. */
export interface ReadResult {
  readonly frames: Frame[];
  readonly error: DeviceError | null;
}

type State = "seek" | "header" | "close" | "body";

/**
 * Reads frames from a byte stream that arrives in reads of any size (a frame may span many reads,
 * one read may hold several frames).
 *
 * Rules: bytes before the opening `2B 2B` are skipped; the header is unescaped as it arrives
 * (0x2F must be followed by 0x2B or 0x2F, and a 0x2B inside the header must be escaped); a
 * `2B 2B` before 8 header bytes is a frame under 12 bytes; after 8 header bytes the closing
 * `2B 2B` must follow; then the CRC is checked, the length is read as a signed 32-bit number and
 * must lie between 16 and 16 + MAX_BODY_BYTES, that many bytes are taken and the MD5 is checked.
 * The port, parameter and operation are returned as they are, not checked.
 *
 * The first error stops the reader: it is returned by that `push` and by every later one. Start
 * a new reader for the next request. Every `push` takes time proportional to its bytes, so no
 * input can make it hang.
 */
export class FrameReader {
  private state: State = "seek";
  private markerHalf = false;
  private escapePending = false;
  private readonly header = new Uint8Array(HEADER_BYTES);
  private headerLength = 0;
  private body = new Uint8Array(0);
  private bodyLength = 0;
  private reads = 0;
  private bytes = 0;
  private error: DeviceError | null = null;

  /** Takes one read; answers the frames it completed and the error that stopped the reader. */
  push(chunk: Uint8Array): ReadResult {
    const frames: Frame[] = [];
    if (this.error) return { frames, error: this.error };
    this.reads++;
    let at = 0;
    while (at < chunk.length && !this.error) {
      at =
        this.state === "body"
          ? this.takeBody(chunk, at, frames)
          : this.takeFramingByte(chunk[at]!, at);
    }
    if (!this.error) this.checkGuard();
    return { frames, error: this.error };
  }

  /** Reads and bytes are counted from the end of the last complete frame. */
  private checkGuard() {
    if (this.reads > MAX_READS_PER_FRAME || this.bytes > MAX_BYTES_PER_FRAME) {
      this.fail({ kind: "loopGuard", detail: { reads: this.reads, bytes: this.bytes } });
    }
  }

  private takeFramingByte(byte: number, at: number): number {
    this.bytes++;
    if (this.state === "seek") this.seek(byte);
    else if (this.state === "header") this.headerByte(byte);
    else this.closeByte(byte);
    return at + 1;
  }

  private seek(byte: number) {
    if (byte !== MARKER) this.markerHalf = false;
    else if (!this.markerHalf) this.markerHalf = true;
    else {
      this.markerHalf = false;
      this.headerLength = 0;
      this.escapePending = false;
      this.state = "header";
    }
  }

  private headerByte(byte: number) {
    if (this.escapePending) {
      this.escapePending = false;
      if (byte !== MARKER && byte !== ESCAPE)
        return this.fail({ kind: "badEscape", detail: { byte } });
      return this.addHeaderByte(byte);
    }
    if (this.markerHalf) {
      this.markerHalf = false;
      if (byte === MARKER)
        return this.fail({ kind: "shortPacket", detail: { headerBytes: this.headerLength } });
      return this.fail({ kind: "badEscape", detail: { byte: MARKER } });
    }
    if (byte === ESCAPE) this.escapePending = true;
    else if (byte === MARKER) this.markerHalf = true;
    else this.addHeaderByte(byte);
  }

  private addHeaderByte(byte: number) {
    this.header[this.headerLength++] = byte;
    if (this.headerLength === HEADER_BYTES) this.state = "close";
  }

  private closeByte(byte: number) {
    if (byte !== MARKER) return this.fail({ kind: "badMarker", detail: { byte } });
    if (!this.markerHalf) {
      this.markerHalf = true;
      return;
    }
    this.markerHalf = false;
    this.startBody();
  }

  private startBody() {
    const expected = headerCrc(this.header);
    if (expected !== this.header[3])
      return this.fail({ kind: "badCrc", detail: { expected, received: this.header[3]! } });
    const length = new DataView(this.header.buffer).getInt32(4, true);
    if (length < MD5_BYTES || length > MD5_BYTES + MAX_BODY_BYTES)
      return this.fail({ kind: "badLength", detail: { length } });
    this.body = new Uint8Array(length);
    this.bodyLength = 0;
    this.state = "body";
  }

  private takeBody(chunk: Uint8Array, at: number, frames: Frame[]): number {
    const take = Math.min(chunk.length - at, this.body.length - this.bodyLength);
    this.body.set(chunk.subarray(at, at + take), this.bodyLength);
    this.bodyLength += take;
    this.bytes += take;
    if (this.bodyLength === this.body.length) this.finishFrame(frames);
    return at + take;
  }

  private finishFrame(frames: Frame[]) {
    const payload = this.body.subarray(0, this.body.length - MD5_BYTES);
    if (!sameBytes(md5(payload), this.body.subarray(payload.length)))
      return this.fail({ kind: "badMd5" });
    frames.push({
      port: this.header[0]!,
      parameter: this.header[1]!,
      operation: this.header[2]!,
      body: payload,
    });
    this.state = "seek";
    this.body = new Uint8Array(0);
    this.reads = 0;
    this.bytes = 0;
  }

  private fail(error: DeviceError) {
    this.error = error;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
