import { encodeFrame } from "../frame";
import type { Transport } from "../transport";

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** A transport that answers each write with the next scripted payload (as a frame), and logs the writes. */
export function scripted(payloads: Uint8Array[], options: { failOpen?: boolean } = {}) {
  const writes: string[] = [];
  let pending: Uint8Array = new Uint8Array(0);
  let reads = 0;
  const transport: Transport = {
    isOpen: true,
    open: async () => (options.failOpen ? Promise.reject(new Error("NetworkError")) : undefined),
    close: async () => undefined,
    write: async (bytes) => {
      writes.push(hex(bytes));
      const payload = payloads.shift();
      pending = payload
        ? encodeFrame({ port: 0, parameter: 0, operation: 2, body: payload })
        : new Uint8Array(0);
    },
    read: async () => {
      reads++;
      const chunk = pending;
      pending = new Uint8Array(0);
      return chunk;
    },
  };
  return { transport, writes, reads: () => reads };
}
