import { isSafeText } from "~/utils/safe-text";
import { BASAL_SLOTS, type BasalSaveInput, type PumpSettingWire } from "~/schemas/upload";
import { failed, ok, type Result } from "./errors";

/**
 * The Equil handheld's settings replies, turned into the upload API's shapes. Values are sent raw,
 * as the handheld stores them: the server applies the scales.
 */

export type BasalPreset = BasalSaveInput["list"][number];

/** Bytes of a basal program's rates: 48 half-hour slots of u16 LE (raw x 0.0125 U/h). */
const BASAL_RATE_BYTES = BASAL_SLOTS * 2;
/** Longest preset name the server keeps. */
const BASAL_NAME_MAX = 32;
/** A setting list holds one value per half hour, 48 or 49 with a trailing default. */
const SETTING_LIST_MAX = 49;
/** Longest serial number the server accepts; letters, digits, "_" and "-" only. */
const SERIAL = /^[A-Za-z0-9_-]{1,32}$/;

const badSetting = (setting: string) => failed<never>({ kind: "badSetting", detail: { setting } });

/** Little-endian u16 values of a reply; null when its length is odd. */
export function u16List(bytes: Uint8Array): number[] | null {
  if (bytes.length % 2 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 2 }, (_, i) => view.getUint16(2 * i, true));
}

/** UTF-8 text up to the first NUL byte (a C string), trimmed; bytes that are not UTF-8 read as U+FFFD. */
function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder("utf-8").decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}

/**
 * The name after a basal program's rates: UTF-8 up to the first NUL. A name that is empty, longer
 * than 32 characters or holds hidden characters (controls, bidirectional overrides, bytes that
 * are not UTF-8) is left out, and the page shows "Program N" instead.
 */
function basalName(bytes: Uint8Array): string | undefined {
  const name = cString(bytes);
  const usable =
    name.length > 0 &&
    name.length <= BASAL_NAME_MAX &&
    isSafeText(name) &&
    !name.includes("\uFFFD");
  return usable ? name : undefined;
}

/**
 * A basal program reply: bytes 0-95 the 48 half-hour rates (u16 LE, raw x 0.0125 U/h), then the
 * program's name. Shorter replies cannot be read.
 */
export function parseBasalProgram(settingIndex: number, bytes: Uint8Array): Result<BasalPreset> {
  if (bytes.length < BASAL_RATE_BYTES) return badSetting(`basal${settingIndex}`);
  const valueArray = u16List(bytes.subarray(0, BASAL_RATE_BYTES))!;
  const name = basalName(bytes.subarray(BASAL_RATE_BYTES));
  return ok(name === undefined ? { settingIndex, valueArray } : { settingIndex, valueArray, name });
}

/** The four time-segmented settings: lists of u16 LE, item i starting at i x 30 min. */
const LIST_SETTINGS = ["lowBg", "highBg", "defaultCho", "sensitiveSilver"] as const;
/** Settings sent as one number: the first u16 LE of their reply. */
const VALUE_SETTINGS = [
  "originBasal",
  "bolusRate",
  "maxBolus",
  "effectiveTime",
  "maxiumBasalRate",
  "bolusIncrement",
  "quickBolusIncrement",
  "lowReseverThreshold",
  "tempBasalRate",
] as const;

type ListSetting = (typeof LIST_SETTINGS)[number];
type ValueSetting = (typeof VALUE_SETTINGS)[number] | "doubleBolus";

/** The handheld's replies by setting; the four lists are always read, the other settings when known. */
export type PumpSettingReplies = Readonly<Record<ListSetting, Uint8Array>> &
  Readonly<Partial<Record<ValueSetting, Uint8Array>>>;

export type PumpSettings = Omit<PumpSettingWire, "pid">;

function firstValue(bytes: Uint8Array): number | null {
  return bytes.length < 2 ? null : bytes[0]! | (bytes[1]! << 8);
}

/**
 * The settings upload from the handheld's replies. A list is its u16 values (at most 49); a
 * one-number setting is the first u16 of its reply, and is left out when its reply is missing or
 * empty; doubleBolus must be 0 or 1. Any other reply cannot be read.
 */
export function parsePumpSettings(
  replies: PumpSettingReplies,
  device: { pdaSn: string; pdaVersion: string },
): Result<PumpSettings> {
  const settings: Record<string, unknown> = { pdaSn: device.pdaSn, pdaVersion: device.pdaVersion };
  for (const name of LIST_SETTINGS) {
    const list = u16List(replies[name]);
    if (list === null || list.length > SETTING_LIST_MAX) return badSetting(name);
    settings[name] = list;
  }
  for (const name of [...VALUE_SETTINGS, "doubleBolus"] as const) {
    const reply = replies[name];
    if (reply === undefined || reply.length === 0) continue;
    const value = firstValue(reply);
    if (value === null || (name === "doubleBolus" && value > 1)) return badSetting(name);
    settings[name] = value;
  }
  return ok(settings as PumpSettings);
}

/** The serial number reply: ASCII up to the first NUL, trimmed; letters, digits, "_" and "-". */
export function parseSerialNumber(bytes: Uint8Array): Result<string> {
  const serial = cString(bytes);
  return SERIAL.test(serial) ? ok(serial) : badSetting("serialNumber");
}
