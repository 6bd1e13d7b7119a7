/// <reference types="w3c-web-usb" />
import type { UploadFailureKey } from "./progress";
import { DeviceTimeout } from "./pump-upload";
import { isCancelledChoice, openFailure, within, type Transport } from "./transport";

/**
 * The Equil handheld over WebUSB. Written against the parts of the `USB` and `USBDevice`
 * interfaces it uses, passed in, so that tests can give fakes; nothing here touches
 * `navigator` itself.
 *
 * The handheld shows up in one of two modes:
 * - normal mode (VID 0x05C6, PID 0x9120): it must be switched to Android Open Accessory mode.
 *   Open, select configuration 1, claim the interface at position 3 of the configuration's
 *   interface list, then vendor control transfers to the device with value 0: IN 0x33 (2 bytes,
 *   must be `02 00`, accessory protocol 2), OUT 0x34 with the NUL-terminated strings
 *   "MicrotechMD" (index 0), "Equil" (index 1) and "1.0" (index 3), OUT 0x35 (start). Then close:
 *   the handheld comes back with new USB ids, which the browser must be allowed to use with a
 *   second permission click.
 * - accessory mode (VID 0x18D1, PID 0x2D01): select configuration 1, claim the first interface,
 *   and talk over its bulk IN and bulk OUT endpoints.
 */

export const NORMAL_MODE = { vendorId: 0x05c6, productId: 0x9120 } as const;
export const ACCESSORY_MODE = { vendorId: 0x18d1, productId: 0x2d01 } as const;
/** The browser's device chooser offers the handheld in either mode. */
export const EQUIL_FILTERS: USBDeviceFilter[] = [NORMAL_MODE, ACCESSORY_MODE];

/** Accessory requests (Android Open Accessory). */
const AOA_GET_PROTOCOL = 0x33;
const AOA_SEND_STRING = 0x34;
const AOA_START = 0x35;
/** The accessory protocol version the handheld must answer: 2, little-endian. */
const AOA_PROTOCOL = [0x02, 0x00];
/** The identity strings sent, by string index (2, 4 and 5 are not sent). */
export const ACCESSORY_STRINGS: readonly (readonly [index: number, text: string])[] = [
  [0, "MicrotechMD"],
  [1, "Equil"],
  [3, "1.0"],
];
/** The normal-mode interface claimed for the switch: position 3 of the configuration's list. */
const SWITCH_INTERFACE_POSITION = 3;
const CONFIGURATION = 1;

type Endpoint = {
  readonly endpointNumber: number;
  readonly direction: USBDirection;
  readonly type: USBEndpointType;
};
type Interface = {
  readonly interfaceNumber: number;
  readonly alternate: { readonly endpoints: readonly Endpoint[] };
};

/** The parts of a USBDevice used here. */
export type UsbDevice = Pick<
  USBDevice,
  | "vendorId"
  | "productId"
  | "open"
  | "close"
  | "selectConfiguration"
  | "claimInterface"
  | "controlTransferIn"
  | "controlTransferOut"
  | "transferIn"
  | "transferOut"
> & {
  readonly configuration: { readonly interfaces: readonly Interface[] } | null | undefined;
};

/** The part of `navigator.usb` used here. */
export interface UsbChooser {
  requestDevice(options: USBDeviceRequestOptions): Promise<UsbDevice>;
}

/**
 * What asking for the handheld gave: a transport ready to open (accessory mode); a handheld just
 * switched to accessory mode, which the user must choose again (`needsSecondClick`); a choice the
 * user cancelled; or a failure with its message.
 */
export type UsbConnectOutcome =
  | { readonly kind: "ready"; readonly transport: UsbTransport }
  | { readonly kind: "needsSecondClick" }
  | { readonly kind: "cancelled" }
  | { readonly kind: "failed"; readonly failure: UploadFailureKey };

const vendorSetup = (request: number, index: number): USBControlTransferParameters => ({
  requestType: "vendor",
  recipient: "device",
  request,
  value: 0,
  index,
});

/** A text as the accessory strings are sent: ASCII with a closing NUL. */
export function nulTerminated(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from([...text].map((c) => c.charCodeAt(0) & 0x7f).concat(0));
}

function isAccessoryMode(device: UsbDevice): boolean {
  return (
    device.vendorId === ACCESSORY_MODE.vendorId && device.productId === ACCESSORY_MODE.productId
  );
}

/** Step 1 of the switch: the handheld must speak accessory protocol 2. */
async function speaksAccessoryProtocol(device: UsbDevice): Promise<boolean> {
  const reply = await device.controlTransferIn(vendorSetup(AOA_GET_PROTOCOL, 0), 2);
  const data = reply.data;
  return (
    reply.status === "ok" &&
    data !== undefined &&
    data.byteLength === 2 &&
    data.getUint8(0) === AOA_PROTOCOL[0] &&
    data.getUint8(1) === AOA_PROTOCOL[1]
  );
}

/**
 * Switches a handheld in normal mode to accessory mode. A handheld that lacks the interface to
 * claim cannot be opened; one that does not speak accessory protocol 2 is "not accessory mode";
 * a browser that may not open it is "Access Error"; any other USB error on the way asks the user
 * to plug the handheld in again.
 */
export async function switchToAccessory(device: UsbDevice): Promise<UsbConnectOutcome> {
  try {
    await device
      .open()
      .catch((error: unknown) => Promise.reject(new OpenRefused(openFailure(error))));
    await device.selectConfiguration(CONFIGURATION);
    const target = device.configuration?.interfaces[SWITCH_INTERFACE_POSITION];
    const failure = !target
      ? "deviceOpenFailed"
      : (await claimAndCheck(device, target))
        ? null
        : "notAccessoryMode";
    if (failure) {
      await device.close();
      return { kind: "failed", failure };
    }
    for (const [index, text] of ACCESSORY_STRINGS)
      await device.controlTransferOut(vendorSetup(AOA_SEND_STRING, index), nulTerminated(text));
    await device.controlTransferOut(vendorSetup(AOA_START, 0));
    await device.close();
    return { kind: "needsSecondClick" };
  } catch (error) {
    await device.close().catch(() => undefined);
    return { kind: "failed", failure: error instanceof OpenRefused ? error.failure : "replugUsb" };
  }
}

/** The handheld's open() was refused. */
class OpenRefused extends Error {
  constructor(readonly failure: UploadFailureKey) {
    super(failure);
  }
}

async function claimAndCheck(device: UsbDevice, target: Interface): Promise<boolean> {
  await device.claimInterface(target.interfaceNumber);
  return speaksAccessoryProtocol(device);
}

/** Asks the user for the handheld; see UsbConnectOutcome. */
export async function connectEquil(usb: UsbChooser): Promise<UsbConnectOutcome> {
  let device: UsbDevice;
  try {
    device = await usb.requestDevice({ filters: EQUIL_FILTERS });
  } catch (error) {
    return isCancelledChoice(error)
      ? { kind: "cancelled" }
      : { kind: "failed", failure: "deviceOpenFailed" };
  }
  return isAccessoryMode(device)
    ? { kind: "ready", transport: new UsbTransport(device) }
    : switchToAccessory(device);
}

/** The first bulk IN and the first bulk OUT endpoint of an interface, or null when one is missing. */
export function bulkEndpoints(endpoints: readonly Endpoint[]): { in: number; out: number } | null {
  const find = (direction: USBDirection) =>
    endpoints.find((e) => e.type === "bulk" && e.direction === direction)?.endpointNumber;
  const [input, output] = [find("in"), find("out")];
  return input === undefined || output === undefined ? null : { in: input, out: output };
}

/**
 * The handheld in accessory mode as a Transport. A read that brings nothing in time rejects with
 * DeviceTimeout; its transfer stays pending and the next read takes its bytes (WebUSB cannot
 * cancel a transfer).
 */
export class UsbTransport implements Transport {
  private endpoints: { in: number; out: number } | null = null;
  private pendingIn: Promise<USBInTransferResult> | null = null;

  constructor(private readonly device: UsbDevice) {}

  get isOpen(): boolean {
    return this.endpoints !== null;
  }

  async open(): Promise<void> {
    await this.device.open();
    await this.device.selectConfiguration(CONFIGURATION);
    const first = this.device.configuration?.interfaces[0];
    if (!first) throw new Error("the handheld has no interface");
    await this.device.claimInterface(first.interfaceNumber);
    const endpoints = bulkEndpoints(first.alternate.endpoints);
    if (!endpoints) throw new Error("the handheld has no bulk endpoints");
    this.endpoints = endpoints;
  }

  async close(): Promise<void> {
    this.endpoints = null;
    this.pendingIn = null;
    await this.device.close();
  }

  async write(bytes: Uint8Array): Promise<void> {
    const result = await this.device.transferOut(this.opened().out, bytes.slice());
    if (result.status !== "ok") throw new Error(`USB write ${result.status}`);
  }

  async read(maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
    const pending = (this.pendingIn ??= this.device.transferIn(this.opened().in, maxBytes));
    let settled: { value: USBInTransferResult } | null;
    try {
      settled = await within(pending, timeoutMs);
    } catch (error) {
      this.pendingIn = null;
      throw error;
    }
    if (settled === null) throw new DeviceTimeout("usb read");
    this.pendingIn = null;
    const { status, data } = settled.value;
    if (status !== "ok") throw new Error(`USB read ${status}`);
    return data
      ? new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))
      : new Uint8Array(0);
  }

  private opened(): { in: number; out: number } {
    if (!this.endpoints) throw new Error("the handheld is not open");
    return this.endpoints;
  }
}
