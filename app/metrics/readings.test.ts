import { describe, expect, it } from "vitest";
import { normalizeReadings } from "./readings";

const T = Date.UTC(2024, 0, 1);
const M = 60_000;

describe("normalizeReadings", () => {
  it("keeps clean input as is (fast path)", () => {
    const { series, report } = normalizeReadings([
      { time: T, mgdl: 100 },
      { time: T + 5 * M, mgdl: 110 },
    ]);
    expect(Array.from(series.time)).toEqual([T, T + 5 * M]);
    expect(Array.from(series.mgdl)).toEqual([100, 110]);
    expect(report).toEqual({ input: 2, droppedInvalid: 0, mergedDuplicates: 0, wasClean: true });
  });

  it("drops non-finite, zero, negative and sub-1 mg/dL glucose and non-finite times", () => {
    const { series, report } = normalizeReadings([
      { time: T, mgdl: 100 },
      { time: T + 1 * M, mgdl: Number.NaN },
      { time: T + 2 * M, mgdl: Number.POSITIVE_INFINITY },
      { time: T + 3 * M, mgdl: 0 },
      { time: T + 4 * M, mgdl: -20 },
      { time: T + 5 * M, mgdl: 0.5 },
      { time: Number.NaN, mgdl: 120 },
      { time: Number.POSITIVE_INFINITY, mgdl: 120 },
      { time: T + 6 * M, mgdl: 1 },
    ]);
    expect(Array.from(series.mgdl)).toEqual([100, 1]);
    expect(report.droppedInvalid).toBe(7);
    expect(report.wasClean).toBe(true);
  });

  it("sorts by time", () => {
    const { series, report } = normalizeReadings([
      { time: T + 10 * M, mgdl: 130 },
      { time: T, mgdl: 100 },
      { time: T + 5 * M, mgdl: 110 },
    ]);
    expect(Array.from(series.time)).toEqual([T, T + 5 * M, T + 10 * M]);
    expect(Array.from(series.mgdl)).toEqual([100, 110, 130]);
    expect(report.wasClean).toBe(false);
    expect(report.mergedDuplicates).toBe(0);
  });

  it("merges readings with the same time into their mean", () => {
    const { series, report } = normalizeReadings([
      { time: T, mgdl: 100 },
      { time: T + 5 * M, mgdl: 110 },
      { time: T + 5 * M, mgdl: 130 },
      { time: T + 5 * M, mgdl: 150 },
      { time: T + 10 * M, mgdl: 90 },
    ]);
    expect(Array.from(series.time)).toEqual([T, T + 5 * M, T + 10 * M]);
    expect(Array.from(series.mgdl)).toEqual([100, 130, 90]);
    expect(series.length).toBe(3);
    expect(report.mergedDuplicates).toBe(2);
  });

  it("gives the same series whatever the input order", () => {
    const base = [
      { time: T + 15 * M, mgdl: 0.1 + 0.2 },
      { time: T, mgdl: 101.3 },
      { time: T + 5 * M, mgdl: 97.1 },
      { time: T + 5 * M, mgdl: 0.3 },
      { time: T + 5 * M, mgdl: 1e3 / 3 },
      { time: T + 10 * M, mgdl: Number.NaN },
      { time: T + 20 * M, mgdl: 140 },
    ];
    const a = normalizeReadings(base).series;
    const b = normalizeReadings([...base].reverse()).series;
    const c = normalizeReadings([
      base[3]!,
      base[6]!,
      base[0]!,
      base[4]!,
      base[1]!,
      base[5]!,
      base[2]!,
    ]).series;
    for (const s of [b, c]) {
      expect(Array.from(s.time)).toEqual(Array.from(a.time));
      expect(Array.from(s.mgdl)).toEqual(Array.from(a.mgdl));
    }
    // 0.3 is invalid (< 1 mg/dL) and 0.1 + 0.2 too; the two valid readings at +5 min average.
    expect(Array.from(a.mgdl)).toEqual([101.3, (97.1 + 1e3 / 3) / 2, 140]);
  });

  it("handles empty input", () => {
    const { series, report } = normalizeReadings([]);
    expect(series.length).toBe(0);
    expect(report).toEqual({ input: 0, droppedInvalid: 0, mergedDuplicates: 0, wasClean: true });
  });
});
