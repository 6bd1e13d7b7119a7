import { createRng, gaussian, type Rng } from "~/utils/seeded-random";
import { AIDEX_COMMANDS, NO_INDEX, u32 } from "../aidex-link";
import { SERIAL_NUMBER_READ } from "../commands";
import { LINK_COMMANDS } from "../equil-link";
import type { Frame } from "../frame";
import { encodeClock, type DeviceClock } from "./days";
import { encodeCgmReadings, FramedSimulator, type Reply, type SimulatorOptions } from "./equil";

/**
 * The AiDEX CGM handheld's side of the USB protocol (docs/device-protocols.md), with realistic
 * days: a reading every 5 minutes and two finger-pricks a day, numbered in one sequence.
 *
 * A day's glucose (mg/dL): 115 plus a slow daily wave (lowest at 03:00, +15 at 15:00), a rise
 * after each of three meals (07:30, 12:30, 19:00, each ± 30 min) shaped t/τ · e^(1 − t/τ) with
 * τ = 55 min and a peak of 40-110 mg/dL, and sensor noise (AR(1), 0.8, σ 4 mg/dL), kept within
 * 40-400. Finger-pricks at about 07:15 and 21:30 read the glucose ± 6 %.
 */

/** A record as the handheld keeps it: its index, clock and raw value (mg/dL = 1.8 × raw). */
export type AidexEntry = {
  readonly index: number;
  readonly time: DeviceClock;
  readonly raw: number;
};

export interface Aidex {
  readonly serial: string;
  /** "1.x": a CGM handheld. */
  readonly version: string;
  /** Finger-prick records, oldest first. */
  readonly manual: readonly AidexEntry[];
  /** Sensor readings, oldest first. */
  readonly readings: readonly AidexEntry[];
}

export interface AidexOptions {
  readonly serial?: string;
  readonly version?: string;
  readonly start?: string;
  readonly days?: number;
  readonly seed?: number;
  readonly firstIndex?: number;
}

export const MGDL_PER_RAW = 1.8;
const READING_MINUTES = 5;
const MEAL_TAU_MINUTES = 55;
const MEALS = [7.5 * 60, 12.5 * 60, 19 * 60];
const FINGER_PRICKS = [7.25 * 60, 21.5 * 60];

const between = (rng: Rng, low: number, high: number) => low + (high - low) * rng();

function clockAt(start: string, minute: number): DeviceClock {
  const at = new Date(Date.parse(`${start}T00:00:00Z`) + minute * 60_000);
  return {
    year: at.getUTCFullYear(),
    month: at.getUTCMonth() + 1,
    day: at.getUTCDate(),
    hour: at.getUTCHours(),
    minute: at.getUTCMinutes(),
    second: 0,
  };
}

/** The glucose of every minute of `days` days, from the model above. */
function glucoseByMinute(rng: Rng, days: number): Float64Array {
  const minutes = days * 1440;
  const glucose = new Float64Array(minutes);
  const meals = Array.from({ length: days }, (_, day) =>
    MEALS.map((at) => ({
      at: day * 1440 + at + between(rng, -30, 30),
      peak: between(rng, 40, 110),
    })),
  ).flat();
  let noise = 0;
  for (let m = 0; m < minutes; m++) {
    const hour = (m % 1440) / 60;
    const wave = 7.5 - 7.5 * Math.cos((2 * Math.PI * (hour - 3)) / 24);
    const rise = meals.reduce((sum, meal) => {
      const t = (m - meal.at) / MEAL_TAU_MINUTES;
      return t > 0 ? sum + meal.peak * t * Math.exp(1 - t) : sum;
    }, 0);
    if (m % READING_MINUTES === 0) noise = 0.8 * noise + 4 * gaussian(rng);
    glucose[m] = Math.min(400, Math.max(40, 115 + wave + rise + noise));
  }
  return glucose;
}

/** A handheld with `days` days from `start` (default 3 days from 2026-07-01, seed 1). */
export function createAidex(options: AidexOptions = {}): Aidex {
  const rng = createRng(options.seed ?? 1);
  const start = options.start ?? "2026-07-01";
  const days = options.days ?? 3;
  const glucose = glucoseByMinute(rng, days);
  const events: { minute: number; manual: boolean; mgdl: number }[] = [];
  for (let m = 0; m < glucose.length; m += READING_MINUTES)
    events.push({ minute: m, manual: false, mgdl: glucose[m]! });
  for (let day = 0; day < days; day++) {
    for (const at of FINGER_PRICKS) {
      const minute = day * 1440 + Math.round(at + between(rng, -10, 10));
      events.push({ minute, manual: true, mgdl: glucose[minute]! * between(rng, 0.94, 1.06) });
    }
  }
  events.sort((a, b) => a.minute - b.minute || Number(a.manual) - Number(b.manual));
  const first = options.firstIndex ?? 1;
  const entries = events.map((event, i) => ({
    manual: event.manual,
    entry: {
      index: first + i,
      time: clockAt(start, event.minute),
      raw: Math.round(event.mgdl / MGDL_PER_RAW),
    },
  }));
  return {
    serial: options.serial ?? "AX2026001",
    version: options.version ?? "1.2.0",
    manual: entries.filter((e) => e.manual).map((e) => e.entry),
    readings: entries.filter((e) => !e.manual).map((e) => e.entry),
  };
}

/** A finger-prick record, 12 bytes: index u32, clock, raw u16. */
export function encodeManualRecord(entry: AidexEntry): Uint8Array {
  const bytes = new Uint8Array(12);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, entry.index, true);
  bytes.set(encodeClock(entry.time), 4);
  view.setUint16(10, entry.raw, true);
  return bytes;
}

const u32Of = (body: Uint8Array) =>
  body.length >= 4 ? new DataView(body.buffer, body.byteOffset, 4).getUint32(0, true) : null;
const is = (frame: Frame, command: { port: number; parameter: number }) =>
  frame.port === command.port && frame.parameter === command.parameter;

/** What the AiDEX handheld answers a request; a position it does not have gets no answer. */
export function answerAidex(aidex: Aidex, frame: Frame): Reply {
  if (is(frame, LINK_COMMANDS.version))
    return { name: "version", payload: new TextEncoder().encode(`${aidex.version}\0`) };
  if (is(frame, SERIAL_NUMBER_READ))
    return { name: "serial", payload: new TextEncoder().encode(aidex.serial) };
  if (is(frame, AIDEX_COMMANDS.manualCount))
    return { name: "manualCount", payload: u32(aidex.manual.length) };
  if (is(frame, AIDEX_COMMANDS.manualRecord)) {
    const entry = aidex.manual[u32Of(frame.body) ?? -1];
    return { name: "manualRecord", payload: entry ? encodeManualRecord(entry) : null };
  }
  if (is(frame, AIDEX_COMMANDS.history)) {
    const after = u32Of(frame.body);
    const newer =
      after === null ? [] : aidex.readings.filter((r) => after === NO_INDEX || r.index > after);
    return { name: "history", payload: encodeCgmReadings(newer) };
  }
  return null;
}

/** The simulated AiDEX handheld behind the Transport interface. */
export class SimulatedAidexTransport extends FramedSimulator {
  constructor(
    readonly aidex: Aidex,
    options: SimulatorOptions = {},
  ) {
    super((frame) => answerAidex(aidex, frame), options);
  }
}
