import { PUMP_SETTING_READS } from "../commands";
import { LINK_COMMANDS } from "../equil-link";
import { encodeFrame, escapeHeader, FrameReader, headerCrc, type Frame } from "../frame";
import { DeviceTimeout } from "../pump-upload";
import type { Transport } from "../transport";
import {
  encodeClock,
  encodeHistory,
  simulateDays,
  type DeviceClock,
  type HistoryRecord,
} from "./days";

/**
 * The Equil handheld's side of the USB protocol, byte for byte, behind the Transport interface:
 * each request written to it is decoded with the frame reader and answered with an encoded frame
 * (port, parameter and operation of the request; the payload; its MD5), which the following reads
 * return. A request it does not know, or a broken one, gets no answer (the host times out).
 */

/** The replies a simulated handheld gives, by the read they answer (the Equil's and the AiDEX's). */
export type ReplyName =
  | "password"
  | "version"
  | "serial"
  | "basal"
  | "setting"
  | "cgm"
  | "timeZone"
  | "history"
  | "manualCount"
  | "manualRecord";

/** What a simulated device answers a request: the read's name and payload (null: no answer), or null for a request it does not know. */
export type Reply = { name: ReplyName; payload: Uint8Array | null } | null;

/**
 * Faults, each applied to every reply of the read it names:
 * - `silent`: no answer (the host's read times out);
 * - `shortPacket`: `2B 2B`, two header bytes, `2B 2B` (a frame under 12 bytes);
 * - `badCrc`: the header's CRC byte inverted; `badMd5`: the MD5's last byte inverted;
 * - `unplugged`: the reply's first `afterBytes` bytes arrive, then every read, write and open rejects.
 */
export type SimulatedFault =
  | { readonly kind: "silent" | "shortPacket" | "badCrc" | "badMd5"; readonly on: ReplyName }
  | { readonly kind: "unplugged"; readonly on: ReplyName; readonly afterBytes: number };

export type SettingName = keyof typeof PUMP_SETTING_READS;

/** What the simulated handheld holds. */
export interface Handheld {
  readonly serial: string;
  /** Software version text ("5.3.0"; "1.x" is a CGM handheld). */
  readonly version: string;
  /** Six characters, or null: a handheld without a password does not answer the password request. */
  readonly password: string | null;
  readonly zone: string;
  /** Seven programs: 48 half-hour rates raw × 0.0125 U/h, and a name. */
  readonly basalPrograms: readonly { readonly rates: readonly number[]; readonly name: string }[];
  /** Each setting's u16 list. */
  readonly settings: Readonly<Record<SettingName, readonly number[]>>;
  /** The handheld's CGM readings, 22-byte CGM history records. */
  readonly cgm: Uint8Array;
  readonly history: readonly HistoryRecord[];
}

const PROGRAM_NAMES = [
  "Weekday",
  "Weekend",
  "Sport",
  "Sick day",
  "Travel",
  "Night shift",
  "Custom",
];

/** Program `index`'s rates: 0.8 U/h plus 0.05 U/h per program index, 1.0 U/h more from 4 to 8 h (raw × 0.0125). */
function programRates(index: number): number[] {
  return Array.from(
    { length: 48 },
    (_, slot) => 64 + 4 * index + (slot >= 8 && slot < 16 ? 80 : 0),
  );
}

export interface HandheldOptions {
  readonly seed?: number;
  readonly start?: string;
  readonly days?: number;
  readonly serial?: string;
  readonly version?: string;
  readonly password?: string | null;
  readonly history?: readonly HistoryRecord[];
}

/** A handheld with realistic days of history (seed 1, 3 days from 2026-07-01 unless given). */
export function createHandheld(options: HandheldOptions = {}): Handheld {
  const serial = options.serial ?? "EQ004711";
  const start = options.start ?? "2026-07-01";
  const history =
    options.history ??
    simulateDays({ seed: options.seed ?? 1, start, days: options.days ?? 3, serial });
  return {
    serial,
    version: options.version ?? "5.3.0",
    password: options.password ?? null,
    zone: "GMT+01:00",
    basalPrograms: PROGRAM_NAMES.map((name, index) => ({ rates: programRates(index), name })),
    settings: {
      lowBg: [700, 800],
      highBg: [1800, 1600],
      defaultCho: [10, 12, 10],
      sensitiveSilver: [400],
      originBasal: [64],
      bolusRate: [16000],
      maxBolus: [1000],
      doubleBolus: [1],
      effectiveTime: [4],
    },
    cgm: encodeCgmReadings([
      { index: 1, time: { year: 2026, month: 7, day: 1, hour: 8, minute: 0, second: 0 }, raw: 61 },
      { index: 2, time: { year: 2026, month: 7, day: 1, hour: 8, minute: 5, second: 0 }, raw: 63 },
    ]),
    history,
  };
}

/** CGM readings as 22-byte records: index u32, clock, sensor 1, history id = index, type 7, origin 0, raw u16, 2 reserved. */
export function encodeCgmReadings(
  readings: readonly { index: number; time: DeviceClock; raw: number }[],
): Uint8Array {
  const bytes = new Uint8Array(readings.length * 22);
  const view = new DataView(bytes.buffer);
  readings.forEach((reading, i) => {
    const at = i * 22;
    view.setUint32(at, reading.index, true);
    bytes.set(encodeClock(reading.time), at + 4);
    view.setUint16(at + 10, 1, true);
    view.setUint32(at + 12, reading.index, true);
    bytes[at + 16] = 7;
    view.setUint16(at + 18, reading.raw, true);
  });
  return bytes;
}

const u16Bytes = (values: readonly number[]) => {
  const bytes = new Uint8Array(values.length * 2);
  values.forEach((value, i) => new DataView(bytes.buffer).setUint16(2 * i, value, true));
  return bytes;
};
const cText = (text: string) => new Uint8Array([...new TextEncoder().encode(text), 0]);
const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

const is = (frame: Frame, command: { port: number; parameter: number }) =>
  frame.port === command.port && frame.parameter === command.parameter;

/** The setting a request asks for, by port, parameter and selector. */
function settingOf(frame: Frame): SettingName | undefined {
  return (Object.keys(PUMP_SETTING_READS) as SettingName[]).find(
    (name) =>
      is(frame, PUMP_SETTING_READS[name]) && frame.body[0] === PUMP_SETTING_READS[name].selector,
  );
}

/** What the handheld answers a request: the read's name and payload, or null (no answer). */
export function answer(handheld: Handheld, frame: Frame): Reply {
  if (is(frame, LINK_COMMANDS.password)) {
    const given = String.fromCharCode(...frame.body);
    return {
      name: "password",
      payload:
        handheld.password === null ? null : Uint8Array.of(given === handheld.password ? 1 : 0),
    };
  }
  if (is(frame, LINK_COMMANDS.version))
    return { name: "version", payload: cText(handheld.version) };
  if (is(frame, { port: 0x00, parameter: 0x07 }))
    return { name: "serial", payload: new TextEncoder().encode(handheld.serial) };
  if (is(frame, { port: 0x04, parameter: 0x02 })) {
    const program = handheld.basalPrograms[frame.body[0] ?? -1];
    return {
      name: "basal",
      payload: program ? concat(u16Bytes(program.rates), cText(program.name)) : null,
    };
  }
  const setting = settingOf(frame);
  if (setting) return { name: "setting", payload: u16Bytes(handheld.settings[setting]) };
  if (is(frame, LINK_COMMANDS.cgm)) return { name: "cgm", payload: handheld.cgm };
  if (is(frame, LINK_COMMANDS.timeZone)) return { name: "timeZone", payload: cText(handheld.zone) };
  if (is(frame, { port: 0x05, parameter: 0x01 }))
    return { name: "history", payload: encodeHistory(handheld.history) };
  return null;
}

/** A reply frame broken the way `fault` says. */
function brokenFrame(kind: "shortPacket" | "badCrc" | "badMd5", frame: Frame): Uint8Array {
  if (kind === "shortPacket")
    return Uint8Array.of(0x2b, 0x2b, frame.port, frame.parameter, 0x2b, 0x2b);
  const wire = encodeFrame(frame);
  if (kind === "badMd5") {
    wire[wire.length - 1] = wire[wire.length - 1]! ^ 0xff;
    return wire;
  }
  const length = frame.body.length + 16;
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
  header[3] = headerCrc(header) ^ 0xff;
  const escaped = escapeHeader(header);
  const body = wire.subarray(wire.length - length);
  return Uint8Array.from([0x2b, 0x2b, ...escaped, 0x2b, 0x2b, ...body]);
}

export interface SimulatorOptions {
  readonly faults?: readonly SimulatedFault[];
  /** Sizes of the successive reads, used in turn (each also limited by the bytes asked for); all bytes available unless given. */
  readonly readSizes?: readonly number[];
  /** Wait before each read that has bytes, ms (0: tests; the demo sets some). */
  readonly replyDelayMs?: number;
  /** Wait before a read with nothing to answer rejects: true waits the read's whole time-out (the demo); false (tests) rejects at once. */
  readonly waitOutTimeouts?: boolean;
  readonly sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A simulated Microtech handheld behind the Transport interface: `respond` answers each request;
 * `asked` logs the reads it was asked, `opens` counts opens.
 */
export class FramedSimulator implements Transport {
  private opened = false;
  private pending: Uint8Array = new Uint8Array(0);
  private reads = 0;
  /** Bytes still to deliver before the unplug fault ends everything; null when no unplug is due. */
  private untilUnplug: number | null = null;
  private unplugged = false;
  readonly asked: ReplyName[] = [];
  opens = 0;

  constructor(
    private readonly respond: (frame: Frame) => Reply,
    private readonly options: SimulatorOptions = {},
  ) {}

  get isOpen(): boolean {
    return this.opened;
  }

  async open(): Promise<void> {
    if (this.unplugged) throw new Error("the device is not connected");
    this.opened = true;
    this.opens++;
    this.pending = new Uint8Array(0);
  }

  async close(): Promise<void> {
    this.opened = false;
    this.pending = new Uint8Array(0);
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.assertUsable();
    const { frames } = new FrameReader().push(bytes);
    const request = frames[0];
    const reply = request ? this.respond(request) : null;
    if (!request || !reply) return;
    this.asked.push(reply.name);
    const fault = this.options.faults?.find((f) => f.on === reply.name);
    if (reply.payload === null || fault?.kind === "silent") return;
    const frame: Frame = {
      port: request.port,
      parameter: request.parameter,
      operation: request.operation,
      body: reply.payload,
    };
    this.pending =
      fault && fault.kind !== "unplugged" ? brokenFrame(fault.kind, frame) : encodeFrame(frame);
    if (fault?.kind === "unplugged") this.untilUnplug = fault.afterBytes;
  }

  async read(maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
    this.assertUsable();
    if (this.untilUnplug === 0) return this.unplug();
    if (this.pending.length === 0) {
      if (this.options.waitOutTimeouts) await this.sleep(timeoutMs);
      throw new DeviceTimeout("simulated handheld");
    }
    if (this.options.replyDelayMs) await this.sleep(this.options.replyDelayMs);
    const size = Math.min(
      maxBytes,
      this.pending.length,
      this.nextReadSize(),
      this.untilUnplug ?? Infinity,
    );
    const chunk = this.pending.slice(0, size);
    this.pending = this.pending.subarray(size);
    if (this.untilUnplug !== null) this.untilUnplug -= size;
    return chunk;
  }

  private nextReadSize(): number {
    const sizes = this.options.readSizes;
    if (!sizes || sizes.length === 0) return Infinity;
    return sizes[this.reads++ % sizes.length]!;
  }

  private sleep(ms: number): Promise<void> {
    return (this.options.sleep ?? realSleep)(ms);
  }

  private unplug(): never {
    this.unplugged = true;
    this.opened = false;
    throw new Error("the device was unplugged");
  }

  private assertUsable() {
    if (this.unplugged) throw new Error("the device was unplugged");
    if (!this.opened) throw new Error("the device is not open");
  }
}

/** The simulated Equil handheld. */
export class SimulatedTransport extends FramedSimulator {
  constructor(
    readonly handheld: Handheld,
    options: SimulatorOptions = {},
  ) {
    super((frame) => answer(handheld, frame), options);
  }
}
