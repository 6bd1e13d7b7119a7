/// <reference types="w3c-web-usb" />
/**
 * A fake `navigator.usb` for the browser tests, bundled into an init script: the handheld
 * simulator (app/device/simulator) behind a USBDevice, so that the upload centre's real WebUSB
 * transport, link, upload steps and API calls run against it. The test sets
 * `window.__FAKE_HANDHELD__` before this script runs:
 *
 * - `handheld`: the simulated Equil handheld's options (one handheld for the page, whatever is
 *   chosen), or `aidex`: the simulated AiDEX handheld's options instead;
 * - `readDelayMs` (default 5): how long each read takes before it answers (0: at once);
 * - `faults`: the simulator's faults, read again at every choice, so that a test may change them
 *   on the page (`window.__FAKE_HANDHELD__.faults = []`) before it tries again;
 * - `choices` (optional): what the browser's chooser gives at each request, in turn: "accessory"
 *   (the handheld in accessory mode, 0x18D1:0x2D01), "normal" (in normal mode, 0x05C6:0x9120, which
 *   the product must switch to accessory mode), "denied" (in accessory mode, but the browser may
 *   not open it: a SecurityError, as without a driver or when another program holds it) or
 *   "cancel" (the user closed the chooser: a NotFoundError); once the list is used up, "accessory".
 *
 * A read with nothing to answer stays pending, as a real bulk transfer does, until the handheld
 * has bytes; closing the device aborts it (AbortError). So a silent handheld makes the product's
 * own read time-out fire, and a read that rejects means the handheld is gone (the simulator's
 * "unplugged").
 *
 * `window.__fakeUsb()` tells what happened: the requests, the opens and closes of every device,
 * whether one is still open, the accessory switches (strings sent, starts), the reads asked, and
 * when each open, close and read happened.
 */
import { DeviceTimeout } from "../../../app/device/pump-upload";
import {
  createAidex,
  SimulatedAidexTransport,
  type AidexOptions,
} from "../../../app/device/simulator/aidex";
import {
  createHandheld,
  SimulatedTransport,
  type HandheldOptions,
  type ReplyName,
  type SimulatedFault,
} from "../../../app/device/simulator/equil";

type Choice = "accessory" | "normal" | "denied" | "cancel";
type Options = {
  handheld?: HandheldOptions;
  aidex?: AidexOptions;
  faults: SimulatedFault[];
  choices?: Choice[];
  readDelayMs?: number;
};

export type FakeUsbState = {
  /** Calls of requestDevice, with the filters asked for. */
  requests: { vendorId?: number; productId?: number }[][];
  /** Opens and closes of any device, in either mode. */
  opens: number;
  closes: number;
  /** Opens of the handheld in accessory mode (the upload's link). */
  accessoryOpens: number;
  /** True while a device is open. */
  open: boolean;
  /** Accessory switches started (AOA_START) and the identity strings sent, by index. */
  switches: number;
  strings: [number, string][];
  /** The reads the handheld was asked, in order. */
  asked: ReplyName[];
  /** What happened when (performance.now(), ms): "open" and "close" of either mode, "ask:<read>". */
  log: [event: string, at: number][];
};

const options = (window as unknown as { __FAKE_HANDHELD__: Options }).__FAKE_HANDHELD__;
const handheld = options.aidex ? null : createHandheld(options.handheld);
const aidex = options.aidex ? createAidex(options.aidex) : null;
const state: FakeUsbState = {
  requests: [],
  opens: 0,
  closes: 0,
  accessoryOpens: 0,
  open: false,
  switches: 0,
  strings: [],
  asked: [],
  log: [],
};
const note = (event: string) => void state.log.push([event, performance.now()]);
let openDevices = 0;
(window as unknown as { __fakeUsb: () => FakeUsbState }).__fakeUsb = () =>
  JSON.parse(JSON.stringify(state)) as FakeUsbState;

const bulk = (endpointNumber: number, direction: "in" | "out") => ({
  endpointNumber,
  direction,
  type: "bulk",
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const bytesOf = (data: BufferSource | undefined) =>
  data === undefined
    ? new Uint8Array(0)
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/** Open and close as a USBDevice does: an open device cannot be opened again, a closed one not closed. */
function openClose(onOpen: () => Promise<void>, onClose: () => Promise<void>) {
  let opened = false;
  return {
    get opened() {
      return opened;
    },
    async open() {
      if (opened) return;
      await onOpen();
      opened = true;
      openDevices++;
      state.opens++;
      state.open = true;
      note("open");
    },
    async close() {
      if (!opened) return;
      opened = false;
      openDevices--;
      state.closes++;
      state.open = openDevices > 0;
      note("close");
      await onClose();
    },
  };
}

/** The handheld in normal mode: four interfaces (the product claims the one at position 3) and the accessory requests. */
function normalModeDevice() {
  const life = openClose(
    async () => undefined,
    async () => undefined,
  );
  const interfaces = [0, 1, 2, 3].map((interfaceNumber) => ({
    interfaceNumber,
    alternate: { endpoints: [bulk(interfaceNumber + 1, "in"), bulk(interfaceNumber + 1, "out")] },
  }));
  return {
    vendorId: 0x05c6,
    productId: 0x9120,
    configuration: { interfaces },
    open: () => life.open(),
    close: () => life.close(),
    selectConfiguration: async () => undefined,
    claimInterface: async () => undefined,
    controlTransferIn: async (setup: USBControlTransferParameters) => ({
      status: "ok",
      data: setup.request === 0x33 ? view(Uint8Array.of(2, 0)) : view(new Uint8Array(0)),
    }),
    controlTransferOut: async (setup: USBControlTransferParameters, data?: BufferSource) => {
      const bytes = bytesOf(data);
      if (setup.request === 0x34)
        state.strings.push([setup.index, String.fromCharCode(...bytes).replace(/\0$/, "")]);
      if (setup.request === 0x35) state.switches++;
      return { status: "ok", bytesWritten: bytes.length };
    },
    transferOut: async () =>
      Promise.reject(
        new DOMException(
          "The specified endpoint is not part of a claimed and selected alternate interface.",
          "NotFoundError",
        ),
      ),
    transferIn: async () =>
      Promise.reject(
        new DOMException(
          "The specified endpoint is not part of a claimed and selected alternate interface.",
          "NotFoundError",
        ),
      ),
  };
}

/** The handheld in accessory mode, answering with the simulator; the faults are the page's at the time of the choice. */
function accessoryModeDevice(denied = false) {
  const simulator = { faults: [...options.faults] };
  const transport = aidex
    ? new SimulatedAidexTransport(aidex, simulator)
    : new SimulatedTransport(handheld!, simulator);
  /** Aborts the transfers pending when the device closes. */
  let aborts: (() => void)[] = [];
  const life = openClose(
    async () => {
      if (denied) throw new DOMException("Access denied.", "SecurityError");
      await transport.open();
      state.accessoryOpens++;
    },
    async () => {
      for (const abort of aborts) abort();
      aborts = [];
      await transport.close();
    },
  );
  let askedBefore = 0;
  return {
    vendorId: 0x18d1,
    productId: 0x2d01,
    configuration: {
      interfaces: [
        { interfaceNumber: 0, alternate: { endpoints: [bulk(1, "in"), bulk(2, "out")] } },
      ],
    },
    open: () => life.open(),
    close: () => life.close(),
    selectConfiguration: async () => undefined,
    claimInterface: async () => undefined,
    controlTransferIn: async () => ({ status: "ok", data: view(Uint8Array.of(2, 0)) }),
    controlTransferOut: async () => ({ status: "ok", bytesWritten: 0 }),
    transferOut: async (_endpoint: number, data: BufferSource) => {
      const bytes = bytesOf(data);
      await transport.write(bytes);
      for (const name of transport.asked.slice(askedBefore)) {
        state.asked.push(name);
        note(`ask:${name}`);
      }
      askedBefore = transport.asked.length;
      return { status: "ok", bytesWritten: bytes.length };
    },
    transferIn: (_endpoint: number, length: number) =>
      new Promise<{ status: "ok"; data: DataView }>((resolve, reject) => {
        if (!life.opened)
          return reject(new DOMException("The device must be opened first.", "InvalidStateError"));
        let aborted = false;
        aborts.push(() => {
          aborted = true;
          reject(new DOMException("The transfer was cancelled.", "AbortError"));
        });
        void (async () => {
          // A real device answers in its own time: the page draws each step before the next.
          const delay = options.readDelayMs ?? 5;
          if (delay > 0) await sleep(delay);
          for (;;) {
            if (aborted) return;
            try {
              // Nothing to answer is the simulator's DeviceTimeout: keep waiting, as a pending transfer does.
              const bytes = await transport.read(length, 0);
              return resolve({ status: "ok", data: view(bytes) });
            } catch (error) {
              if (!(error instanceof DeviceTimeout)) return reject(error);
            }
            await sleep(20);
          }
        })();
      }),
  };
}

async function requestDevice(request: USBDeviceRequestOptions) {
  state.requests.push(
    request.filters.map((f) => ({ vendorId: f.vendorId, productId: f.productId })),
  );
  const choice = options.choices?.shift() ?? "accessory";
  if (choice === "cancel") throw new DOMException("No device selected.", "NotFoundError");
  return choice === "normal" ? normalModeDevice() : accessoryModeDevice(choice === "denied");
}

Object.defineProperty(Navigator.prototype, "usb", {
  configurable: true,
  get: () => ({ requestDevice }),
});
