import { describe, expect, it } from "vitest";
import { buildGrid } from "./grid";
import { normalizeReadings } from "./readings";
import { ZoneOffsets } from "./timezone";
import type { Reading } from "./types";

const M = 60_000;
const D0 = Date.UTC(2024, 0, 1);

function gridOf(readings: Reading[], timeZone = "UTC") {
  const { series } = normalizeReadings(readings);
  const zone = new ZoneOffsets(timeZone, series.time[0]!, series.time[series.length - 1]!);
  return buildGrid(series, zone);
}

describe("buildGrid (iglu CGMS2DayByDay)", () => {
  it("starts at local midnight; the first point is 00:05; points on readings take their value", () => {
    const g = gridOf([
      { time: D0, mgdl: 100 },
      { time: D0 + 10 * M, mgdl: 120 },
    ]);
    expect(g.start).toBe(D0);
    expect(g.length).toBe(2);
    expect(Array.from(g.values)).toEqual([110, 120]);
    expect(Array.from(g.column)).toEqual([0, 1]);
  });

  it("interpolates linearly between readings that are not on the grid, NaN before the first", () => {
    // Readings at 00:03 (100) and 00:18 (130): 00:05 -> 104, 00:10 -> 114, 00:15 -> 124.
    const g = gridOf([
      { time: D0 + 3 * M, mgdl: 100 },
      { time: D0 + 18 * M, mgdl: 130 },
    ]);
    expect(g.length).toBe(3);
    expect(g.values[0]).toBeCloseTo(104, 12);
    expect(g.values[1]).toBeCloseTo(114, 12);
    expect(g.values[2]).toBeCloseTo(124, 12);
    const late = gridOf([
      { time: D0 + 7 * M, mgdl: 100 },
      { time: D0 + 12 * M, mgdl: 110 },
    ]);
    expect(Number.isNaN(late.values[0]!)).toBe(true); // 00:05 is before the first reading
    expect(late.values[1]).toBeCloseTo(106, 12);
  });

  it("leaves points strictly inside gaps over 45 min empty; 45 min exactly is interpolated", () => {
    const gap = gridOf([
      { time: D0, mgdl: 100 },
      { time: D0 + 50 * M, mgdl: 150 },
    ]);
    expect(gap.length).toBe(10);
    expect(Array.from(gap.values.subarray(0, 9)).every(Number.isNaN)).toBe(true);
    expect(gap.values[9]).toBe(150);
    const ok = gridOf([
      { time: D0, mgdl: 100 },
      { time: D0 + 45 * M, mgdl: 145 },
    ]);
    expect(Array.from(ok.values)).toEqual([105, 110, 115, 120, 125, 130, 135, 140, 145]);
  });

  it("puts 24:00 in the last column of the day that ends then", () => {
    const g = gridOf([
      { time: D0 + 23 * 60 * M, mgdl: 100 },
      { time: D0 + 24 * 60 * M + 10 * M, mgdl: 100 },
    ]);
    // Point k (0-based) is at (k + 1) * 5 min; 24:00 is k = 287.
    expect(g.column[287]).toBe(287);
    expect(g.day[287]).toBe(g.day[0]);
    expect(g.column[288]).toBe(0);
    expect(g.day[288]).toBe(g.day[0]! + 1);
  });

  it("uses local midnight and local time-of-day columns across a DST change (Europe/Warsaw)", () => {
    // First reading 2024-03-30T23:10Z = 00:10 local on 31 March (CET, +01:00).
    const first = Date.UTC(2024, 2, 30, 23, 10);
    const readings: Reading[] = [];
    for (let t = first; t <= first + 6 * 60 * M; t += 5 * M) readings.push({ time: t, mgdl: 100 });
    const g = gridOf(readings, "Europe/Warsaw");
    expect(g.start).toBe(Date.UTC(2024, 2, 30, 23));
    const at = (iso: string) => (Date.parse(iso) - g.start) / (5 * M) - 1;
    // 00:55Z = 01:55 CET -> column of 01:55 (115 min -> 22); 01:05Z = 03:05 CEST -> 185 min -> 36.
    expect(g.column[at("2024-03-31T00:55:00Z")]).toBe(22);
    expect(g.column[at("2024-03-31T01:00:00Z")]).toBe(35);
    expect(g.column[at("2024-03-31T01:05:00Z")]).toBe(36);
    // Grid points stay 5 minutes apart in absolute time.
    expect(at("2024-03-31T01:05:00Z") - at("2024-03-31T00:55:00Z")).toBe(2);
  });

  it("is empty without readings", () => {
    const { series } = normalizeReadings([]);
    const g = buildGrid(series, new ZoneOffsets("UTC", 0, 0));
    expect(g.length).toBe(0);
  });
});
