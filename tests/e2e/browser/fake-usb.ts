/**
 * A fake `navigator.usb` for the browser tests, bundled into an init script: the handheld
 * simulator (app/device/simulator) behind a USBDevice in accessory mode, so that the upload
 * centre's real WebUSB transport, link, upload steps and API calls run against it. The test sets
 * `window.__FAKE_HANDHELD__` (the handheld's options and faults) before this script runs.
 */
import { createHandheld, SimulatedTransport, type HandheldOptions, type SimulatedFault } from "../../../app/device/simulator/equil";

type Options = { handheld: HandheldOptions; faults: SimulatedFault[] };

const options = (window as unknown as { __FAKE_HANDHELD__: Options }).__FAKE_HANDHELD__;
const handheld = createHandheld(options.handheld);
const bulk = (endpointNumber: number, direction: "in" | "out") => ({ endpointNumber, direction, type: "bulk" });

function fakeDevice() {
  const transport = new SimulatedTransport(handheld, { faults: options.faults });
  return {
    vendorId: 0x18d1,
    productId: 0x2d01,
    configuration: { interfaces: [{ interfaceNumber: 0, alternate: { endpoints: [bulk(1, "in"), bulk(2, "out")] } }] },
    open: () => transport.open(),
    close: () => transport.close(),
    selectConfiguration: async () => undefined,
    claimInterface: async () => undefined,
    controlTransferIn: async () => ({ status: "ok", data: new DataView(new Uint8Array([2, 0]).buffer) }),
    controlTransferOut: async () => ({ status: "ok", bytesWritten: 0 }),
    transferOut: async (_endpoint: number, data: BufferSource) => {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      await transport.write(bytes);
      return { status: "ok", bytesWritten: bytes.length };
    },
    transferIn: async (_endpoint: number, length: number) => {
      // A real device answers in its own time: the page draws each step before the next.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const bytes = await transport.read(length, 60_000);
      return { status: "ok", data: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
  };
}

Object.defineProperty(Navigator.prototype, "usb", { configurable: true, get: () => ({ requestDevice: async () => fakeDevice() }) });
