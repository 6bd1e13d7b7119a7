import { DeviceTimeout } from "./pump-upload";

/**
 * A byte pipe to a device: WebUSB for the pump handheld, Web Serial for the meter, the simulator
 * in tests and the demo. `read` answers at most `maxBytes` bytes as soon as some arrive; when
 * none arrive within `timeoutMs` it rejects with DeviceTimeout. Any other rejection means the
 * device is gone (unplugged, closed by the browser).
 */
export interface Transport {
  readonly isOpen: boolean;
  open(): Promise<void>;
  close(): Promise<void>;
  write(bytes: Uint8Array): Promise<void>;
  read(maxBytes: number, timeoutMs: number): Promise<Uint8Array>;
}

/**
 * The value of `pending` if it settles within `ms`, else null. The pending operation is not
 * cancelled: a caller that gives up keeps the promise and awaits it again on its next read, so
 * no bytes are lost to a transfer nobody is waiting for.
 */
export async function within<T>(pending: Promise<T>, ms: number): Promise<{ value: T } | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([pending.then((value) => ({ value })), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Rejects with DeviceTimeout naming `step` when `pending` does not settle within `ms`. */
export async function orTimeout<T>(pending: Promise<T>, ms: number, step: string): Promise<T> {
  const settled = await within(pending, ms);
  if (settled === null) throw new DeviceTimeout(step);
  return settled.value;
}

/** Words of the browser's messages when nothing was chosen ("No device selected.", "No port selected by the user."). */
const CANCEL_WORDS = /\b(no|not|user)\b/i;

/**
 * True when a device or port request failed because the user chose nothing: a DOMException named
 * NotFoundError, or one whose message has the word "no", "not" or "user". That is a cancelled
 * choice, not an error.
 */
export function isCancelledChoice(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("name" in error)) return false;
  const { name, message } = error as { name: unknown; message?: unknown };
  if (name === "NotFoundError") return true;
  return isDomException(error) && typeof message === "string" && CANCEL_WORDS.test(message);
}

/**
 * Why a device could not be opened: a SecurityError means the browser may not use it (no driver,
 * or another program holds it): "Access Error"; anything else "device open failed".
 */
export function openFailure(error: unknown): "accessError" | "deviceOpenFailed" {
  return typeof error === "object" &&
    error !== null &&
    "name" in error &&
    error.name === "SecurityError"
    ? "accessError"
    : "deviceOpenFailed";
}

/** DOMException exists in browsers and in Node 17+; looked up when called, never at load. */
function isDomException(error: object): boolean {
  return typeof DOMException !== "undefined" && error instanceof DOMException;
}
