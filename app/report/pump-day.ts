/**
 * The DAILY (pump) page model: one local day of Equil pump history turned into a basal step line,
 * bolus events, carbohydrate entries, meter values entered on the pump, alarms and day totals.
 * The day's glucose (`glucose`: the BG entered on the pump and, when given, the meter readings)
 * is the one list every pump chart draws, the DAILY chart and the printed report's alike.
 *
 * Records (pump-records.ts): basalRateRaw = basal rate raw x 0.00625 U/h (the BG value in mg/dL
 * in BG records, port 3 type 0), bolusRateRaw = bolus rate raw x 0.00625 U/h (the grams in
 * carbohydrate records, port 3 type 1). The bolus calculator's records (port 0) carry its own
 * figures instead of rates. The records hold no bolus amounts: a bolus's units are its rate
 * integrated over time (pump-rates.ts).
 *
 * Rate timeline: every record carries the rates in force from its instant on (prisma/demo-data.ts
 * writes a port 4 type 0 record whenever a rate changes, and every other event record also
 * carries the current rates). So:
 * - the bolus rate is read from every record except carbohydrate and bolus-calculator records;
 * - the basal rate from every record except BG records (3/0), whose basalRateRaw is glucose, and
 *   bolus-calculator records;
 * - a rate holds until the next record that carries one; the last one holds to the end of the
 *   day, or to `until` (the end of the known data, e.g. "now" for today).
 */
import { type GlucoseLimits } from "../metrics/alarm";
import { isValidReading } from "../metrics/readings";
import { ZoneOffsets } from "../metrics/timezone";
import type { BgReadingInput } from "./bg-range";
import { clockOf, dayWindow, type DayWindow } from "./day";
import { carbEncodingOf, carbGrams } from "./pump-carbs";
import type {
  BolusEvent,
  BolusKind,
  CarbEntryView,
  FlaggedCalculationView,
  GlucosePointView,
  InsulinTotals,
  PumpAlarmView,
  PumpBgView,
  PumpDayInput,
  PumpDayModel,
  PumpDayTotals,
  PumpTableRow,
  RateStep,
} from "./pump-day-model";
import {
  alarmOf,
  CALCULATOR_CONFIRMED,
  CALCULATOR_SUGGESTED,
  CALCULATOR_UNIT_STEP,
  carriesBasalRate,
  carriesBolusRate,
  isBgRecord,
  isCalculatorRecord,
  isCarbRecord,
  sortedRecords,
  type PumpHistoryRecord,
} from "./pump-records";
import {
  bolusPart,
  clipStep,
  groupBoluses,
  isImmediate,
  rawRate,
  rawToUh,
  roundToStep,
  stepsOf,
  unitsOf,
  type RawStep,
} from "./pump-rates";
import { classify, roundHalfUp } from "./units";

/** Minimum length of an extended bolus on a chart, ms. */
export const MIN_EXTENSION_DISPLAY_MS = 480_000;
/** Bolus amounts are shown to this step, U (the pump's bolus increment, seed pump setting). */
export const BOLUS_DISPLAY_STEP_U = 0.05;
/** Bolus markers ("big bolus" entries) are drawn only when the day has at most this many. */
export const BIG_BOLUS_MAX_SHOWN = 25;

/**
 * Insulin totals from exact units, rounded for display: units to 0.01 U, basalPercent to 0.1 % and
 * bolusPercent = 100 - basalPercent (so they add up to 100); percents null without insulin.
 */
export function insulinTotalsOf(basal: number, bolus: number, recordCount: number): InsulinTotals {
  const insulin = basal + bolus;
  const basalPercent = insulin > 0 ? roundHalfUp((basal / insulin) * 100, 1) : null;
  return {
    total: roundHalfUp(insulin, 2),
    basal: roundHalfUp(basal, 2),
    basalPercent,
    bolus: roundHalfUp(bolus, 2),
    bolusPercent: basalPercent === null ? null : roundHalfUp(100 - basalPercent, 1),
    recordCount,
  };
}

/** Builds the DAILY page model of one local day (see the file comment and {@link PumpDayInput}). */
export function buildPumpDay(input: PumpDayInput): PumpDayModel {
  const window = dayWindow(input.date, input.timeZone);
  const dataEnd = Math.max(window.start, Math.min(window.end, input.until ?? window.end));
  const zone = new ZoneOffsets(window.timeZone, window.start - 86_400_000, window.end + 86_400_000);
  const version = input.pdaVersion ?? null;

  // All records with a finite instant, sorted (stable: instant, event index, input order).
  const all = sortedRecords([
    ...(input.previous ? [input.previous] : []),
    ...input.records,
    ...(input.next ? [input.next] : []),
  ]);
  const inDay = all.filter((r) => r.dateTime >= window.start && r.dateTime < dataEnd);
  const hasData = inDay.length > 0;

  // Basal: steps from rate-carrying records, clipped to the day.
  const basalChanges = all
    .filter(carriesBasalRate)
    .map((r) => ({ time: r.dateTime, raw: rawRate(r.basalRateRaw) }));
  const basalSteps: RateStep[] = [];
  let basalRawMs = 0;
  let rateAtStart: number | null = null;
  if (hasData) {
    for (const s of stepsOf(basalChanges, dataEnd)) {
      const c = clipStep(s, window.start, dataEnd);
      if (!c) continue;
      if (c.start === window.start) rateAtStart = rawToUh(c.raw);
      basalRawMs += c.raw * (c.end - c.start);
      basalSteps.push({ start: c.start, end: c.end, rateUh: rawToUh(c.raw) });
    }
  }

  // Boluses: steps from every record; grouped on full lengths, then clipped.
  const boluses: BolusEvent[] = [];
  let bolusRawMs = 0;
  if (hasData) {
    const bolusChanges = all
      .filter(carriesBolusRate)
      .map((r) => ({ time: r.dateTime, raw: rawRate(r.bolusRateRaw) }));
    for (const group of groupBoluses(stepsOf(bolusChanges, dataEnd))) {
      const first = group[0]!;
      const last = group[group.length - 1]!;
      if (last.end <= window.start || first.start >= dataEnd) continue;
      const immediate: RawStep[] = [];
      const extended: RawStep[] = [];
      for (const s of group) {
        const c = clipStep(s, window.start, dataEnd);
        if (!c) continue;
        (isImmediate(s) ? immediate : extended).push(c);
      }
      const clipped = [...immediate, ...extended];
      if (clipped.length === 0) continue;
      const kind: BolusKind = group.every(isImmediate)
        ? "normal"
        : group.some(isImmediate)
          ? "dual"
          : "extended";
      const imm = bolusPart(immediate);
      const ext = bolusPart(extended);
      const units = (imm?.units ?? 0) + (ext?.units ?? 0);
      for (const s of clipped) bolusRawMs += s.raw * (s.end - s.start);
      const start = clipped[0]!.start;
      const end = clipped[clipped.length - 1]!.end;
      boluses.push({
        kind,
        start,
        end,
        clock: clockOf(start, zone),
        units,
        unitsDisplay: roundToStep(units, BOLUS_DISPLAY_STEP_U),
        immediate: imm,
        extended: ext && {
          ...ext,
          displayDurationMs: Math.min(
            Math.max(ext.durationMs, MIN_EXTENSION_DISPLAY_MS),
            window.end - ext.start,
          ),
          displayEnd: Math.min(
            ext.start + Math.max(ext.durationMs, MIN_EXTENSION_DISPLAY_MS),
            window.end,
          ),
        },
        startsBeforeDay: first.start < window.start,
        // Running at midnight: a record after the day ends it, or none does (open at the day's end).
        endsAfterDay: last.end > window.end || (last.open && last.end >= window.end),
        open: last.open,
        steps: clipped.map((s) => ({ start: s.start, end: s.end, rateUh: rawToUh(s.raw) })),
      });
    }
  }

  // Carbohydrate, BG and alarms from the day's records.
  const carbs: CarbEntryView[] = [];
  const bg: PumpBgView[] = [];
  const alarms: PumpAlarmView[] = [];
  for (const r of inDay) {
    const clock = clockOf(r.dateTime, zone);
    const id = r.id === undefined ? {} : { id: r.id };
    if (isCarbRecord(r)) {
      const v = carbGrams(r.bolusRateRaw, version);
      if (!(v.grams > 0)) continue;
      carbs.push({
        time: r.dateTime,
        clock,
        grams: v.grams,
        raw: r.bolusRateRaw,
        source: r.eventPort === 3 ? "pump" : "calculator",
        byVersion: v.byVersion,
        byLimit: v.byLimit,
        flagged: r.flagged === true,
        ...id,
      });
    } else if (isBgRecord(r)) {
      if (!(r.basalRateRaw > 0)) continue;
      bg.push({
        time: r.dateTime,
        clock,
        mgdl: r.basalRateRaw,
        class: input.limits ? classify(r.basalRateRaw, input.limits) : null,
        ...id,
      });
    } else {
      const a = alarmOf(r);
      if (a)
        alarms.push({
          time: r.dateTime,
          clock,
          ...a,
          code: `${r.eventPort}/${r.eventType}/${r.eventUrgency}`,
          ...id,
        });
    }
  }
  const glucose = glucoseOf(bg, input.meterReadings ?? [], window, zone, input.limits);
  const dedupedCarbs = dedupeCarbs(carbs);
  const flaggedCalculations = flaggedCalculationsOf(inDay, zone);

  const basal = unitsOf(basalRawMs);
  const bolus = unitsOf(bolusRawMs);
  const insulin = basal + bolus;
  const carbTotal = dedupedCarbs.reduce((s, c) => s + c.grams, 0);
  const totals: PumpDayTotals = {
    insulin,
    basal,
    bolus,
    basalPercent: insulin > 0 ? (basal / insulin) * 100 : null,
    bolusPercent: insulin > 0 ? (bolus / insulin) * 100 : null,
    carbs: carbTotal,
    bolusCount: boluses.length,
    carbCount: dedupedCarbs.length,
  };

  const lastRecord = inDay[inDay.length - 1];
  const table: PumpTableRow[] = [
    ...basalSteps.map((s) => ({
      kind: "basal" as const,
      time: s.start,
      clock: clockOf(s.start, zone),
      rateUh: s.rateUh,
    })),
    ...boluses.map((b) => ({ kind: "bolus" as const, time: b.start, clock: b.clock, bolus: b })),
    ...dedupedCarbs.map((c) => ({
      kind: "carbs" as const,
      time: c.time,
      clock: c.clock,
      carbs: c,
    })),
    ...flaggedCalculations.map((c) => ({
      kind: "check" as const,
      time: c.time,
      clock: c.clock,
      check: c,
    })),
    ...glucose.map((b) => ({ kind: "bg" as const, time: b.time, clock: b.clock, bg: b })),
    ...alarms.map((a) => ({ kind: "alarm" as const, time: a.time, clock: a.clock, alarm: a })),
  ].sort((a, b) => a.time - b.time || ROW_ORDER[a.kind] - ROW_ORDER[b.kind]);

  return {
    window,
    dataEnd,
    hasData,
    pdaVersion: version,
    carbEncoding: carbEncodingOf(version),
    basal: { steps: basalSteps, units: basal, rateAtStart },
    boluses,
    showBolusMarkers: boluses.length <= BIG_BOLUS_MAX_SHOWN,
    carbs: dedupedCarbs,
    flaggedCalculations,
    bg,
    glucose,
    alarms,
    totals,
    insulinTotals: insulinTotalsOf(basal, bolus, inDay.length),
    device: lastRecord
      ? {
          time: lastRecord.dateTime,
          battery: lastRecord.battery,
          reservoir: lastRecord.reservoir,
        }
      : null,
    table,
  };
}

/**
 * The pump's BG entries and the valid meter readings inside the day window, classed against the
 * limits, in time order; at one instant the pump's entries come first, then the readings in
 * their given order.
 */
function glucoseOf(
  bg: readonly PumpBgView[],
  readings: readonly BgReadingInput[],
  window: DayWindow,
  zone: ZoneOffsets,
  limits: GlucoseLimits | undefined,
): GlucosePointView[] {
  const meter: GlucosePointView[] = [];
  for (const r of readings) {
    if (!isValidReading(r.time, r.mgdl) || r.time < window.start || r.time >= window.end) continue;
    meter.push({
      time: r.time,
      clock: clockOf(r.time, zone),
      mgdl: r.mgdl,
      class: limits ? classify(r.mgdl, limits) : null,
      source: "meter",
      ...(r.id === undefined ? {} : { id: r.id }),
    });
  }
  meter.sort((a, b) => a.time - b.time);
  const pump = bg.map((b) => ({ ...b, source: "pump" as const }));
  return [...pump, ...meter].sort(
    (a, b) => a.time - b.time || (a.source === b.source ? 0 : a.source === "pump" ? -1 : 1),
  );
}

/** Rows of one instant in the order the pump logs them: a calculation's BG and carbohydrate, its result, then the bolus. */
const ROW_ORDER = { alarm: 0, basal: 1, bg: 2, carbs: 3, check: 4, bolus: 5 } as const;

/**
 * The flagged bolus calculations among a day's records (sorted): a run is flagged calculator
 * records in rising type order, one after the other; any other record ends it.
 */
function flaggedCalculationsOf(
  records: readonly PumpHistoryRecord[],
  zone: ZoneOffsets,
): FlaggedCalculationView[] {
  const out: FlaggedCalculationView[] = [];
  let run: PumpHistoryRecord[] = [];
  const close = () => {
    if (run.length > 0) out.push(calculationOf(run, zone));
    run = [];
  };
  for (const r of records) {
    const member = isCalculatorRecord(r) && r.flagged === true;
    const last = run[run.length - 1];
    if (!member || (last && r.eventType <= last.eventType)) close();
    if (member) run.push(r);
  }
  close();
  return out;
}

function calculationOf(
  run: readonly PumpHistoryRecord[],
  zone: ZoneOffsets,
): FlaggedCalculationView {
  const units = (type: number) => {
    const r = run.find((x) => x.eventType === type);
    return r ? roundHalfUp(r.bolusRateRaw * CALCULATOR_UNIT_STEP, 2) : null;
  };
  const suggestedU = units(CALCULATOR_SUGGESTED);
  const confirmedU = units(CALCULATOR_CONFIRMED);
  const first = run[0]!;
  return {
    time: first.dateTime,
    clock: clockOf(first.dateTime, zone),
    suggestedU,
    confirmedU,
    differenceU:
      suggestedU === null || confirmedU === null
        ? null
        : roundHalfUp(Math.abs(confirmedU - suggestedU), 2),
    ...(first.id === undefined ? {} : { id: first.id }),
  };
}

/** Window within which a calculator (0/5) and a pump (3/1) entry of equal grams are one meal. */
export const CARB_DUPLICATE_MS = 60_000;

/**
 * A meal entered through the bolus calculator may be logged both as 0/5 and as 3/1 (both are
 * carbohydrate events). Decision: a calculator entry with the same grams as a pump
 * entry within 60 s is the same meal and is dropped (the 3/1 entry is kept); entries of one
 * source are never merged.
 */
function dedupeCarbs(carbs: readonly CarbEntryView[]): CarbEntryView[] {
  const pump = carbs.filter((c) => c.source === "pump");
  return carbs.filter(
    (c) =>
      c.source === "pump" ||
      !pump.some((p) => p.grams === c.grams && Math.abs(p.time - c.time) <= CARB_DUPLICATE_MS),
  );
}
