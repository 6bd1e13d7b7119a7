import { afterEach, describe, expect, it, vi } from "vitest";
import { DeviceTimeout } from "./pump-upload";
import {
  chooseMeterPort,
  meterLinkOf,
  SerialTransport,
  type SerialPortLike,
} from "./serial-transport";

/** A serial port whose incoming bytes the test sends; it logs open and close and keeps what is written. */
function fakePort() {
  let incoming: ReadableStreamDefaultController<Uint8Array> | undefined;
  const written: number[][] = [];
  const log: unknown[][] = [];
  const port: SerialPortLike = {
    readable: new ReadableStream<Uint8Array>({
      start: (controller) => void (incoming = controller),
    }),
    writable: new WritableStream<Uint8Array>({
      write: (chunk) => void written.push(Array.from(chunk)),
    }),
    open: async (options) => void log.push(["open", options]),
    close: async () => void log.push(["close"]),
  };
  return {
    port,
    log,
    written,
    send: (text: string) => incoming!.enqueue(new TextEncoder().encode(text)),
  };
}

afterEach(() => void vi.useRealTimers());

describe("SerialTransport", () => {
  it("opens the port at 115200 baud, 8 data bits, 1 stop bit, no parity", async () => {
    const { port, log } = fakePort();
    const transport = new SerialTransport(port);
    await transport.open();
    expect(transport.isOpen).toBe(true);
    expect(log).toEqual([["open", { baudRate: 115200, dataBits: 8, stopBits: 1, parity: "none" }]]);
    await transport.close();
    expect(transport.isOpen).toBe(false);
  });

  it("reads at most maxBytes, keeps the rest for the next read, and times out with DeviceTimeout", async () => {
    vi.useFakeTimers();
    const { port, send } = fakePort();
    const transport = new SerialTransport(port);
    await transport.open();
    send("abcde");
    expect(new TextDecoder().decode(await transport.read(3, 1000))).toBe("abc");
    expect(new TextDecoder().decode(await transport.read(3, 1000))).toBe("de");
    const silent = expect(transport.read(3, 1000)).rejects.toBeInstanceOf(DeviceTimeout);
    await vi.advanceTimersByTimeAsync(1000);
    await silent;
    // The late bytes go to the next read.
    send("f");
    expect(new TextDecoder().decode(await transport.read(3, 1000))).toBe("f");
  });
});

describe("meterLinkOf", () => {
  it("sends 'h', reads until 1 s passes without a byte, and closes the port 1 s after", async () => {
    vi.useFakeTimers();
    const { port, log, written, send } = fakePort();
    let memory: Uint8Array | undefined;
    send("SN:GC1\n");
    void meterLinkOf(new SerialTransport(port))
      .readMemory()
      .then((bytes) => void (memory = bytes));
    await vi.advanceTimersByTimeAsync(600);
    send("2026-07-01 08:15:00,123,0\n");
    // The last byte came at 600 ms: the read ends at 1,600 ms, the port closes at 2,600 ms.
    await vi.advanceTimersByTimeAsync(999);
    expect(log.filter((e) => e[0] === "close")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(memory).toBeUndefined();
    expect(log.filter((e) => e[0] === "close")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.filter((e) => e[0] === "close")).toHaveLength(1);
    expect(new TextDecoder().decode(memory)).toBe("SN:GC1\n2026-07-01 08:15:00,123,0\n");
    expect(written).toEqual([[104]]);
  });

  it("a port that cannot be opened: 'serial port open failed'; one still open: replug; one the browser may not use: 'Access Error'", async () => {
    const refusing = (error: DOMException) =>
      meterLinkOf(
        new SerialTransport({ ...fakePort().port, open: async () => Promise.reject(error) }),
      ).readMemory();
    await expect(
      refusing(new DOMException("Failed to open serial port.", "NetworkError")),
    ).rejects.toMatchObject({ failure: "serialOpenFailed" });
    await expect(
      refusing(new DOMException("The port is already open.", "InvalidStateError")),
    ).rejects.toMatchObject({ failure: "replugUsb" });
    await expect(
      refusing(new DOMException("Access denied.", "SecurityError")),
    ).rejects.toMatchObject({ failure: "accessError" });
  });

  it("a port that takes no 'h': 'serial port start error', and the port is closed", async () => {
    const { port, log } = fakePort();
    const stuck: SerialPortLike = {
      ...port,
      writable: new WritableStream<Uint8Array>({
        write: () => Promise.reject(new Error("write failed")),
      }),
    };
    await expect(meterLinkOf(new SerialTransport(stuck)).readMemory()).rejects.toMatchObject({
      failure: "serialStartFailed",
    });
    expect(log.at(-1)).toEqual(["close"]);
  });
});

describe("chooseMeterPort", () => {
  it("a port choice the user cancelled is an outcome, not an error", async () => {
    const notFound = {
      requestPort: async () =>
        Promise.reject(new DOMException("No port selected by the user.", "NotFoundError")),
    };
    expect(await chooseMeterPort(notFound)).toEqual({ kind: "cancelled" });
    const aborted = {
      requestPort: async () =>
        Promise.reject(new DOMException("The user did not choose a port.", "AbortError")),
    };
    expect(await chooseMeterPort(aborted)).toEqual({ kind: "cancelled" });
  });

  it("any other refusal is a failure to open", async () => {
    const failing = {
      requestPort: async () =>
        Promise.reject(new DOMException("Failed to open serial port.", "NetworkError")),
    };
    expect(await chooseMeterPort(failing)).toEqual({ kind: "failed", failure: "deviceOpenFailed" });
  });

  it("a chosen port is a transport ready to open", async () => {
    expect((await chooseMeterPort({ requestPort: async () => fakePort().port })).kind).toBe(
      "ready",
    );
  });
});
