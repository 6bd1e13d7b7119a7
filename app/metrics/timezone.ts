/**
 * Day boundaries in the patient's IANA time zone (temporal-polyfill).
 *
 * The UTC offsets of a zone over a time span are read once (the zone's transitions between the
 * first and the last reading, a handful at most) and then looked up per instant without calling
 * Temporal again, so day splitting of 90 days of 5-minute data costs microseconds.
 *
 * Conventions:
 * - A *local day index* is the number of days since 1970-01-01 of the local calendar date.
 * - A reading at exactly local midnight belongs to the day that starts then (R's `as.Date`).
 */
import { Temporal } from "temporal-polyfill";
import { DAY_MS } from "./types";

/** Throws a RangeError when `timeZone` is not a valid IANA zone or UTC offset. */
export function assertTimeZone(timeZone: string): void {
  Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(timeZone);
}

/** The UTC offsets of one zone over [from, to]. */
export class ZoneOffsets {
  readonly timeZone: string;
  /** Start instants (epoch ms) of each constant-offset stretch; the first is -Infinity. */
  private readonly starts: number[] = [];
  /** Offset (ms, local - UTC) of each stretch. */
  private readonly offsets: number[] = [];

  constructor(timeZone: string, fromMs: number, toMs: number) {
    this.timeZone = timeZone;
    let zdt = Temporal.Instant.fromEpochMilliseconds(Math.floor(fromMs)).toZonedDateTimeISO(
      timeZone,
    );
    this.starts.push(Number.NEGATIVE_INFINITY);
    this.offsets.push(zdt.offsetNanoseconds / 1e6);
    // A zone changes its offset at most a few times a year; the guard only stops runaway loops.
    for (let guard = 0; guard < 10_000; guard++) {
      const next = zdt.getTimeZoneTransition("next");
      if (next === null || next.epochMilliseconds > toMs) break;
      this.starts.push(next.epochMilliseconds);
      this.offsets.push(next.offsetNanoseconds / 1e6);
      zdt = next;
    }
  }

  /** True when the zone keeps one offset over the span (no DST change inside it). */
  get isFixed(): boolean {
    return this.offsets.length === 1;
  }

  /** Offset in ms (local time - UTC) at instant `ms`. */
  offsetAt(ms: number): number {
    const starts = this.starts;
    if (starts.length === 1) return this.offsets[0]!;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= ms) lo = mid;
      else hi = mid - 1;
    }
    return this.offsets[lo]!;
  }

  /** Local day index (days since 1970-01-01 of the local date) of instant `ms`. */
  localDay(ms: number): number {
    return Math.floor((ms + this.offsetAt(ms)) / DAY_MS);
  }

  /** Epoch ms of the local midnight that starts the local day containing `ms`. */
  startOfLocalDay(ms: number): number {
    return Temporal.Instant.fromEpochMilliseconds(Math.floor(ms))
      .toZonedDateTimeISO(this.timeZone)
      .startOfDay().epochMilliseconds;
  }
}

/** ISO date (YYYY-MM-DD) of a local day index. */
export function localDayToIsoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
