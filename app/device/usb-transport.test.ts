/// <reference types="w3c-web-usb" />
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeviceTimeout } from "./pump-upload";
import { connectEquil, UsbTransport, type UsbDevice } from "./usb-transport";

type Endpoint = { endpointNumber: number; direction: USBDirection; type: USBEndpointType };

/** A USB device that logs every call; `reply` settles the oldest bulk IN transfer. */
function fakeDevice(
  ids: { vendorId: number; productId: number },
  options: {
    protocol?: number[];
    interfaces?: { interfaceNumber: number; endpoints: Endpoint[] }[];
  } = {},
) {
  const log: unknown[][] = [];
  const pendingIn: ((bytes: number[]) => void)[] = [];
  const interfaces = (
    options.interfaces ??
    [10, 11, 12, 13].map((interfaceNumber) => ({ interfaceNumber, endpoints: [] }))
  ).map((i) => ({ interfaceNumber: i.interfaceNumber, alternate: { endpoints: i.endpoints } }));
  const device: UsbDevice = {
    ...ids,
    configuration: { interfaces },
    open: async () => void log.push(["open"]),
    close: async () => void log.push(["close"]),
    selectConfiguration: async (value) => void log.push(["selectConfiguration", value]),
    claimInterface: async (n) => void log.push(["claimInterface", n]),
    controlTransferIn: async (setup, length) => {
      log.push(["controlIn", setup, length]);
      return {
        status: "ok",
        data: new DataView(Uint8Array.from(options.protocol ?? [2, 0]).buffer),
      };
    },
    controlTransferOut: async (setup, data) => {
      log.push(data === undefined ? ["controlOut", setup] : ["controlOut", setup, bytesOf(data)]);
      return { status: "ok", bytesWritten: 0 };
    },
    transferOut: async (endpoint, data) => {
      log.push(["transferOut", endpoint, bytesOf(data)]);
      return { status: "ok", bytesWritten: 0 };
    },
    transferIn: (endpoint, length) => {
      log.push(["transferIn", endpoint, length]);
      return new Promise((resolve) =>
        pendingIn.push((bytes) =>
          resolve({ status: "ok", data: new DataView(Uint8Array.from(bytes).buffer) }),
        ),
      );
    },
  };
  return { device, log, reply: (bytes: number[]) => pendingIn.shift()!(bytes) };
}

/** The bytes of a BufferSource as numbers. */
const bytesOf = (data: BufferSource) =>
  Array.from(
    ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data),
  );
const chooser = (device: UsbDevice) => ({ requestDevice: vi.fn(async () => device) });
const vendor = (request: number, index: number) => ({
  requestType: "vendor",
  recipient: "device",
  request,
  value: 0,
  index,
});

afterEach(() => void vi.useRealTimers());

describe("connectEquil", () => {
  it("asks for the handheld in normal or accessory mode", async () => {
    const usb = chooser(fakeDevice({ vendorId: 0x18d1, productId: 0x2d01 }).device);
    await connectEquil(usb);
    expect(usb.requestDevice).toHaveBeenCalledWith({
      filters: [
        { vendorId: 0x05c6, productId: 0x9120 },
        { vendorId: 0x18d1, productId: 0x2d01 },
      ],
    });
  });

  it("switches a handheld in normal mode to accessory mode, then asks for a second click", async () => {
    const { device, log } = fakeDevice({ vendorId: 0x05c6, productId: 0x9120 });
    expect(await connectEquil(chooser(device))).toEqual({ kind: "needsSecondClick" });
    expect(log).toEqual([
      ["open"],
      ["selectConfiguration", 1],
      // Position 3 of the interface list, whose number is 13.
      ["claimInterface", 13],
      ["controlIn", vendor(0x33, 0), 2],
      ["controlOut", vendor(0x34, 0), [77, 105, 99, 114, 111, 116, 101, 99, 104, 77, 68, 0]], // "MicrotechMD\0"
      ["controlOut", vendor(0x34, 1), [69, 113, 117, 105, 108, 0]], // "Equil\0"
      ["controlOut", vendor(0x34, 3), [49, 46, 48, 0]], // "1.0\0"
      ["controlOut", vendor(0x35, 0)],
      ["close"],
    ]);
  });

  it("a handheld that answers another accessory protocol than 02 00 is 'not accessory mode'; nothing more is sent", async () => {
    const { device, log } = fakeDevice(
      { vendorId: 0x05c6, productId: 0x9120 },
      { protocol: [0, 2] },
    );
    expect(await connectEquil(chooser(device))).toEqual({
      kind: "failed",
      failure: "notAccessoryMode",
    });
    expect(log.map((entry) => entry[0])).toEqual([
      "open",
      "selectConfiguration",
      "claimInterface",
      "controlIn",
      "close",
    ]);
  });

  it("a USB error during the switch asks to plug the handheld in again", async () => {
    const { device } = fakeDevice({ vendorId: 0x05c6, productId: 0x9120 });
    const failing: UsbDevice = {
      ...device,
      claimInterface: async () => Promise.reject(new Error("NetworkError")),
    };
    expect(await connectEquil(chooser(failing))).toEqual({ kind: "failed", failure: "replugUsb" });
  });

  it("a handheld the browser may not open (SecurityError: no driver, or another program holds it) is 'Access Error'", async () => {
    const { device } = fakeDevice({ vendorId: 0x05c6, productId: 0x9120 });
    const denied: UsbDevice = {
      ...device,
      open: async () => Promise.reject(new DOMException("Access denied.", "SecurityError")),
    };
    expect(await connectEquil(chooser(denied))).toEqual({ kind: "failed", failure: "accessError" });
  });

  it("a chooser the user closed is a cancelled choice, not an error; other refusals are", async () => {
    const cancelled = {
      requestDevice: async () =>
        Promise.reject(new DOMException("No device selected.", "NotFoundError")),
    };
    expect(await connectEquil(cancelled)).toEqual({ kind: "cancelled" });
    const denied = {
      requestDevice: async () =>
        Promise.reject(new DOMException("Access denied.", "SecurityError")),
    };
    expect(await connectEquil(denied)).toEqual({ kind: "failed", failure: "deviceOpenFailed" });
  });

  it("a handheld already in accessory mode is ready to open", async () => {
    const outcome = await connectEquil(
      chooser(fakeDevice({ vendorId: 0x18d1, productId: 0x2d01 }).device),
    );
    expect(outcome.kind).toBe("ready");
  });
});

describe("UsbTransport", () => {
  const accessory = { vendorId: 0x18d1, productId: 0x2d01 };
  // Listed out of order: the bulk OUT is endpoint 2, an interrupt IN endpoint 3, the bulk IN endpoint 1.
  const endpoints: Endpoint[] = [
    { endpointNumber: 2, direction: "out", type: "bulk" },
    { endpointNumber: 3, direction: "in", type: "interrupt" },
    { endpointNumber: 1, direction: "in", type: "bulk" },
  ];

  it("selects configuration 1, claims the first interface and uses its bulk endpoints, 1,024 bytes a read", async () => {
    const { device, log, reply } = fakeDevice(accessory, {
      interfaces: [{ interfaceNumber: 4, endpoints }],
    });
    const transport = new UsbTransport(device);
    await transport.open();
    expect(transport.isOpen).toBe(true);
    await transport.write(Uint8Array.of(0x2b, 0x2b));
    const read = transport.read(1024, 5000);
    reply([1, 2, 3]);
    expect(Array.from(await read)).toEqual([1, 2, 3]);
    await transport.close();
    expect(transport.isOpen).toBe(false);
    expect(log).toEqual([
      ["open"],
      ["selectConfiguration", 1],
      ["claimInterface", 4],
      ["transferOut", 2, [0x2b, 0x2b]],
      ["transferIn", 1, 1024],
      ["close"],
    ]);
  });

  it("a read with no bytes in time rejects with DeviceTimeout; the next read takes the late transfer's bytes", async () => {
    vi.useFakeTimers();
    const { device, log, reply } = fakeDevice(accessory, {
      interfaces: [{ interfaceNumber: 0, endpoints }],
    });
    const transport = new UsbTransport(device);
    await transport.open();
    const first = transport.read(1024, 5000);
    const rejected = expect(first).rejects.toBeInstanceOf(DeviceTimeout);
    await vi.advanceTimersByTimeAsync(5000);
    await rejected;
    reply([9]);
    expect(Array.from(await transport.read(1024, 5000))).toEqual([9]);
    expect(log.filter((entry) => entry[0] === "transferIn")).toHaveLength(1);
  });

  it("an interface without a bulk OUT endpoint cannot be opened", async () => {
    const { device } = fakeDevice(accessory, {
      interfaces: [{ interfaceNumber: 0, endpoints: [endpoints[2]!] }],
    });
    await expect(new UsbTransport(device).open()).rejects.toThrow("no bulk endpoints");
  });
});
