/// <reference types="w3c-web-serial" />
import type { MeterLink } from "./meter-upload";
import type { UploadFailureKey } from "./progress";
import { DeviceFault, DeviceTimeout } from "./pump-upload";
import { isCancelledChoice, within, type Transport } from "./transport";
import { realClock, type Clock } from "./upload-api";

/**
 * The GoChek meter over Web Serial: 115200 baud, 8 data bits, 1 stop bit, no parity. The meter
 * sends its whole memory after the character "h"; the read ends when 1 s passes without a byte,
 * and the port is closed 1 s after that. Written against the parts of `Serial` and `SerialPort`
 * it uses, passed in, so that tests can give fakes; nothing here touches `navigator` itself.
 */

export const METER_SERIAL_OPTIONS: SerialOptions = {
  baudRate: 115_200,
  dataBits: 8,
  stopBits: 1,
  parity: "none",
};
/** The read of the memory ends after this long without a byte, ms. */
export const IDLE_END_MS = 1000;
/** The port is closed this long after the read ends, ms. */
export const CLOSE_AFTER_MS = 1000;
/** What makes the meter send its memory: the character "h". */
const SEND_MEMORY = Uint8Array.of(0x68);

/** The parts of a SerialPort used here. */
export type SerialPortLike = Pick<SerialPort, "open" | "close" | "readable" | "writable">;

/** The part of `navigator.serial` used here. */
export interface SerialChooser {
  requestPort(): Promise<SerialPortLike>;
}

/** What asking for the meter's port gave: a transport, a choice the user cancelled, or a failure. */
export type SerialConnectOutcome =
  | { readonly kind: "ready"; readonly transport: SerialTransport }
  | { readonly kind: "cancelled" }
  | { readonly kind: "failed"; readonly failure: UploadFailureKey };

/** Asks the user for the meter's port; a cancelled choice is an outcome, not an error. */
export async function chooseMeterPort(serial: SerialChooser): Promise<SerialConnectOutcome> {
  try {
    return { kind: "ready", transport: new SerialTransport(await serial.requestPort()) };
  } catch (error) {
    return isCancelledChoice(error)
      ? { kind: "cancelled" }
      : { kind: "failed", failure: "deviceOpenFailed" };
  }
}

type Next = Uint8Array | "idle" | "done";

/**
 * A serial port as a Transport. A read that brings nothing in time rejects with DeviceTimeout;
 * the stream read it started stays pending and the next read takes its bytes. Bytes beyond a
 * read's `maxBytes` are kept for the next read.
 */
export class SerialTransport implements Transport {
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private pendingRead: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  private kept: Uint8Array = new Uint8Array(0);

  constructor(private readonly port: SerialPortLike) {}

  get isOpen(): boolean {
    return this.reader !== null;
  }

  async open(): Promise<void> {
    await this.port.open(METER_SERIAL_OPTIONS);
    if (!this.port.readable) throw new Error("the port cannot be read");
    this.reader = this.port.readable.getReader();
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    this.pendingRead = null;
    this.kept = new Uint8Array(0);
    if (reader) {
      await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
    await this.port.close();
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.port.writable) throw new Error("the port cannot be written");
    const writer = this.port.writable.getWriter();
    try {
      await writer.write(bytes);
    } finally {
      writer.releaseLock();
    }
  }

  async read(maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
    if (this.kept.length === 0) {
      const next = await this.next(timeoutMs);
      if (next === "idle") throw new DeviceTimeout("serial read");
      if (next === "done") throw new Error("the port closed");
      this.kept = next;
    }
    const chunk = this.kept.slice(0, maxBytes);
    this.kept = this.kept.subarray(chunk.length);
    return chunk;
  }

  /** Every byte until `idleMs` passes without one (or the port's stream ends). */
  async readAll(idleMs: number = IDLE_END_MS): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [this.kept];
    this.kept = new Uint8Array(0);
    for (
      let next = await this.next(idleMs);
      next !== "idle" && next !== "done";
      next = await this.next(idleMs)
    )
      chunks.push(next);
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
    return all;
  }

  /** The next chunk the port gives within `ms`. */
  private async next(ms: number): Promise<Next> {
    if (!this.reader) throw new Error("the port is not open");
    const pending = (this.pendingRead ??= this.reader.read());
    let settled: { value: ReadableStreamReadResult<Uint8Array> } | null;
    try {
      settled = await within(pending, ms);
    } catch (error) {
      this.pendingRead = null;
      throw error;
    }
    if (settled === null) return "idle";
    this.pendingRead = null;
    return settled.value.done ? "done" : settled.value.value;
  }
}

/**
 * Why the port could not be opened: one still open (an earlier read that did not end) asks the
 * user to unplug and replug the meter; a browser that may not use it is "Access Error"; anything
 * else "serial port open failed".
 */
function serialOpenFailure(error: unknown): UploadFailureKey {
  const name = typeof error === "object" && error !== null && "name" in error ? error.name : null;
  return name === "InvalidStateError"
    ? "replugUsb"
    : name === "SecurityError"
      ? "accessError"
      : "serialOpenFailed";
}

/**
 * The meter's memory on a serial transport: open, send "h", read until 1 s of quiet, close 1 s
 * later. A port that cannot be opened or written to throws DeviceFault (see serialOpenFailure;
 * "serial port start error" when "h" cannot be sent).
 */
export function meterLinkOf(transport: SerialTransport, clock: Clock = realClock): MeterLink {
  return {
    async readMemory() {
      await transport
        .open()
        .catch((error: unknown) =>
          Promise.reject(new DeviceFault(serialOpenFailure(error), "open")),
        );
      try {
        await transport
          .write(SEND_MEMORY)
          .catch(() => Promise.reject(new DeviceFault("serialStartFailed", "start")));
        const memory = await transport.readAll();
        await clock.sleep(CLOSE_AFTER_MS);
        return memory;
      } finally {
        await transport.close().catch(() => undefined);
      }
    },
  };
}
