/**
 * Deterministic device histories for the clinic-sized benchmark and the index-plan test: one
 * patient's CGM, pump and meter records over `days` days ending at `endMs`, in the ingestion
 * module's input form (app/ingest/records.ts), in device order. The same seed and patient number
 * always give the same records. Pure: no database, no clock.
 *
 * The CGM reads every 5 minutes: a diurnal curve (dawn rise, three meals whose rise follows a
 * gamma-like shape, a patient-specific level and swing), slowly varying sensor noise, a night
 * low on some days, clamped to the sensor's 40-400 mg/dL and stored as the device does (raw =
 * mg/dL / 1.8). Sensors last 14 days and warm up for 2 hours after each change; signal is lost
 * for 1-6 hours now and then, and every tenth patient wears no sensor for 3 days. The device keeps
 * counting its record index through gaps. The pump logs a delivery record at each basal change and
 * around each meal bolus, the meal's carbohydrate, reservoir changes every third day and a few
 * alarms; the meter has four finger pricks a day near the CGM value.
 */
import { wallClockAt } from "../../app/ingest/device-time";
import type { CgmRecordInput, MeterRecordInput, PumpRecordInput } from "../../app/ingest/records";
import { createRng, gaussian, type Rng } from "../../app/utils/seeded-random";

/** Changes whenever the generated data would differ: a stored database of another version is built again. */
export const SCALE_GENERATOR_VERSION = 1;

/** Zones given to patients in turn (two with a daylight-saving change inside a 90-day window). */
export const SCALE_ZONES = [
  "Europe/Warsaw",
  "America/New_York",
  "Asia/Kolkata",
  "Australia/Sydney",
  "UTC",
] as const;
/** The zone of patient number `patient` (1-based). */
export function scaleZone(patient: number): string {
  return SCALE_ZONES[(patient - 1) % SCALE_ZONES.length]!;
}

/** Firmware of the generated pumps (5.2.0 or later: carbohydrate in grams). */
export const SCALE_PUMP_FIRMWARE = "5.3.0";

const MINUTE = 60_000;
const DAY = 86_400_000;
const CGM_STEP = 5 * MINUTE;
const SENSOR_DAYS = 14;
const WARM_UP = 2 * 60 * MINUTE;
const RAW_PER_UH = 1 / 0.00625;
const RAW_MIN = Math.ceil(40 / 1.8);
const RAW_MAX = Math.floor(400 / 1.8);

export interface PatientHistory {
  timeZone: string;
  cgmSerial: string;
  pumpSerial: string;
  meterSerial: string;
  cgm: CgmRecordInput[];
  pump: PumpRecordInput[];
  meter: MeterRecordInput[];
}

export interface HistoryOptions {
  seed: number;
  /** The patient's number (1-based); it picks the zone, serials and the patient's curve. */
  patient: number;
  days: number;
  /** The end of the history (exclusive), epoch ms. */
  endMs: number;
}

type Meal = { at: number; grams: number; rise: number };

/** The local minute of day of a device clock text ("YYYY-MM-DD HH:mm:ss"). */
function minuteOf(clock: string): number {
  return (
    (clock.charCodeAt(11) - 48) * 600 +
    (clock.charCodeAt(12) - 48) * 60 +
    (clock.charCodeAt(14) - 48) * 10 +
    (clock.charCodeAt(15) - 48)
  );
}

/** The local midnight before `ms` on the zone's clock (off by the change on a daylight-saving day, which generated data does not mind). */
function localDayStart(ms: number, zone: string): number {
  return ms - minuteOf(wallClockAt(ms, zone)) * MINUTE - (ms % MINUTE);
}

function mealsOf(rng: Rng, start: number, days: number, zone: string): Meal[] {
  const meals: Meal[] = [];
  const plan: [number, number, number, number][] = [
    [7 * 60 + 15, 35, 70, 70],
    [12 * 60 + 45, 45, 90, 80],
    [18 * 60 + 40, 50, 100, 90],
  ];
  for (let day = 0; day < days; day++) {
    const midnight = localDayStart(start + day * DAY + 12 * 60 * MINUTE, zone);
    plan.forEach(([minute, lo, hi, rise], i) => {
      if (i === 0 && rng() < 0.12) return; // breakfast skipped now and then
      const at = midnight + (minute + Math.round((rng() - 0.5) * 70)) * MINUTE;
      meals.push({ at, grams: Math.round(lo + (hi - lo) * rng()), rise: rise * (0.7 + rng()) });
    });
  }
  return meals;
}

/** Gamma-like meal response: 0 at t=0, peak 1 at 55 min, about 0.16 three hours later. */
function mealShape(minutes: number): number {
  if (minutes <= 0) return 0;
  const x = minutes / 55;
  return x * x * Math.exp(2 * (1 - x));
}

/** Intervals without readings: sensor warm-ups, signal losses and, for some patients, days off. */
function sensorGaps(rng: Rng, start: number, end: number, patient: number): [number, number][] {
  const gaps: [number, number][] = [];
  const firstChange = start + Math.floor(rng() * SENSOR_DAYS) * DAY + 9 * 60 * MINUTE;
  for (let t = firstChange; t < end; t += SENSOR_DAYS * DAY) gaps.push([t, t + WARM_UP]);
  for (let t = start; t < end; t += DAY) {
    if (rng() < 0.1) {
      const from = t + Math.floor(rng() * 24 * 60) * MINUTE;
      gaps.push([from, from + (1 + Math.floor(rng() * 6)) * 60 * MINUTE]);
    }
  }
  if (patient % 10 === 0) {
    const from = start + Math.floor(rng() * 60) * DAY;
    gaps.push([from, from + 3 * DAY]);
  }
  return gaps.sort((a, b) => a[0] - b[0]);
}

function cgmOf(
  rng: Rng,
  o: HistoryOptions,
  zone: string,
  meals: readonly Meal[],
): { cgm: CgmRecordInput[]; values: Map<number, number> } {
  const start = o.endMs - o.days * DAY;
  const level = 105 + 55 * rng();
  const swing = 0.6 + 0.8 * rng();
  const hypoChance = 0.04 + 0.12 * rng();
  const gaps = sensorGaps(rng, start, o.endMs, o.patient);
  const cgm: CgmRecordInput[] = [];
  const values = new Map<number, number>();
  let noise = 0;
  let index = 0;
  let gap = 0;
  let meal = 0;
  let sensor = 1;
  let nextSensor = gaps[0]?.[0] ?? Number.POSITIVE_INFINITY;
  const hypoDays = Array.from({ length: o.days + 1 }, () => rng() < hypoChance);
  for (let at = start + Math.floor(rng() * 5) * MINUTE; at < o.endMs; at += CGM_STEP) {
    index++;
    noise = 0.94 * noise + gaussian(rng) * 5;
    while (gap < gaps.length && gaps[gap]![1] <= at) gap++;
    if (at >= nextSensor) {
      sensor++;
      nextSensor += SENSOR_DAYS * DAY;
    }
    const clock = wallClockAt(at, zone);
    const minute = minuteOf(clock);
    const day = Math.floor((at - start) / DAY);
    const dawn =
      minute >= 240 && minute < 480 ? 20 * Math.sin(((minute - 240) / 240) * Math.PI) : 0;
    let mgdl = level + dawn + noise;
    while (meal < meals.length && meals[meal]!.at < at - 6 * 60 * MINUTE) meal++;
    for (let m = meal; m < meals.length && meals[m]!.at < at; m++)
      mgdl += swing * meals[m]!.rise * mealShape((at - meals[m]!.at) / MINUTE);
    if (hypoDays[day] && minute >= 90 && minute < 270)
      mgdl -= 80 * Math.sin(((minute - 90) / 180) * Math.PI);
    const inGap = gap < gaps.length && gaps[gap]![0] <= at;
    if (inGap) continue;
    // The sensor's range, 40-400 mg/dL, in its raw steps of 1.8 mg/dL.
    const raw = Math.min(RAW_MAX, Math.max(RAW_MIN, Math.round(mgdl / 1.8)));
    values.set(Math.floor(at / CGM_STEP), raw * 1.8);
    cgm.push({
      eventIndex: index,
      historyId: index,
      sensorIndex: sensor,
      eventType: 7,
      rawGlucose: raw,
      deviceTime: clock,
    });
  }
  return { cgm, values };
}

/** Basal rates (U/h) of the day's segments: from midnight, 03:00, 08:00, 17:00 and 22:00. */
const BASAL_SEGMENTS = [
  [0, 0.8],
  [3 * 60, 1.05],
  [8 * 60, 0.9],
  [17 * 60, 0.85],
  [22 * 60, 0.8],
] as const;

function pumpOf(rng: Rng, o: HistoryOptions, zone: string, meals: readonly Meal[]) {
  const start = o.endMs - o.days * DAY;
  const scale = 0.7 + 0.7 * rng();
  type Event = Omit<
    PumpRecordInput,
    "recordId" | "eventIndex" | "deviceTime" | "battery" | "reservoir"
  > & {
    at: number;
  };
  const events: Event[] = [];
  let basalRaw = 0;
  const delivery = (at: number, bolusRaw: number): Event => ({
    at,
    eventPort: 4,
    eventType: 0,
    eventUrgency: 0,
    eventValue: 0,
    basalRateRaw: basalRaw,
    bolusRateRaw: bolusRaw,
  });
  const pending: { at: number; make: () => Event }[] = [];
  for (let day = 0; day < o.days; day++) {
    const midnight = localDayStart(start + day * DAY + 12 * 60 * MINUTE, zone);
    for (const [minute, uh] of BASAL_SEGMENTS) {
      const at = midnight + minute * MINUTE;
      pending.push({
        at,
        make: () => {
          basalRaw = Math.round((uh * scale) / 0.00625);
          return delivery(at, 0);
        },
      });
    }
    if (day % 3 === 1) {
      const at = midnight + (9 * 60 + Math.floor(rng() * 120)) * MINUTE;
      for (const [offset, type] of [
        [0, 8],
        [4, 7],
      ] as const)
        pending.push({
          at: at + offset * MINUTE,
          make: () => ({ ...delivery(at + offset * MINUTE, 0), eventType: type }),
        });
    }
    const alarm = rng();
    if (alarm < 0.05) {
      const at = midnight + Math.floor(rng() * 1440) * MINUTE;
      const [port, type, urgency] =
        alarm < 0.02 ? [4, 2, 2] : alarm < 0.035 ? [5, 0, 1] : [4, 1, 1];
      pending.push({
        at,
        make: () => ({
          ...delivery(at, 0),
          eventPort: port,
          eventType: type,
          eventUrgency: urgency,
        }),
      });
    }
  }
  for (const meal of meals) {
    const units = Math.round((meal.grams / 10) * 20) / 20;
    const seconds = Math.max(60, Math.round((units / 60) * 3600));
    const carbAt = meal.at - 8 * MINUTE;
    pending.push({
      at: carbAt,
      make: () => ({
        ...delivery(carbAt, 0),
        eventPort: 3,
        eventType: 1,
        bolusRateRaw: meal.grams,
      }),
    });
    const bolusAt = meal.at - 5 * MINUTE;
    pending.push({ at: bolusAt, make: () => delivery(bolusAt, Math.round(60 * RAW_PER_UH)) });
    pending.push({
      at: bolusAt + seconds * 1000,
      make: () => delivery(bolusAt + seconds * 1000, 0),
    });
  }
  pending.sort((a, b) => a.at - b.at);
  for (const p of pending) if (p.at >= start && p.at < o.endMs) events.push(p.make());
  let reservoir = 200;
  return events.map((e, i): PumpRecordInput => {
    if (e.eventPort === 4 && e.eventType === 7) reservoir = 200;
    reservoir = Math.max(0, reservoir - 0.3);
    const { at, ...fields } = e;
    return {
      ...fields,
      recordId: i + 1,
      eventIndex: (i + 1) % 65_536,
      battery: 100 - (Math.floor((at - start) / DAY) % 20) * 4,
      reservoir: Math.round(reservoir),
      deviceTime: wallClockAt(at, zone),
    };
  });
}

function meterOf(
  rng: Rng,
  zone: string,
  meals: readonly Meal[],
  values: ReadonlyMap<number, number>,
): MeterRecordInput[] {
  const checks = meals.map((m) => m.at - 12 * MINUTE);
  for (const m of meals)
    if (minuteOf(wallClockAt(m.at, zone)) > 17 * 60) checks.push(m.at + 210 * MINUTE);
  checks.sort((a, b) => a - b);
  const meter: MeterRecordInput[] = [];
  let last = "";
  for (const at of checks) {
    const near = values.get(Math.floor(at / CGM_STEP)) ?? values.get(Math.floor(at / CGM_STEP) - 1);
    if (near === undefined) continue;
    const deviceTime = wallClockAt(Math.floor(at / MINUTE) * MINUTE, zone);
    if (deviceTime === last) continue;
    last = deviceTime;
    const mgdl = Math.min(600, Math.max(20, Math.round(near * (1 + gaussian(rng) * 0.04))));
    meter.push({ deviceTime, mgdl, flags: 0 });
  }
  return meter;
}

/** One patient's device histories (see the module comment). */
export function patientHistory(o: HistoryOptions): PatientHistory {
  const rng = createRng((o.seed ^ Math.imul(o.patient, 0x9e3779b1)) >>> 0);
  const timeZone = scaleZone(o.patient);
  const start = o.endMs - o.days * DAY;
  const meals = mealsOf(rng, start, o.days, timeZone);
  const tag = String(o.patient).padStart(5, "0");
  const cgmSerial = `SCX${tag}`;
  const { cgm, values } = cgmOf(rng, o, timeZone, meals);
  return {
    timeZone,
    cgmSerial,
    pumpSerial: `SCP${tag}`,
    meterSerial: `SCM${tag}`,
    cgm,
    pump: pumpOf(rng, o, timeZone, meals),
    meter: meterOf(rng, timeZone, meals, values),
  };
}
