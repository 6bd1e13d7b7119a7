import type { CgmRecordInput } from "~/ingest/records";
import { SERIAL_NUMBER_READ, requestOf } from "./commands";
import { asciiText, exchange, LINK_COMMANDS, READ_TIMEOUT_MS, valueOf } from "./equil-link";
import { encodeRequest } from "./frame";
import type { CgmLink } from "./cgm-upload";
import { DeviceFault } from "./pump-upload";
import { parseCgmHistory, parseManualBlood } from "./records";
import { parseSerialNumber } from "./settings";
import { openFailure, type Transport } from "./transport";

/**
 * The AiDEX CGM handheld's reads on a byte transport. It is a Microtech handheld like the Equil:
 * the same USB accessory switch, the same frames, the same version and serial-number reads.
 *
 * Commands below are our definition, not yet confirmed on hardware. The handheld numbers every
 * record it keeps (sensor readings and blood values typed in by hand) in one sequence, the
 * `eventIndex`; its finger-prick list is read one record at a time by position (0 the oldest).
 * Numbers are u32 little-endian.
 */
export const AIDEX_COMMANDS = {
  /** Payload `[0, 0, 0, 0]`. Reply: u32, how many finger-prick records the handheld keeps. */
  manualCount: { port: 0x03, parameter: 0x22 },
  /** Payload: u32 position. Reply: that finger-prick record, 12 bytes. */
  manualRecord: { port: 0x03, parameter: 0x23 },
  /** Payload: u32, the newest index the host has (0xFFFFFFFF: none). Reply: the newer readings, N × 22 bytes, oldest first. */
  history: { port: 0x03, parameter: 0x24 },
} as const;

/** "No index": the host has nothing of this sensor. */
export const NO_INDEX = 0xffffffff;

/** A u32 little-endian, as the AiDEX commands' payloads carry numbers. */
export const u32 = (value: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
};

/** A link to the AiDEX handheld on `transport`; errors as in createEquilLink. */
export function createAidexLink(
  transport: Transport,
  options: { timeoutMs?: number } = {},
): CgmLink {
  const timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  const send = (command: { port: number; parameter: number }, payload: Uint8Array, step: string) =>
    exchange(transport, encodeRequest(command.port, command.parameter, payload), step, timeoutMs);

  return {
    open: () =>
      transport
        .open()
        .catch((error: unknown) => Promise.reject(new DeviceFault(openFailure(error), "open"))),
    close: () => transport.close(),
    async readVersion() {
      return asciiText(
        await exchange(transport, requestOf(LINK_COMMANDS.version), "version", timeoutMs),
      );
    },
    async readSerial() {
      return valueOf(
        parseSerialNumber(
          await exchange(transport, requestOf(SERIAL_NUMBER_READ), "serial", timeoutMs),
        ),
        "settingsReadFailed",
        "serial",
      );
    },
    async readManualCount() {
      const reply = await send(AIDEX_COMMANDS.manualCount, u32(0), "manualCount");
      if (reply.length !== 4) throw new DeviceFault("deviceReadFailed", "manualCount");
      return new DataView(reply.buffer, reply.byteOffset, 4).getUint32(0, true);
    },
    async readManualRecord(position) {
      const records = valueOf(
        parseManualBlood(await send(AIDEX_COMMANDS.manualRecord, u32(position), "manualRecord")),
        "equilPumpPda",
        "manualRecord",
      );
      if (records.length !== 1) throw new DeviceFault("deviceReadFailed", "manualRecord");
      return records[0]!;
    },
    async readHistory(after): Promise<CgmRecordInput[]> {
      return valueOf(
        parseCgmHistory(
          await send(AIDEX_COMMANDS.history, u32(after < 0 ? NO_INDEX : after), "history"),
        ),
        "deviceReadFailed",
        "history",
      );
    },
  };
}
