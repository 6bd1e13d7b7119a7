import { describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { agp } from "./agp";
import { createContext } from "./context";
import { ctxOf, MIN } from "./test-utils";
import type { Reading } from "./types";

/** `days` days of 5-minute readings from 00:05 UTC on 2024-01-01; day d reads 100 + 10 d. */
function stackedDays(days: number): number[] {
  const values: number[] = [];
  for (let d = 0; d < days; d++) for (let c = 0; c < 288; c++) values.push(100 + 10 * d);
  return values;
}

describe("AGP", () => {
  it("type-7 percentiles of each time-of-day column over the days", () => {
    const ctx = ctxOf(stackedDays(5), { start: Date.UTC(2024, 0, 1, 0, 5) });
    const r = agp(ctx);
    expect(r.sufficient).toBe(true);
    const a = r.value!;
    expect(a.timeOfDayMin.length).toBe(288);
    expect(a.timeOfDayMin[0]).toBe(5);
    expect(a.timeOfDayMin[287]).toBe(1440);
    // Column values 100, 110, 120, 130, 140: p5 at position 1.2 -> 102, p95 at 4.8 -> 138.
    for (const c of [0, 143, 287]) {
      expect(a.p5[c]).toBeCloseTo(102, 12);
      expect(a.p25[c]).toBe(110);
      expect(a.p50[c]).toBe(120);
      expect(a.p75[c]).toBe(130);
      expect(a.p95[c]).toBeCloseTo(138, 12);
      expect(a.count[c]).toBe(5);
    }
  });

  it("needs 5 full days", () => {
    const r = agp(ctxOf(stackedDays(4), { start: Date.UTC(2024, 0, 1, 0, 5) }));
    expect(r.value).not.toBeNull();
    expect(r.sufficient).toBe(false);
    expect(agp(ctxOf([]))).toEqual({ value: null, sufficient: false });
    // Readings 1 h apart, off the 5-minute grid: every grid point is inside a gap, no AGP at all.
    expect(
      agp(ctxOf([100, 120, 140], { stepMin: 60, start: Date.UTC(2024, 0, 1, 0, 2) })).value,
    ).toBeNull();
  });

  it("columns follow local clock time across a DST change (Europe/Warsaw)", () => {
    // 28 March - 3 April 2024 (DST starts 31 March): 100 mg/dL, except 200 at 12:00 local.
    const zone = "Europe/Warsaw";
    const start = Temporal.ZonedDateTime.from({
      year: 2024,
      month: 3,
      day: 28,
      timeZone: zone,
    }).epochMilliseconds;
    const end = Temporal.ZonedDateTime.from({
      year: 2024,
      month: 4,
      day: 4,
      timeZone: zone,
    }).epochMilliseconds;
    const readings: Reading[] = [];
    for (let t = start + 5 * MIN; t <= end; t += 5 * MIN) {
      const local = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone);
      readings.push({ time: t, mgdl: local.hour === 12 && local.minute === 0 ? 200 : 100 });
    }
    const local = agp(createContext(readings, { timeZone: zone })).value!;
    expect(local.p5[143]).toBe(200); // 12:00 column: 200 on all 7 days
    expect(local.p95[142]).toBe(100);
    expect(local.count[143]).toBe(7);
    // On the short day the 02:00-03:00 columns get no value: 6 values instead of 7.
    expect(local.count[24]).toBe(6); // 02:05
    expect(local.count[0]).toBe(7);
    // Read in UTC the spike moves from 11:00Z to 10:00Z after the change: no column is all 200.
    const utc = agp(createContext(readings, { timeZone: "UTC" })).value!;
    expect(Math.max(...utc.p5.map((v) => v ?? 0))).toBe(100);
  });
});
