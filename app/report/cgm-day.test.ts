import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { computeAll } from "../metrics/index";
import type { Reading } from "../metrics/types";
import { buildCgmDay, buildCgmOverlay, CGM_LINE_GAP_MS, OVERLAY_DAYS } from "./cgm-day";

const MIN = 60_000;
const H = 3_600_000;
const WAW = "Europe/Warsaw";
const limits = { low: 70, high: 180 };

/** Readings every 5 min from `start` (epoch ms) for `count` readings, value f(i). */
function every5(start: number, count: number, f: (i: number) => number = () => 120): Reading[] {
  return Array.from({ length: count }, (_, i) => ({ time: start + i * 5 * MIN, mgdl: f(i) }));
}

describe("buildCgmDay", () => {
  const day = Date.UTC(2026, 5, 15);
  const dayReadings: Reading[] = [
    { time: day, mgdl: 50 },
    { time: day + 5 * MIN, mgdl: 60 },
    { time: day + 10 * MIN, mgdl: 100 },
    { time: day + 1 * H, mgdl: 190 }, // 50 min gap: a new line segment
    { time: day + 1 * H + 5 * MIN, mgdl: 260 },
    { time: day + 20 * H, mgdl: 165 },
    { time: day + 20 * H + 5 * MIN, mgdl: 175 },
    { time: day + 20 * H + 10 * MIN, mgdl: 185 },
    { time: day + 20 * H + 15 * MIN, mgdl: 195 },
  ];
  const others: Reading[] = [
    { time: day - 6 * H, mgdl: 300 },
    { time: day + 24 * H, mgdl: 40 }, // next midnight belongs to the next day
  ];
  const m = buildCgmDay({
    date: "2026-06-15",
    timeZone: "UTC",
    readings: [...others, ...dayReadings].reverse(),
    limits,
  });

  it("trace points of the day only, with class and line segment", () => {
    expect(m.hasData).toBe(true);
    expect(m.points.map((p) => [p.mgdl, p.class, p.segment])).toEqual([
      [50, "veryLow", 0],
      [60, "low", 0],
      [100, "inRange", 0],
      [190, "high", 1],
      [260, "veryHigh", 1],
      [165, "inRange", 2],
      [175, "inRange", 2],
      [185, "high", 2],
      [195, "high", 2],
    ]);
    expect(CGM_LINE_GAP_MS).toBe(15 * MIN);
    expect(m.targetBand).toEqual(limits);
    expect(m.ticks).toHaveLength(8);
  });

  it("latest reading, trend arrow (2 mg/dL/min = 0.111 mmol/L/min: rising) and alarm class", () => {
    expect(m.latest).toEqual({
      time: day + 20 * H + 15 * MIN,
      clock: "20:15",
      mgdl: 195,
      class: "high",
    });
    expect(m.trend!.level).toBe("rising");
    expect(m.trend!.mgdlPerMin).toBeCloseTo(2, 12);
    expect(m.trend!.readings).toBe(4);
    expect(m.alarm).toBe("high");
  });

  it("percent in ranges and the goal split", () => {
    expect(m.timeInRanges!.below54).toBeCloseTo(100 / 9, 12);
    expect(m.timeInRanges!.below70).toBeCloseTo(200 / 9, 12);
    expect(m.timeInRanges!.range70to180).toBeCloseTo(300 / 9, 12);
    expect(m.timeInRanges!.above180).toBeCloseTo(400 / 9, 12);
    expect(m.timeInRanges!.above250).toBeCloseTo(100 / 9, 12);
    expect(m.goal).toMatchObject({ below: 2, within: 3, above: 4 });
    expect(m.goal!.withinPercent).toBeCloseTo(300 / 9, 12);
  });

  it("the CGM report summary: count, average, highest and lowest with their times", () => {
    expect(m.summary!.readingCount).toBe(9);
    expect(m.summary!.mean).toBeCloseTo(1380 / 9, 12);
    expect(m.summary!.highest).toEqual({ time: day + 1 * H + 5 * MIN, clock: "01:05", mgdl: 260 });
    expect(m.summary!.lowest).toEqual({ time: day, clock: "00:00", mgdl: 50 });
  });

  it("agrees with app/metrics computeAll on the same day's readings", () => {
    const all = computeAll(dayReadings, { timeZone: "UTC", limits });
    expect(m.timeInRanges).toEqual(all.timeInRanges.value);
    expect(m.trend).toEqual(all.trend.value);
    expect(m.alarm).toBe(all.alarm.value);
    expect(m.summary!.mean).toBeCloseTo(all.mean.value!, 12);
  });

  it("the trend just after midnight uses the evening's readings", () => {
    const r = [
      { time: day - 10 * MIN, mgdl: 100 },
      { time: day - 5 * MIN, mgdl: 95 },
      { time: day, mgdl: 90 },
      { time: day + 5 * MIN, mgdl: 85 },
    ];
    const d = buildCgmDay({ date: "2026-06-15", timeZone: "UTC", readings: r, limits });
    expect(d.points).toHaveLength(2);
    expect(d.trend!.level).toBe("steady"); // -1 mg/dL/min = -0.056 mmol/L/min
    expect(d.trend!.mgdlPerMin).toBeCloseTo(-1, 12);
    const onlyDay = buildCgmDay({
      date: "2026-06-15",
      timeZone: "UTC",
      readings: r.slice(2),
      limits,
    });
    expect(onlyDay.trend).toBeNull();
  });

  it("an empty day", () => {
    const e = buildCgmDay({ date: "2026-06-16", timeZone: "UTC", readings: dayReadings, limits });
    expect(e).toMatchObject({
      hasData: false,
      points: [],
      latest: null,
      trend: null,
      alarm: null,
      timeInRanges: null,
      goal: null,
      summary: null,
    });
    expect(e.ticks).toHaveLength(8);
  });

  it("DST days: 276 readings on the 23 h day, 300 on the 25 h day", () => {
    const spring = Temporal.ZonedDateTime.from("2026-03-29T00:00[Europe/Warsaw]").epochMilliseconds;
    const autumn = Temporal.ZonedDateTime.from("2026-10-25T00:00[Europe/Warsaw]").epochMilliseconds;
    const s = buildCgmDay({
      date: "2026-03-29",
      timeZone: WAW,
      readings: every5(spring - H, 400),
      limits,
    });
    const a = buildCgmDay({
      date: "2026-10-25",
      timeZone: WAW,
      readings: every5(autumn - H, 400),
      limits,
    });
    expect(s.points).toHaveLength(23 * 12);
    expect(a.points).toHaveLength(25 * 12);
    expect(a.points[0]!.time).toBe(autumn);
    expect(a.summary!.lowest.clock).toBe("00:00");
    expect(a.points.every((p) => p.segment === 0)).toBe(true);
  });
});

describe("buildCgmOverlay", () => {
  const start = Temporal.ZonedDateTime.from("2026-10-12T00:00[Europe/Warsaw]").epochMilliseconds;
  const end = Temporal.ZonedDateTime.from("2026-10-26T00:00[Europe/Warsaw]").epochMilliseconds;
  const readings = every5(start - 2 * H, (end - start) / (5 * MIN) + 48, (i) => 100 + (i % 50));
  const o = buildCgmOverlay({ endDate: "2026-10-25", timeZone: WAW, readings, limits });

  it("14 local days ending the chosen day, oldest first", () => {
    expect(OVERLAY_DAYS).toBe(14);
    expect(o.from).toBe("2026-10-12");
    expect(o.to).toBe("2026-10-25");
    expect(o.days.map((d) => d.date)).toEqual(
      Array.from({ length: 14 }, (_, i) => `2026-10-${String(12 + i).padStart(2, "0")}`),
    );
    expect(o.days.map((d) => d.index)).toEqual([...Array(14).keys()]);
    expect(o.days.slice(0, 13).every((d) => d.points.length === 288)).toBe(true);
    expect(o.days[13]!.points).toHaveLength(300); // the 25 h day
    expect(o.hasData).toBe(true);
    expect(o.minuteDomain).toEqual([0, 1440]);
  });

  it("minutes after local midnight on the wall clock: 07:00 is 420 on every day, the DST day too", () => {
    for (const d of o.days) {
      const seven = Temporal.ZonedDateTime.from(`${d.date}T07:00[Europe/Warsaw]`).epochMilliseconds;
      expect(d.points.find((p) => p.time === seven)!.minute).toBe(420);
      expect(d.points[0]!.minute).toBe(0);
      expect(d.points[d.points.length - 1]!.minute).toBe(1435);
    }
  });

  it("the repeated hour of the 25 h day starts a new segment instead of drawing backwards", () => {
    const last = o.days[13]!;
    const first0230 = last.points.find((p) => p.time === Date.UTC(2026, 9, 25, 0, 30))!;
    const second0230 = last.points.find((p) => p.time === Date.UTC(2026, 9, 25, 1, 30))!;
    expect(first0230.minute).toBe(150);
    expect(second0230.minute).toBe(150);
    expect(first0230.segment).toBe(0);
    expect(second0230.segment).toBe(1);
    expect(new Set(last.points.map((p) => p.segment))).toEqual(new Set([0, 1]));
    expect(o.days[0]!.points.every((p) => p.segment === 0)).toBe(true);
  });

  it("the skipped hour of the 23 h day is absent, and a gap over 15 min breaks the line", () => {
    const springStart = Temporal.ZonedDateTime.from(
      "2026-03-29T00:00[Europe/Warsaw]",
    ).epochMilliseconds;
    // 00:00 to 03:15 wall time (40 readings over 195 real minutes) without 00:30-00:45.
    const r = every5(springStart, 40).filter(
      (x) => x.time < springStart + 30 * MIN || x.time >= springStart + 50 * MIN,
    );
    const s = buildCgmOverlay({
      endDate: "2026-03-29",
      timeZone: WAW,
      readings: r,
      limits,
      days: 3,
    });
    expect(s.days.map((d) => d.points.length)).toEqual([0, 0, 36]);
    const pts = s.days[2]!.points;
    // Readings stop after 00:25 and resume at 00:50 (25 min later): segment 0, then 1.
    expect(pts.find((p) => p.minute === 25)!.segment).toBe(0);
    expect(pts.find((p) => p.minute === 50)!.segment).toBe(1);
    // 01:55 is minute 115; five minutes later the clock reads 03:00 (180), same segment.
    const i = pts.findIndex((p) => p.minute === 115);
    expect(pts[i + 1]!.minute).toBe(180);
    expect(pts[i + 1]!.segment).toBe(1);
    expect(pts.some((p) => p.minute >= 120 && p.minute < 180)).toBe(false);
    expect(pts[pts.length - 1]!.minute).toBe(255);
  });

  it("empty overlay and argument checks", () => {
    const e = buildCgmOverlay({ endDate: "2026-01-14", timeZone: WAW, readings, limits });
    expect(e.hasData).toBe(false);
    expect(e.days.every((d) => d.points.length === 0)).toBe(true);
    expect(() =>
      buildCgmOverlay({ endDate: "2026-01-14", timeZone: WAW, readings, limits, days: 0 }),
    ).toThrow(RangeError);
    expect(() =>
      buildCgmOverlay({ endDate: "2026-01-14", timeZone: WAW, readings, limits, days: 91 }),
    ).toThrow(RangeError);
  });
});
