import { createRng, type Rng } from "~/utils/seeded-random";

/**
 * Realistic days of an Equil handheld's history, deterministic from a seed, as the handheld
 * stores them: 28-byte records (record number u32 LE; six serial characters; clock year - 2000,
 * month, day, hour, minute, second; battery %; reservoir U; basal rate and bolus rate in
 * 0.00625 U/h, or BG mg/dL and carbohydrate grams; event index u16 LE; event port, type, urgency,
 * value).
 *
 * A day: a basal record every 3 to 10 minutes at the hour's scheduled rate; three meals, each a
 * BG (port 3 type 0), a carbohydrate entry (port 3 type 1, grams in the bolus rate field) and a bolus at
 * 100 U/h (a basal record whose bolus rate is 16000, then one whose bolus rate is 0 when the dose
 * is delivered: one unit per 10 g, taken from the reservoir). Basal takes 20 U from the reservoir
 * at the end of each day, and the battery loses 5 to 15 %. A day that starts under 20 U changes
 * the reservoir at 10:00 (rewind 4/8, prime 4/7 a minute later: 200 U). Alarms, each at most once
 * a day, on the first record under the threshold: low insulin (4/1/1) under 20 U, low power
 * (5/0/1) under 20 %. The handheld starts with 40 U and 25 % battery, so that a few days show
 * every alarm and a reservoir change.
 */

/** The 6-byte device clock: years count from 2000, local time. */
export interface DeviceClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** One history record, field by field, in the device's raw units. */
export interface HistoryRecord {
  readonly recordId: number;
  readonly serial: string;
  readonly time: DeviceClock;
  readonly battery: number;
  readonly reservoir: number;
  readonly short0: number;
  readonly short1: number;
  readonly eventIndex: number;
  readonly port: number;
  readonly type: number;
  readonly urgency: number;
  readonly value: number;
}

export const HISTORY_RECORD_BYTES = 28;
/** History rates are raw × 0.00625 U/h. */
export const HISTORY_RATE_UNIT = 0.00625;
/** The bolus rate of the simulated handheld: 100 U/h. */
export const BOLUS_RATE_RAW = 16000;
const GRAMS_PER_UNIT = 10;
const LOW_RESERVOIR_U = 20;
const LOW_BATTERY_PERCENT = 20;
const FULL_RESERVOIR_U = 200;
const DAILY_BASAL_U = 20;
const START = { reservoir: 40, battery: 25 };
/** The reservoir change: rewind at 10:00, prime a minute later. */
const REFILL_AT = 10 * 3600;

/** The scheduled basal rate of an hour, raw: 1.0 U/h from 4 to 8 h, 0.7 U/h from 20 h, else 0.8 U/h. */
export function scheduledBasalRaw(hour: number): number {
  if (hour >= 4 && hour < 8) return 160;
  return hour >= 20 ? 112 : 128;
}

/** The six serial characters a record holds: the last six of the serial, padded with "0". */
export function recordSerial(serial: string): string {
  return serial.slice(-6).padStart(6, "0");
}

export function encodeClock(time: DeviceClock): number[] {
  return [time.year - 2000, time.month, time.day, time.hour, time.minute, time.second];
}

export function encodeHistoryRecord(record: HistoryRecord): Uint8Array {
  const bytes = new Uint8Array(HISTORY_RECORD_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, record.recordId, true);
  bytes.set(
    Array.from(record.serial, (c) => c.charCodeAt(0) & 0xff),
    4,
  );
  bytes.set(encodeClock(record.time), 10);
  bytes[16] = record.battery;
  bytes[17] = record.reservoir;
  view.setUint16(18, record.short0, true);
  view.setUint16(20, record.short1, true);
  view.setUint16(22, record.eventIndex & 0xffff, true);
  bytes.set([record.port, record.type, record.urgency, record.value], 24);
  return bytes;
}

export function encodeHistory(records: readonly HistoryRecord[]): Uint8Array {
  const bytes = new Uint8Array(records.length * HISTORY_RECORD_BYTES);
  records.forEach((record, i) => bytes.set(encodeHistoryRecord(record), i * HISTORY_RECORD_BYTES));
  return bytes;
}

/** An event of a day before it is numbered: seconds since midnight, what it records, and the reservoir it leaves. */
type DayEvent = {
  at: number;
  port: number;
  type: number;
  urgency: number;
  short0: number;
  short1: number;
  reservoirAfter?: number;
};

const between = (rng: Rng, low: number, high: number) => low + Math.floor(rng() * (high - low + 1));

function basalEvents(rng: Rng): DayEvent[] {
  const events: DayEvent[] = [];
  for (let at = between(rng, 0, 120); at < 86_400; at += between(rng, 180, 600)) {
    events.push({
      at,
      port: 4,
      type: 0,
      urgency: 0,
      short0: scheduledBasalRaw(Math.floor(at / 3600)),
      short1: 0,
    });
  }
  return events;
}

/** A meal at about `hour`: BG, carbohydrate, and the bolus start and end. */
function mealEvents(rng: Rng, hour: number): DayEvent[] {
  const at = hour * 3600 + between(rng, -1800, 1800);
  const grams = between(rng, 2, 8) * 10;
  const bolusSeconds = Math.round(
    (grams / GRAMS_PER_UNIT / (BOLUS_RATE_RAW * HISTORY_RATE_UNIT)) * 3600,
  );
  const basal = scheduledBasalRaw(hour);
  return [
    { at, port: 3, type: 0, urgency: 0, short0: between(rng, 80, 220), short1: 0 },
    { at: at + 30, port: 3, type: 1, urgency: 0, short0: 0, short1: grams },
    { at: at + 60, port: 4, type: 0, urgency: 0, short0: basal, short1: BOLUS_RATE_RAW },
    { at: at + 60 + bolusSeconds, port: 4, type: 0, urgency: 0, short0: basal, short1: 0 },
  ];
}

/** Rewind and prime, leaving a full reservoir. */
function refillEvents(): DayEvent[] {
  return [
    { at: REFILL_AT, port: 4, type: 8, urgency: 0, short0: 0, short1: 0 },
    {
      at: REFILL_AT + 60,
      port: 4,
      type: 7,
      urgency: 0,
      short0: 0,
      short1: 0,
      reservoirAfter: FULL_RESERVOIR_U,
    },
  ];
}

function clockOf(date: Date, at: number): DeviceClock {
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: Math.floor(at / 3600),
    minute: Math.floor(at / 60) % 60,
    second: at % 60,
  };
}

export interface DaysOptions {
  readonly seed: number;
  /** The first day, "YYYY-MM-DD". */
  readonly start: string;
  readonly days: number;
  readonly serial: string;
  /** The first record's number (and event index); 1 unless given. */
  readonly firstRecordId?: number;
}

/** The history records of `days` days from `start`, in time order, numbered from `firstRecordId`. */
export function simulateDays(options: DaysOptions): HistoryRecord[] {
  const rng = createRng(options.seed);
  const serial = recordSerial(options.serial);
  const records: HistoryRecord[] = [];
  let recordId = options.firstRecordId ?? 1;
  let { battery, reservoir } = START;
  for (let d = 0; d < options.days; d++) {
    const date = new Date(Date.parse(`${options.start}T00:00:00Z`) + d * 86_400_000);
    const refill = reservoir < LOW_RESERVOIR_U ? refillEvents() : [];
    const events = [
      ...basalEvents(rng),
      ...mealEvents(rng, 7),
      ...mealEvents(rng, 12),
      ...mealEvents(rng, 19),
      ...refill,
    ].sort((a, b) => a.at - b.at);
    let alarmed = { reservoir: false, battery: false };
    const push = (event: DayEvent) => {
      records.push({
        recordId,
        serial,
        time: clockOf(date, event.at),
        battery,
        reservoir,
        short0: event.short0,
        short1: event.short1,
        eventIndex: recordId,
        port: event.port,
        type: event.type,
        urgency: event.urgency,
        value: 0,
      });
      recordId++;
    };
    for (const event of events) {
      if (event.port === 3 && event.type === 1)
        reservoir = Math.max(0, reservoir - event.short1 / GRAMS_PER_UNIT);
      if (event.reservoirAfter !== undefined) reservoir = event.reservoirAfter;
      push(event);
      if (reservoir < LOW_RESERVOIR_U && !alarmed.reservoir)
        push({ ...event, port: 4, type: 1, urgency: 1, short0: 0, short1: 0 });
      if (battery < LOW_BATTERY_PERCENT && !alarmed.battery)
        push({ ...event, port: 5, type: 0, urgency: 1, short0: 0, short1: 0 });
      alarmed = {
        reservoir: alarmed.reservoir || reservoir < LOW_RESERVOIR_U,
        battery: alarmed.battery || battery < LOW_BATTERY_PERCENT,
      };
    }
    reservoir = Math.max(0, reservoir - DAILY_BASAL_U);
    battery = Math.max(0, battery - between(rng, 5, 15));
  }
  return records;
}
