import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, DEMO_TIME_ZONE } from "../../prisma/demo-data";
import { computeAll } from "../metrics/index";
import { ZoneOffsets } from "../metrics/timezone";
import { buildCgmDay } from "./cgm-day";
import {
  buildCgmReport,
  localDateTimeText,
  type CgmReport,
  type CgmReportInput,
  type CgmReportResult,
} from "./cgm-report";
import { dayWindow } from "./day";

const MIN = 60_000;
const WAW = "Europe/Warsaw";
const limits = { low: 70, high: 180 };

function ok(r: CgmReportResult): CgmReport {
  if (r.status !== "ok") throw new Error(`expected a report, got ${JSON.stringify(r)}`);
  return r.report;
}

/** Epoch ms of a Warsaw wall time (the first occurrence on a fall-back day). */
function waw(date: string, time: string): number {
  return Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(WAW).epochMilliseconds;
}

describe("buildCgmReport: a hand-computed range over the 25-h day (Europe/Warsaw)", () => {
  const first0230 = Date.UTC(2026, 9, 25, 0, 30); // 02:30 CEST
  const second0230 = Date.UTC(2026, 9, 25, 1, 30); // 02:30 CET, after the clocks went back
  const input: CgmReportInput = {
    from: "2026-10-24",
    to: "2026-10-26",
    timeZone: WAW,
    now: Date.UTC(2026, 10, 1),
    unit: 0,
    limits,
    readings: [
      { time: waw("2026-10-23", "23:50"), mgdl: 40, id: "before" }, // before the range: trend lead only
      { time: waw("2026-10-24", "08:00"), mgdl: 100, id: "a1" },
      { time: waw("2026-10-24", "08:00"), mgdl: 110, id: "a2" }, // same instant: merged into 105
      { time: waw("2026-10-24", "12:00"), mgdl: 65 },
      { time: first0230, mgdl: 200, id: 3 },
      { time: second0230, mgdl: 250, id: 4 },
      { time: waw("2026-10-25", "12:00"), mgdl: 180, id: 5 },
      { time: waw("2026-10-25", "13:00"), mgdl: 70, id: 6 },
      { time: waw("2026-10-26", "03:00"), mgdl: 55, id: 7 },
      { time: waw("2026-10-26", "09:00"), mgdl: 250, id: 8 }, // equal to the highest: the first one wins
      { time: waw("2026-10-27", "00:00"), mgdl: 300, id: "after" }, // the next day
      { time: waw("2026-10-26", "10:00"), mgdl: Number.NaN }, // invalid
    ],
  };
  const r = ok(buildCgmReport(input));

  it("count, average, highest and lowest with local times", () => {
    expect(r.readingCount).toBe(8);
    expect(r.mean).toBeCloseTo(1175 / 8, 12);
    expect(r.highest).toBe(250);
    expect(r.highestAt).toBe(second0230);
    expect(r.highestLocalTime).toBe("2026/10/25 02:30");
    expect(r.lowest).toBe(55);
    expect(r.lowestLocalTime).toBe("2026/10/26 03:00");
    expect(r.lowestAt).toBe(Date.UTC(2026, 9, 26, 2, 0));
  });

  it("above / below / within goal against the patient's limits (both limits in range)", () => {
    expect(r.goalCounts).toEqual({ above: 3, within: 3, below: 2 });
    expect(r.abovePercent).toBe(37.5);
    expect(r.withinPercent).toBe(37.5);
    expect(r.belowPercent).toBe(25);
  });

  it("classifies before rounding: 69.9 mg/dL is below a 70 limit though it shows as 3.9", () => {
    const one = ok(
      buildCgmReport({ ...input, readings: [{ time: waw("2026-10-24", "08:00"), mgdl: 69.9 }] }),
    );
    expect(one.goalCounts).toEqual({ above: 0, within: 0, below: 1 });
  });

  it("unit and target range", () => {
    expect(r.glucoseUnit).toBe(0);
    expect(r.glucoseUnitCode).toBe("mmol/L");
    expect(r.limits).toEqual(limits);
  });

  it("rows: cleaned readings in time order with the id and the local date-time text", () => {
    expect(r.rows.map((x) => [x.id, x.localTime, x.mgdl])).toEqual([
      ["a1", "2026/10/24 08:00", 105],
      [null, "2026/10/24 12:00", 65],
      [3, "2026/10/25 02:30", 200],
      [4, "2026/10/25 02:30", 250],
      [5, "2026/10/25 12:00", 180],
      [6, "2026/10/25 13:00", 70],
      [7, "2026/10/26 03:00", 55],
      [8, "2026/10/26 09:00", 250],
    ]);
  });

  it("one CGMS day model per date, equal to buildCgmDay", () => {
    expect(r.days.map((d) => [d.window.date, d.window.hours, d.points.length])).toEqual([
      ["2026-10-24", 24, 2],
      ["2026-10-25", 25, 4],
      ["2026-10-26", 24, 2],
    ]);
    const day = buildCgmDay({
      date: "2026-10-25",
      timeZone: WAW,
      readings: input.readings,
      limits,
    });
    expect(r.days[1]).toEqual(day);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it("the spring-forward day: 03:00 CEST follows 01:59 CET", () => {
    const t = Date.UTC(2026, 2, 29, 1, 0);
    const zone = new ZoneOffsets(WAW, t - 86_400_000, t + 86_400_000);
    expect(localDateTimeText(t, zone)).toBe("2026/03/29 03:00");
    expect(localDateTimeText(t - MIN, zone)).toBe("2026/03/29 01:59");
    const s = ok(
      buildCgmReport({
        ...input,
        from: "2026-03-28",
        to: "2026-03-30",
        readings: [
          { time: t - MIN, mgdl: 90 },
          { time: t, mgdl: 300 },
        ],
      }),
    );
    expect(s.highestLocalTime).toBe("2026/03/29 03:00");
    expect(s.lowestLocalTime).toBe("2026/03/29 01:59");
    expect(s.days[1]!.window.hours).toBe(23);
  });
});

describe("buildCgmReport: ranges and empty data", () => {
  const now = Date.UTC(2026, 9, 25, 12);
  const base = { timeZone: "UTC", now, readings: [], limits, unit: 1 as const };
  const status = (from: string, to: string) => {
    const r = buildCgmReport({ ...base, from, to });
    return r.status === "invalidRange" ? r.problem : r.status;
  };

  it("3 to 14 days counted inclusively, no future, typed problems", () => {
    expect(status("2026-10-23", "2026-10-25")).toBe("ok");
    expect(status("2026-10-24", "2026-10-25")).toBe("tooShort");
    expect(status("2026-10-12", "2026-10-25")).toBe("ok");
    expect(status("2026-10-11", "2026-10-25")).toBe("tooLong");
    expect(status("2026-10-24", "2026-10-26")).toBe("future");
    expect(status("2026-10-25", "2026-10-23")).toBe("order");
    expect(status("2026-13-01", "2026-10-23")).toBe("invalidDate");
    expect(buildCgmReport({ ...base, from: "2026-10-24", to: "2026-10-25" })).toMatchObject({
      minDays: 3,
      maxDays: 14,
    });
  });

  it("no readings: counts 0, values null", () => {
    const r = ok(buildCgmReport({ ...base, from: "2026-10-20", to: "2026-10-22" }));
    expect(r.hasData).toBe(false);
    expect(r.readingCount).toBe(0);
    expect([r.highest, r.lowest, r.mean, r.abovePercent, r.highestLocalTime]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(r.days).toHaveLength(3);
    expect(r.glucoseUnitCode).toBe("mg/dL");
  });
});

describe("buildCgmReport on 14 demo days, cross-checked with computeAll", () => {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const tz = DEMO_TIME_ZONE;
  const readings = data.cgm.map((p) => ({
    time: p.at.epochMilliseconds,
    mgdl: p.mgdl,
    id: p.index,
  }));
  const r = ok(
    buildCgmReport({
      from: "2026-11-09",
      to: "2026-11-22",
      timeZone: tz,
      now: Date.UTC(2026, 10, 23, 12),
      readings,
      limits,
      unit: 1,
    }),
  );
  const start = dayWindow("2026-11-09", tz).start;
  const end = dayWindow("2026-11-22", tz).end;
  const all = computeAll(
    readings.filter((x) => x.time >= start && x.time < end),
    { timeZone: tz, limits },
  );

  it("count, mean, extremes equal app/metrics", () => {
    expect(r.readingCount).toBe(all.meta.readings);
    expect(r.mean).toBeCloseTo(all.mean.value!, 9);
    expect(r.highest).toBe(all.max.value);
    expect(r.lowest).toBe(all.min.value);
    expect(r.rows).toHaveLength(all.meta.readings);
    expect(r.rows[0]!.time).toBe(all.meta.firstTime);
    expect(r.rows[r.rows.length - 1]!.time).toBe(all.meta.lastTime);
  });

  it("goal split equals the day models' counts summed and adds up to 100 %", () => {
    const sum = (f: (g: NonNullable<(typeof r.days)[number]["goal"]>) => number) =>
      r.days.reduce((s, d) => s + (d.goal ? f(d.goal) : 0), 0);
    expect(r.goalCounts).toEqual({
      above: sum((g) => g.above),
      within: sum((g) => g.within),
      below: sum((g) => g.below),
    });
    expect(r.abovePercent! + r.withinPercent! + r.belowPercent!).toBeCloseTo(100, 10);
    // With the default 70-180 limits, below = % < 70 and above = % > 180 of app/metrics.
    expect(r.belowPercent).toBeCloseTo(all.timeInRanges.value!.below70, 9);
    expect(r.abovePercent).toBeCloseTo(all.timeInRanges.value!.above180, 9);
    expect(r.days).toHaveLength(14);
  });
});
