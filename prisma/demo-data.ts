import { Temporal } from "temporal-polyfill";
import { createRng, gaussian, type Rng } from "../app/utils/seeded-random";
import { cgmRecordToWire, meterRecordToWire, pumpRecordToWire } from "../app/wire/upload";

export { createRng };

/**
 * Deterministic demo data for the seed: the same inputs always give the same records, so tests
 * can rely on them. Pure: no database, no clock (the caller passes the last day).
 *
 * The rich patient gets `DEMO_DAYS` full local days ending the day before `today`, in
 * `DEMO_TIME_ZONE` (which has a daylight-saving change in late March and late October, so a
 * 23- or 25-hour day is in range part of the year).
 */
export const DEMO_TIME_ZONE = "Europe/Warsaw";
export const DEMO_DAYS = 30;
export const CGM_SERIAL = "AX7K2Q9P";
export const PUMP_SERIAL = "EQ4C21";
export const METER_SERIAL = "GC1018A7";
export const SPARSE_METER_SERIAL = "GC1018B3";

/** Days (0-based from the first demo day) with scripted events. */
export const SCRIPT = {
  nightHypoDays: [3, 10, 18, 25],
  highSupperDays: [6, 14, 21],
  /** Sensor signal lost from 10:00 to 16:00 local on this day. */
  sensorGapDay: 12,
  sensorGap: { start: 10 * 60, end: 16 * 60 },
  /** A new sensor (warm-up: no data 08:00-10:00) on these days. */
  sensorChangeDays: [14, 28],
  reservoirChangeDays: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27],
  suspendDay: 9,
  occlusionDay: 8,
  lowPowerDay: 16,
  batteryChangeDay: 17,
  lowInsulinDay: 23,
} as const;

const between = (rng: Rng, lo: number, hi: number) => lo + (hi - lo) * rng();

export type Meal = {
  day: number;
  at: Temporal.ZonedDateTime;
  grams: number;
  rise: number;
  extended: boolean;
};

export type CgmPoint = {
  index: number;
  at: Temporal.ZonedDateTime;
  raw: number;
  mgdl: number;
  sensor: number;
};
export type MeterPoint = { index: number; at: Temporal.ZonedDateTime; mgdl: number };

export type PumpEvent = {
  at: Temporal.ZonedDateTime;
  port: number;
  type: number;
  urgency: number;
  value: number;
  battery: number;
  reservoir: number;
  basalRaw: number; // x 0.00625 U/h
  bolusRaw: number; // x 0.00625 U/h
  /** Grams of a carbohydrate record (3/1), which holds them where other records hold the bolus rate. */
  carbs?: number;
  bgMgdl?: number;
};

export type BasalPreset = { index: number; name: string; values: number[] };

export const RAW_RATE_STEP = 0.00625;
export const BASAL_SETTING_STEP = 0.0125;
/** Normal boluses are delivered at 60 U/h (1 U per minute). */
const BOLUS_RATE_UH = 60;
const CARB_RATIO_G_PER_U = 10;

export function demoWindow(today: Temporal.PlainDate, timeZone = DEMO_TIME_ZONE) {
  const end = today.toZonedDateTime({ timeZone });
  const start = today.subtract({ days: DEMO_DAYS }).toZonedDateTime({ timeZone });
  return { start, end };
}

/** The standard basal profile (U/h per half hour), a multiple of the device's 0.0125 step. */
export function basalPresets(): BasalPreset[] {
  const standard = Array.from({ length: 48 }, (_, slot) => {
    const hour = slot / 2;
    if (hour < 3) return 0.8;
    if (hour < 8) return 1.1; // dawn phenomenon
    if (hour < 17) return 0.9;
    if (hour < 22) return 0.85;
    return 0.8;
  });
  const sport = standard.map(
    (v) => Math.round((v * 0.7) / BASAL_SETTING_STEP) * BASAL_SETTING_STEP,
  );
  return [
    { index: 0, name: "Standard", values: standard },
    { index: 1, name: "Sport", values: sport },
  ];
}

function basalAt(at: Temporal.ZonedDateTime): number {
  const slot = at.hour * 2 + (at.minute >= 30 ? 1 : 0);
  return basalPresets()[0]!.values[slot]!;
}

/** Three meals a day with scripted large suppers; breakfast is skipped on every 9th day. */
export function demoMeals(start: Temporal.ZonedDateTime, rng: Rng): Meal[] {
  const meals: Meal[] = [];
  for (let day = 0; day < DEMO_DAYS; day++) {
    const date = start.toPlainDate().add({ days: day });
    const plan: [number, number, number, number][] = [
      [7 * 60 + 20, 40, 65, 75],
      [12 * 60 + 40, 50, 85, 80],
      [18 * 60 + 30, 55, 95, 90],
    ];
    plan.forEach(([minute, gLo, gHi, rise], mealIndex) => {
      if (mealIndex === 0 && day % 9 === 4) return;
      const jitter = Math.round(between(rng, -35, 35));
      const at = localTime(date, minute + jitter, start.timeZoneId);
      const grams = Math.round(between(rng, gLo, gHi));
      const big = mealIndex === 2 && (SCRIPT.highSupperDays as readonly number[]).includes(day);
      meals.push({
        day,
        at,
        grams: big ? grams + 60 : grams,
        rise: big ? 175 + between(rng, 0, 25) : rise + between(rng, -15, 25),
        extended: mealIndex === 2 && day % 2 === 0,
      });
    });
  }
  return meals;
}

/** Gamma-like meal response: 0 at t=0, peak 1 at t=tau, ~0.16 at 3 tau. */
function mealShape(minutesSince: number, tau = 55): number {
  if (minutesSince <= 0) return 0;
  const x = minutesSince / tau;
  return x * x * Math.exp(2 * (1 - x));
}

/** The instant of a wall-clock minute on a local date (DST-safe: 07:20 stays 07:20). */
function localTime(date: Temporal.PlainDate, minute: number, timeZone: string) {
  return date
    .toPlainDateTime({ hour: Math.floor(minute / 60), minute: minute % 60 })
    .toZonedDateTime(timeZone);
}

function minuteOfDay(at: Temporal.ZonedDateTime) {
  return at.hour * 60 + at.minute;
}

function inSensorGap(day: number, at: Temporal.ZonedDateTime): boolean {
  const minute = minuteOfDay(at);
  if (
    day === SCRIPT.sensorGapDay &&
    minute >= SCRIPT.sensorGap.start &&
    minute < SCRIPT.sensorGap.end
  )
    return true;
  return (
    (SCRIPT.sensorChangeDays as readonly number[]).includes(day) &&
    minute >= 8 * 60 &&
    minute < 10 * 60
  );
}

function dayIndex(start: Temporal.ZonedDateTime, at: Temporal.ZonedDateTime) {
  return start.toPlainDate().until(at.toPlainDate()).days;
}

/** 5-minute CGM readings (AiDEX: mg/dL = 1.8 x raw, so values are multiples of 1.8). */
export function demoCgm(
  start: Temporal.ZonedDateTime,
  end: Temporal.ZonedDateTime,
  meals: Meal[],
  rng: Rng,
): CgmPoint[] {
  const points: CgmPoint[] = [];
  let noise = 0;
  let index = 0;
  for (
    let at = start.add({ minutes: 2 });
    Temporal.ZonedDateTime.compare(at, end) < 0;
    at = at.add({ minutes: 5 })
  ) {
    const day = dayIndex(start, at);
    noise = 0.93 * noise + gaussian(rng) * 6;
    const minute = minuteOfDay(at);
    const dawn =
      minute >= 240 && minute < 480 ? 18 * Math.sin(((minute - 240) / 240) * Math.PI) : 0;
    let mgdl = 118 + dawn + noise;
    for (const meal of meals) {
      const since = at.epochMilliseconds - meal.at.epochMilliseconds;
      if (since > 0 && since < 6 * 3600_000) mgdl += meal.rise * mealShape(since / 60_000);
    }
    if ((SCRIPT.nightHypoDays as readonly number[]).includes(day) && minute >= 90 && minute < 270) {
      mgdl -= 72 * Math.sin(((minute - 90) / 180) * Math.PI);
    }
    index++; // indices advance through gaps too, as the device keeps counting
    if (inSensorGap(day, at)) continue;
    const raw = Math.round(Math.min(400, Math.max(40, mgdl)) / 1.8);
    const sensor = 1 + SCRIPT.sensorChangeDays.filter((d) => day >= d).length;
    points.push({ index, at, raw, mgdl: Math.round(raw * 18) / 10, sensor });
  }
  return points;
}

/** Meter checks before meals and at bedtime, close to the CGM value (meter noise ~4%). */
export function demoMeter(cgm: CgmPoint[], meals: Meal[], rng: Rng): MeterPoint[] {
  const byTime = cgm.map((p) => p.at.epochMilliseconds);
  const nearest = (ms: number) => {
    let lo = 0;
    let hi = byTime.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byTime[mid]! < ms) lo = mid + 1;
      else hi = mid;
    }
    const p = cgm[lo]!;
    return Math.abs(byTime[lo]! - ms) <= 15 * 60_000 ? p : undefined;
  };
  const checks = [
    ...meals.map((m) => m.at.subtract({ minutes: 12 })),
    ...[...new Set(meals.map((m) => m.day))].map((day) => {
      const meal = meals.find((m) => m.day === day)!;
      return localTime(meal.at.toPlainDate(), 22 * 60 + 15, meal.at.timeZoneId);
    }),
  ].sort(Temporal.ZonedDateTime.compare);
  const points: MeterPoint[] = [];
  for (const at of checks) {
    const ref = nearest(at.epochMilliseconds);
    if (!ref) continue;
    points.push({
      index: points.length + 1,
      at,
      mgdl: Math.max(20, Math.round(ref.mgdl * (1 + gaussian(rng) * 0.04))),
    });
  }
  return points;
}

/** A sparse meter history: two to three checks a day on five of the last eight days. */
export function demoSparseMeter(end: Temporal.ZonedDateTime, rng: Rng): MeterPoint[] {
  const points: MeterPoint[] = [];
  for (const back of [8, 6, 5, 3, 1]) {
    const date = end.toPlainDate().subtract({ days: back });
    for (const minute of back % 2
      ? [7 * 60 + 5, 21 * 60 + 40]
      : [7 * 60 + 30, 13 * 60, 20 * 60 + 10]) {
      const at = localTime(date, minute, end.timeZoneId);
      points.push({ index: points.length + 1, at, mgdl: Math.round(between(rng, 85, 235)) });
    }
  }
  return points;
}

/**
 * Pump history (Equil, docs/device-protocols.md): a delivery record (port 4 type 0) whenever the
 * basal or the bolus rate changes, carbohydrate entries (3/1), reservoir changes (rewind 4/8, prime
 * 4/7) and scripted alarms. Bolus amounts are the integral of the bolus rate over time.
 */
export function demoPumpEvents(
  start: Temporal.ZonedDateTime,
  end: Temporal.ZonedDateTime,
  meals: Meal[],
): PumpEvent[] {
  type Change = {
    at: Temporal.ZonedDateTime;
    bolusRaw?: number;
    basalOverride?: number | null;
    event?: Omit<PumpEvent, "at" | "battery" | "reservoir" | "basalRaw" | "bolusRaw">;
  };
  const changes: Change[] = [];
  for (let at = start; Temporal.ZonedDateTime.compare(at, end) < 0; at = at.add({ minutes: 30 }))
    changes.push({ at });

  const toRaw = (uh: number) => Math.round(uh / RAW_RATE_STEP);
  for (const meal of meals) {
    changes.push({
      at: meal.at.subtract({ minutes: 8 }),
      event: { port: 3, type: 1, urgency: 0, value: 0, carbs: meal.grams },
    });
    const units = Math.round((meal.grams / CARB_RATIO_G_PER_U) * 20) / 20;
    const now = meal.extended ? Math.round(units * 0.6 * 20) / 20 : units;
    const bolusStart = meal.at.subtract({ minutes: 5 });
    const seconds = Math.round((now / BOLUS_RATE_UH) * 3600);
    changes.push({ at: bolusStart, bolusRaw: toRaw(BOLUS_RATE_UH) });
    if (meal.extended) {
      const rest = Math.round((units - now) * 20) / 20;
      changes.push({ at: bolusStart.add({ seconds }), bolusRaw: toRaw(rest / 2) }); // the rest over 2 h
      changes.push({ at: bolusStart.add({ seconds, hours: 2 }), bolusRaw: 0 });
    } else {
      changes.push({ at: bolusStart.add({ seconds }), bolusRaw: 0 });
    }
  }
  const onDay = (day: number, hh: number, mm: number) =>
    localTime(start.toPlainDate().add({ days: day }), hh * 60 + mm, start.timeZoneId);
  for (const day of SCRIPT.reservoirChangeDays) {
    changes.push({ at: onDay(day, 9, 0), event: { port: 4, type: 8, urgency: 0, value: 0 } });
    changes.push({ at: onDay(day, 9, 4), event: { port: 4, type: 7, urgency: 0, value: 0 } });
  }
  changes.push({
    at: onDay(SCRIPT.suspendDay, 15, 0),
    basalOverride: 0,
    event: { port: 4, type: 5, urgency: 0, value: 0 },
  });
  changes.push({ at: onDay(SCRIPT.suspendDay, 16, 0), basalOverride: null });
  changes.push({
    at: onDay(SCRIPT.occlusionDay, 14, 10),
    event: { port: 4, type: 2, urgency: 2, value: 0 },
  });
  changes.push({
    at: onDay(SCRIPT.lowPowerDay, 20, 0),
    event: { port: 5, type: 0, urgency: 1, value: 0 },
  });
  changes.push({
    at: onDay(SCRIPT.lowInsulinDay, 7, 0),
    event: { port: 4, type: 1, urgency: 1, value: 0 },
  });
  changes.sort((a, b) => Temporal.ZonedDateTime.compare(a.at, b.at));

  const events: PumpEvent[] = [];
  let bolusRaw = 0;
  let override: number | null = null;
  let reservoir = 180;
  let battery = 100;
  let lastBasalRaw = -1;
  let lastBolusRaw = -1;
  let lastMs = start.epochMilliseconds;
  for (const change of changes) {
    if (
      Temporal.ZonedDateTime.compare(change.at, end) >= 0 ||
      Temporal.ZonedDateTime.compare(change.at, start) < 0
    )
      continue;
    const ms = change.at.epochMilliseconds;
    const hours = (ms - lastMs) / 3600_000;
    reservoir = Math.max(
      0,
      reservoir -
        hours * (bolusRaw * RAW_RATE_STEP + (lastBasalRaw < 0 ? 0 : lastBasalRaw * RAW_RATE_STEP)),
    );
    lastMs = ms;
    const day = dayIndex(start, change.at);
    battery = Math.max(
      5,
      100 - (day >= SCRIPT.batteryChangeDay ? day - SCRIPT.batteryChangeDay : day) * 5,
    );
    if (change.bolusRaw !== undefined) bolusRaw = change.bolusRaw;
    if (change.basalOverride !== undefined) override = change.basalOverride;
    const basalRaw = toRaw(override ?? basalAt(change.at));
    if (change.event?.port === 4 && change.event.type === 7) reservoir = 200;
    const base = { at: change.at, battery, reservoir: Math.round(reservoir), basalRaw, bolusRaw };
    if (change.event) {
      events.push({ ...base, ...change.event });
    } else if (basalRaw !== lastBasalRaw || bolusRaw !== lastBolusRaw) {
      events.push({ ...base, port: 4, type: 0, urgency: 0, value: 0 });
    }
    lastBasalRaw = basalRaw;
    lastBolusRaw = bolusRaw;
  }
  return events;
}

/** Pump events as the stored history record fields (instants as epoch ms), in order. */
export function pumpHistoryRecords(events: PumpEvent[]) {
  return events.map((e, i) => ({
    dateTime: e.at.epochMilliseconds,
    eventPort: e.port,
    eventType: e.type,
    eventUrgency: e.urgency,
    eventValue: e.value,
    basalRateRaw: e.basalRaw,
    bolusRateRaw: e.carbs ?? e.bolusRaw,
    battery: e.battery,
    reservoir: e.reservoir,
    eventIndex: i + 1,
  }));
}

const deviceClock = (at: Temporal.ZonedDateTime) =>
  at.toPlainDateTime().toString().replace("T", " ").slice(0, 19);

/**
 * The demo pump's history as the browser uploads it (device clock, raw fields, in the upload
 * calls' form); record numbers and event indexes count from `firstId` in order.
 */
export function pumpUploadRecords(events: readonly PumpEvent[], firstId = 1) {
  return events.map((e, i) =>
    pumpRecordToWire({
      recordId: firstId + i,
      eventIndex: (firstId + i) % 65_536,
      eventPort: e.port,
      eventType: e.type,
      eventUrgency: e.urgency,
      eventValue: e.value,
      battery: e.battery,
      reservoir: e.reservoir,
      basalRateRaw: e.basalRaw,
      bolusRateRaw: e.carbs ?? e.bolusRaw,
      deviceTime: deviceClock(e.at),
    }),
  );
}

/** The demo CGM's history as uploaded: raw values (mg/dL = 1.8 x raw), glucose event type 7. */
export function cgmUploadRecords(points: readonly CgmPoint[]) {
  return points.map((p) =>
    cgmRecordToWire({
      eventIndex: p.index,
      historyId: p.index,
      sensorIndex: p.sensor,
      eventType: 7,
      rawGlucose: p.raw,
      deviceTime: deviceClock(p.at),
    }),
  );
}

/** A meter's readings as uploaded, with the meter's clock set to `timeZone`. */
export function meterUploadRecords(points: readonly MeterPoint[], timeZone: string) {
  return points.map((p) =>
    meterRecordToWire({
      deviceTime: deviceClock(p.at.withTimeZone(timeZone)),
      mgdl: p.mgdl,
      flags: 0,
    }),
  );
}

/** Everything the seed writes for the rich demo patient, plus the sparse one's meter data. */
export function buildDemoData(today: Temporal.PlainDate, seed = 20261123) {
  const rng = createRng(seed);
  const { start, end } = demoWindow(today);
  const meals = demoMeals(start, rng);
  const cgm = demoCgm(start, end, meals, rng);
  const meter = demoMeter(cgm, meals, rng);
  const pump = demoPumpEvents(start, end, meals);
  const sparseMeter = demoSparseMeter(end, rng);
  return { start, end, meals, cgm, meter, pump, sparseMeter, basal: basalPresets() };
}
