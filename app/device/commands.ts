import { encodeRequest } from "./frame";

/**
 * The reads the Equil handheld answers, in the order the upload sends them. One request at a time;
 * each reply is read in full before the next request. Every payload is four bytes
 * `[selector, 0, 0, 0]`, except the history read, whose payload is empty.
 *
 * Ports: 0 system, 3 glucose, 4 delivery, 5 monitor. Setting lists are u16 little-endian:
 * target low and high and the sensitivity in tenths of mg/dL, the carbohydrate ratio in g/U.
 * The meaning and scale of originBasal, bolusRate, maxBolus, doubleBolus and effectiveTime are
 * not known; they are read and kept as they are.
 */
export interface PumpRead {
  readonly port: number;
  readonly parameter: number;
  /** The first payload byte; null for the history read (empty payload). */
  readonly selector: number | null;
}

export const PUMP_SETTING_READS = {
  lowBg: { port: 0x03, parameter: 0x11, selector: 0x01 },
  highBg: { port: 0x03, parameter: 0x11, selector: 0x00 },
  defaultCho: { port: 0x03, parameter: 0x11, selector: 0x02 },
  sensitiveSilver: { port: 0x03, parameter: 0x11, selector: 0x03 },
  originBasal: { port: 0x04, parameter: 0x05, selector: 0x0c },
  bolusRate: { port: 0x04, parameter: 0x05, selector: 0x0a },
  maxBolus: { port: 0x04, parameter: 0x05, selector: 0x08 },
  doubleBolus: { port: 0x04, parameter: 0x05, selector: 0x0d },
  effectiveTime: { port: 0x03, parameter: 0x10, selector: 0x03 },
} as const satisfies Record<string, PumpRead>;

/** The handheld's serial number: one ASCII character per byte. */
export const SERIAL_NUMBER_READ: PumpRead = { port: 0x00, parameter: 0x07, selector: 0x00 };
/** The whole history log in one reply: 28-byte records. */
export const HISTORY_READ: PumpRead = { port: 0x05, parameter: 0x01, selector: null };

/** Basal program `index` (the selector is the index): 48 half-hour rates and a name. */
export function basalProgramRead(index: number): PumpRead {
  return { port: 0x04, parameter: 0x02, selector: index };
}

/** The request frame of a read. */
export function requestOf(read: PumpRead): Uint8Array {
  const payload =
    read.selector === null ? new Uint8Array(0) : Uint8Array.of(read.selector, 0, 0, 0);
  return encodeRequest(read.port, read.parameter, payload);
}
