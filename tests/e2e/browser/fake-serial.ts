/// <reference types="w3c-web-serial" />
/**
 * A fake `navigator.serial` for the browser tests, bundled into an init script: `requestPort()`
 * gives a SerialPort whose meter answers the character "h" with its memory text (the GoChek text
 * layout, docs/device-protocols.md), sent in a few chunks a little apart, and then stays quiet,
 * so that the upload centre's real Web Serial transport, meter upload and API calls run against
 * it. It offers what app/device/serial-transport.ts uses of a port: `open(options)`,
 * `readable` / `writable` (null until opened and after closing, as in Chrome), `close()` (which,
 * as in Chrome, fails while a stream is locked).
 *
 * The test sets `window.__FAKE_METER__`, read again at every choice so that a test may change it
 * on the page:
 * - `text`: the meter's memory;
 * - `chunks` (default 4) and `chunkDelayMs` (default 100): how it is sent;
 * - `cancel`: the user closes the chooser (NotFoundError "No port selected by the user.");
 * - `openFails`: the port cannot be opened (NetworkError "Failed to open serial port.", as when
 *   another program holds it);
 * - `writeFails`: the port opens but takes no byte (NetworkError "The device has been lost.");
 * - `empty`: the meter holds no reading: it sends its serial number line only.
 *
 * `window.__fakeSerial()` tells what happened: the requests, each `open`'s options, the closes,
 * whether the port is still open, and the bytes the page wrote.
 */

type MeterOptions = {
  text?: string;
  serial?: string;
  chunks?: number;
  chunkDelayMs?: number;
  cancel?: boolean;
  openFails?: boolean;
  writeFails?: boolean;
  empty?: boolean;
};

export type FakeSerialState = {
  requests: number;
  opens: SerialOptions[];
  closes: number;
  open: boolean;
  /** Every write of the page, as byte lists. */
  written: number[][];
  /** The chunks the meter sent. */
  sent: number;
};

const state: FakeSerialState = {
  requests: 0,
  opens: [],
  closes: 0,
  open: false,
  written: [],
  sent: 0,
};
(window as unknown as { __fakeSerial: () => FakeSerialState }).__fakeSerial = () =>
  JSON.parse(JSON.stringify(state)) as FakeSerialState;
const meterOptions = () =>
  (window as unknown as { __FAKE_METER__?: MeterOptions }).__FAKE_METER__ ?? {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SEND_MEMORY = 0x68;

/** The meter's answer to "h", split into `count` chunks. */
function chunksOf(text: string, count: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const size = Math.max(1, Math.ceil(bytes.length / count));
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
  return chunks;
}

function fakePort(meter: MeterOptions) {
  let readable: ReadableStream<Uint8Array> | null = null;
  let writable: WritableStream<Uint8Array> | null = null;
  let incoming: ReadableStreamDefaultController<Uint8Array> | null = null;

  /** Sends the memory in chunks, then goes quiet (the stream stays open, as a serial line does). */
  async function sendMemory() {
    const text = meter.empty ? `SN:${meter.serial ?? "GC000000"}\r\n` : (meter.text ?? "");
    for (const chunk of chunksOf(text, meter.chunks ?? 4)) {
      await sleep(meter.chunkDelayMs ?? 100);
      // The page may have closed the port meanwhile: a cancelled stream takes nothing more.
      if (!incoming) return;
      incoming.enqueue(chunk);
      state.sent++;
    }
  }

  return {
    get readable() {
      return readable;
    },
    get writable() {
      return writable;
    },
    async open(serialOptions: SerialOptions) {
      if (readable) throw new DOMException("The port is already open.", "InvalidStateError");
      state.opens.push({ ...serialOptions });
      if (meter.openFails) throw new DOMException("Failed to open serial port.", "NetworkError");
      readable = new ReadableStream<Uint8Array>({
        start: (controller) => void (incoming = controller),
        cancel: () => void (incoming = null),
      });
      writable = new WritableStream<Uint8Array>({
        write: (chunk) => {
          if (meter.writeFails) throw new DOMException("The device has been lost.", "NetworkError");
          state.written.push(Array.from(chunk));
          if (chunk.includes(SEND_MEMORY)) void sendMemory();
        },
      });
      state.open = true;
    },
    async close() {
      if (!readable || !writable)
        throw new DOMException("The port is already closed.", "InvalidStateError");
      if (readable.locked || writable.locked)
        throw new TypeError(
          "Failed to execute 'close' on 'SerialPort': Cannot cancel a locked stream",
        );
      await readable.cancel().catch(() => undefined);
      await writable.abort().catch(() => undefined);
      readable = null;
      writable = null;
      incoming = null;
      state.open = false;
      state.closes++;
    },
  };
}

async function requestPort() {
  state.requests++;
  const meter = { ...meterOptions() };
  if (meter.cancel) throw new DOMException("No port selected by the user.", "NotFoundError");
  return fakePort(meter);
}

Object.defineProperty(Navigator.prototype, "serial", {
  configurable: true,
  get: () => ({ requestPort }),
});
