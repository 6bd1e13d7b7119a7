import type { BolusPart } from "./pump-day-model";
import { roundHalfUp } from "./units";

/**
 * Rate timelines of the pump history: constant-rate steps between the records that carry a rate
 * (each rate holds until the next record that carries one), their exact integrals (raw steps x
 * milliseconds are integers, < 2^53 for any day, converted to units once: U = sum(raw x ms) x
 * 0.00625 / 3 600 000), and the rule that groups bolus steps into normal, extended and dual
 * boluses.
 */

/** Raw steps per U/h (1 / 0.00625): dividing by it gives correctly rounded rates (136 -> 0.85). */
const RAW_PER_UH = 160;
/** A constant-rate bolus stretch shorter than this is an immediate (normal) part. */
export const EXTENDED_MIN_MS = 30 * 60_000;
/** A bolus stretch at this rate or faster is an immediate part whatever its length, U/h. */
export const FAST_BOLUS_MIN_UH = 30;

const HOUR_MS = 3_600_000;

/** A stretch of one raw rate (steps of 0.00625 U/h) on the timeline. */
export interface RawStep {
  start: number;
  end: number;
  raw: number;
  /** true when no record ends this step (it runs to the end of the known data). */
  open: boolean;
}

/** A record's raw rate as a whole number of steps; anything not a positive number is 0. */
export function rawRate(x: number): number {
  return Number.isFinite(x) && x > 0 ? Math.round(x) : 0;
}

/**
 * Constant-rate steps from rate changes sorted by time: change i holds until change i+1, the last
 * until `horizon` (when it starts before it). Zero-length steps are skipped and equal neighbours
 * merged.
 */
export function stepsOf(
  changes: readonly { time: number; raw: number }[],
  horizon: number,
): RawStep[] {
  const out: RawStep[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const last = i === changes.length - 1;
    const end = last ? Math.max(c.time, horizon) : changes[i + 1]!.time;
    if (end <= c.time) continue;
    const prev = out[out.length - 1];
    if (prev && prev.end === c.time && prev.raw === c.raw) {
      prev.end = end;
      prev.open = last;
    } else {
      out.push({ start: c.time, end, raw: c.raw, open: last });
    }
  }
  return out;
}

/** Units of raw x ms (one correctly rounded division of an exact integer). */
export function unitsOf(rawMs: number): number {
  return rawMs / (RAW_PER_UH * HOUR_MS);
}

/** U/h of a raw rate. */
export function rawToUh(raw: number): number {
  return raw / RAW_PER_UH;
}

/** The part of a step inside [from, to), or null. */
export function clipStep(s: RawStep, from: number, to: number): RawStep | null {
  const start = Math.max(s.start, from);
  const end = Math.min(s.end, to);
  return end > start ? { start, end, raw: s.raw, open: s.open } : null;
}

/**
 * Immediate part: shorter than 30 min, or at 30 U/h or more (see {@link groupBoluses}). A step
 * still running at the end of the known data has no known length: only its rate decides.
 */
export function isImmediate(s: RawStep): boolean {
  return rawToUh(s.raw) >= FAST_BOLUS_MIN_UH || (!s.open && s.end - s.start < EXTENDED_MIN_MS);
}

/**
 * Groups the non-zero bolus steps into bolus events (our rule; the records name no kinds):
 * - a run of consecutive non-zero steps is a bolus;
 * - each step is "immediate" when it lasts < 30 min or runs at >= 30 U/h (a normal bolus is
 *   delivered fast; the demo pump uses 60 U/h), otherwise "extended" (a low rate over a longer
 *   time, like the demo's 2 h extended boluses);
 * - a run is split where an extended step is followed by an immediate one (a normal bolus given
 *   while an extended one runs starts a new event);
 * - kind: only immediate steps = normal; only extended = extended; immediate then extended =
 *   dual (double) wave.
 * Step lengths are the full lengths known from the records (also outside the day), so a bolus
 * split at midnight keeps its kind; pass `next` so that a bolus running at midnight has a known
 * end (without it, its last step is judged by its rate only).
 */
export function groupBoluses(steps: readonly RawStep[]): RawStep[][] {
  const groups: RawStep[][] = [];
  let current: RawStep[] = [];
  for (const s of steps) {
    if (s.raw === 0) {
      if (current.length) groups.push(current);
      current = [];
      continue;
    }
    const prev = current[current.length - 1];
    if (prev && (prev.end !== s.start || (!isImmediate(prev) && isImmediate(s)))) {
      groups.push(current);
      current = [];
    }
    current.push(s);
  }
  if (current.length) groups.push(current);
  return groups;
}

/** The units, length and mean rate of consecutive steps (an immediate or an extended part), or null. */
export function bolusPart(steps: readonly RawStep[]): BolusPart | null {
  if (steps.length === 0) return null;
  const start = steps[0]!.start;
  const end = steps[steps.length - 1]!.end;
  let rawMs = 0;
  for (const s of steps) rawMs += s.raw * (s.end - s.start);
  const units = unitsOf(rawMs);
  return { start, end, durationMs: end - start, units, rateUh: units / ((end - start) / HOUR_MS) };
}

/** Rounds to a step (0.05 U) after removing binary noise. */
export function roundToStep(x: number, step: number): number {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  return roundHalfUp(Math.round(Number((x / step).toPrecision(12))) * step, decimals);
}
