import type { CgmRecordInput, PumpRecordInput } from "~/ingest/records";
import {
  basalProgramRead,
  HISTORY_READ,
  PUMP_SETTING_READS,
  requestOf,
  SERIAL_NUMBER_READ,
  type PumpRead,
} from "./commands";
import type { Result } from "./errors";
import { encodeRequest, FrameReader } from "./frame";
import {
  DeviceFault,
  DeviceTimeout,
  type BasalProgram,
  type PumpLink,
  type PumpSettings,
} from "./pump-upload";
import type { UploadFailureKey } from "./progress";
import { parseCgmHistory, parsePumpHistory } from "./records";
import {
  parseBasalProgram,
  parsePumpSettings,
  parseSerialNumber,
  type PumpSettingReplies,
} from "./settings";
import { openFailure, type Transport } from "./transport";

/**
 * The Equil handheld's reads on a byte transport: one request at a time, each reply read in
 * reads of 1,024 bytes until a whole frame has arrived, then parsed.
 *
 * - A read that brings no byte within the time-out throws DeviceTimeout (the upload decides
 *   whether the task can be skipped).
 * - A transport that cannot be opened throws DeviceFault "deviceOpenFailed" ("accessError" when
 *   the browser may not use it); one that fails in
 *   any other way (unplugged) throws DeviceFault "replugUsb".
 * - A broken frame (short packet, bad escape or marker, bad CRC or MD5, bad length, loop guard)
 *   or records that cannot be read throw DeviceFault "deviceReadFailed"; a basal program, setting
 *   list, serial number or zone string that cannot be read throws "settingsReadFailed".
 * - The version is passed on as text: the upload refuses CGM handhelds and old software.
 */

/** Bytes asked for in one transfer. */
export const READ_CHUNK_BYTES = 1024;
/** How long one read may bring nothing before the device counts as silent, ms. */
export const READ_TIMEOUT_MS = 5000;

/**
 * Commands not in public sources (our definition, not yet confirmed on hardware). Ports follow
 * the handheld's numbering: 0 system, 3 glucose, 5 monitor.
 */
export const LINK_COMMANDS = {
  /** Payload: the 6 password characters, ASCII. Reply: one byte, 1 = accepted, anything else refused. */
  password: { port: 0x00, parameter: 0x0a },
  /** Payload `[0, 0, 0, 0]`. Reply: the software version, ASCII up to the first NUL ("5.3.0"). */
  version: { port: 0x00, parameter: 0x01, selector: 0x00 },
  /** Empty payload. Reply: the handheld's CGM readings, N × 22-byte CGM history records. */
  cgm: { port: 0x03, parameter: 0x20, selector: null },
  /** Payload `[0, 0, 0, 0]`. Reply: the zone string, ASCII up to the first NUL ("GMT+01:00"). */
  timeZone: { port: 0x05, parameter: 0x02, selector: 0x00 },
} as const satisfies Record<string, Omit<PumpRead, "selector"> & { selector?: number | null }>;

/** A password is accepted when the reply's first byte is 1. */
const PASSWORD_ACCEPTED = 1;
/** A zone string: "GMT", a sign, two hour digits, ":", two minute digits. */
const ZONE = /^GMT[+-]\d{2}:\d{2}$/;

/** Text up to the first NUL, one character per byte, trimmed. */
export function asciiText(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder("latin1").decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}

/** The value of a parse, or DeviceFault with `failure`. */
export function valueOf<T>(result: Result<T>, failure: UploadFailureKey, step: string): T {
  if (!result.ok) throw new DeviceFault(failure, step);
  return result.value;
}

/** A transport error that is not a time-out means the device is gone. */
function gone(error: unknown, step: string): Error {
  return error instanceof DeviceTimeout ? error : new DeviceFault("replugUsb", step);
}

/** Sends one request and answers the payload of the first whole frame that comes back. */
export async function exchange(
  transport: Transport,
  request: Uint8Array,
  step: string,
  timeoutMs: number,
): Promise<Uint8Array> {
  await transport.write(request).catch((error: unknown) => Promise.reject(gone(error, step)));
  const reader = new FrameReader();
  for (;;) {
    const chunk = await transport
      .read(READ_CHUNK_BYTES, timeoutMs)
      .catch((error: unknown) => Promise.reject(gone(error, step)));
    // The reader stops with a loopGuard error after too many reads without a frame: the loop ends.
    const { frames, error } = reader.push(chunk);
    if (error) throw new DeviceFault("deviceReadFailed", step);
    if (frames[0]) return frames[0].body;
  }
}

/** A link to the Equil handheld on `transport`. */
export function createEquilLink(
  transport: Transport,
  options: { timeoutMs?: number } = {},
): PumpLink {
  const timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  const ask = (read: PumpRead, step: string) =>
    exchange(transport, requestOf(read), step, timeoutMs);

  const readSettingReplies = async (): Promise<PumpSettingReplies> => {
    const replies: Partial<Record<keyof typeof PUMP_SETTING_READS, Uint8Array>> = {};
    for (const name of Object.keys(PUMP_SETTING_READS) as (keyof typeof PUMP_SETTING_READS)[])
      replies[name] = await ask(PUMP_SETTING_READS[name], name);
    // Every read of the table was answered, the four lists among them.
    return replies as PumpSettingReplies;
  };

  return {
    open: () =>
      transport
        .open()
        .catch((error: unknown) => Promise.reject(new DeviceFault(openFailure(error), "open"))),
    close: () => transport.close(),
    async sendPassword(password) {
      const { port, parameter } = LINK_COMMANDS.password;
      const reply = await exchange(
        transport,
        encodeRequest(
          port,
          parameter,
          Uint8Array.from(password, (c) => c.charCodeAt(0) & 0xff),
        ),
        "password",
        timeoutMs,
      );
      return reply[0] === PASSWORD_ACCEPTED;
    },
    async readVersion() {
      return asciiText(await ask(LINK_COMMANDS.version, "version"));
    },
    async readSerial() {
      return valueOf(
        parseSerialNumber(await ask(SERIAL_NUMBER_READ, "serial")),
        "settingsReadFailed",
        "serial",
      );
    },
    async readBasalProgram(index): Promise<BasalProgram> {
      const step = `basal${index}`;
      const preset = valueOf(
        parseBasalProgram(index, await ask(basalProgramRead(index), step)),
        "settingsReadFailed",
        step,
      );
      return {
        settingIndex: preset.settingIndex,
        valueArray: preset.valueArray,
        name: preset.name ?? `Program ${index + 1}`,
      };
    },
    async readSettings(): Promise<PumpSettings> {
      const parsed = valueOf(
        parsePumpSettings(await readSettingReplies(), { pdaSn: "", pdaVersion: "" }),
        "settingsReadFailed",
        "settings",
      );
      // The upload adds the serial number and version it read itself.
      const { pdaSn: _serial, pdaVersion: _version, ...settings } = parsed;
      return settings;
    },
    async readCgmRecords(): Promise<CgmRecordInput[]> {
      return valueOf(
        parseCgmHistory(await ask(LINK_COMMANDS.cgm, "pumpCgm")),
        "deviceReadFailed",
        "pumpCgm",
      );
    },
    async readTimeZone() {
      const zone = asciiText(await ask(LINK_COMMANDS.timeZone, "timeZone"));
      if (!ZONE.test(zone)) throw new DeviceFault("settingsReadFailed", "timeZone");
      return zone;
    },
    async readHistory(): Promise<PumpRecordInput[]> {
      return valueOf(
        parsePumpHistory(await ask(HISTORY_READ, "history")),
        "deviceReadFailed",
        "history",
      );
    },
  };
}
