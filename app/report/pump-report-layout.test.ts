import { describe, expect, it } from "vitest";
import { datesBetween, dayWindow } from "./day";
import {
  chartGroups,
  multiDayTickStepMs,
  multiDayTicks,
  paginateRows,
  REPORT_TABLE_MAX_ROWS,
} from "./pump-report-layout";

const H = 3_600_000;

describe("layout helpers", () => {
  it("REPORT_TABLE_MAX_ROWS is 12 and tables hold at most 12 rows, in order", () => {
    expect(REPORT_TABLE_MAX_ROWS).toBe(12);
    const rows = Array.from({ length: 25 }, (_, i) => i);
    const tables = paginateRows(rows);
    expect(tables.map((t) => t.length)).toEqual([12, 12, 1]);
    expect(tables.flat()).toEqual(rows);
    expect(paginateRows(rows.slice(0, 12))).toHaveLength(1);
    expect(paginateRows([])).toEqual([]);
    expect(() => paginateRows(rows, 0)).toThrow(RangeError);
  });

  it("chartGroups splits days into groups of 5", () => {
    const days = datesBetween("2026-06-01", "2026-06-11");
    const groups = chartGroups(days, 5);
    expect(groups.map((g) => g.length)).toEqual([5, 5, 1]);
    expect(groups[1]![0]).toBe("2026-06-06");
    expect(chartGroups(days.slice(0, 5))).toHaveLength(1);
    expect(chartGroups([])).toEqual([]);
  });

  it("a 6-day chart ticks every 144e5 ms (4 h); other counts follow the documented rule", () => {
    expect(multiDayTickStepMs(6)).toBe(144e5);
    const hours = (d: number) => multiDayTickStepMs(d) / H;
    expect([1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 18, 19, 36, 37].map(hours)).toEqual([
      3, 3, 3, 3, 4, 4, 6, 6, 8, 8, 12, 12, 24, 24, 48,
    ]);
    for (let d = 1; d <= 90; d++) {
      expect((d * 24) / hours(d)).toBeLessThanOrEqual(36); // never more than 36 ticks
      expect(hours(d) >= 24 ? hours(d) % 24 : 24 % hours(d)).toBe(0); // same clock times every day
    }
    expect(() => multiDayTickStepMs(0)).toThrow(RangeError);
  });

  it("multi-day ticks are local wall-clock hours, DST-safe (Warsaw, 25-h day inside)", () => {
    const windows = datesBetween("2026-10-23", "2026-10-28").map((d) =>
      dayWindow(d, "Europe/Warsaw"),
    );
    const ticks = multiDayTicks(windows, multiDayTickStepMs(6));
    expect(ticks).toHaveLength(36);
    expect(ticks.slice(0, 6).map((t) => t.label)).toEqual([
      "00:00",
      "04:00",
      "08:00",
      "12:00",
      "16:00",
      "20:00",
    ]);
    const oct25 = windows[2]!;
    const onDst = ticks.filter((t) => t.time >= oct25.start && t.time < oct25.end);
    expect(onDst.map((t) => t.time - oct25.start)).toEqual([
      0,
      5 * H,
      9 * H,
      13 * H,
      17 * H,
      21 * H,
    ]); // 04:00 is 5 h after midnight
    expect(multiDayTicks(windows, 48 * H).map((t) => t.time)).toEqual([
      windows[0]!.start,
      windows[2]!.start,
      windows[4]!.start,
    ]);
  });
});
