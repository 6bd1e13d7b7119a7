import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import {
  AFTER_MEAL_S,
  assertMealWindows,
  BEFORE_MEAL_S,
  buildBgRange,
  DEFAULT_MEAL_WINDOWS,
  mealTag,
  glucoseSummary,
  TAG_ORDER,
  type BgReadingInput,
} from "./bg-range";

const WAW = "Europe/Warsaw";
const at = (hh: number, mm = 0, ss = 0) => hh * 3600 + mm * 60 + ss;
const key = (s: number, w = DEFAULT_MEAL_WINDOWS) => mealTag(s, w).key;

describe("mealTag with the default windows (06-10, 11-14, 17-20)", () => {
  it("before, meal and after windows, nearest window in the 10:00-11:00 overlap", () => {
    expect(BEFORE_MEAL_S).toBe(3600);
    expect(AFTER_MEAL_S).toBe(7200);
    expect(key(at(4, 59, 59))).toBe("night");
    expect(key(at(5))).toBe("beforeBreakfast");
    expect(key(at(6))).toBe("breakfast");
    expect(key(at(9, 59, 59))).toBe("breakfast");
    expect(key(at(10))).toBe("afterBreakfast");
    expect(key(at(10, 29, 59))).toBe("afterBreakfast");
    expect(key(at(10, 30))).toBe("beforeLunch"); // equal distance: before
    expect(key(at(11))).toBe("lunch");
    expect(key(at(14))).toBe("afterLunch");
    expect(key(at(15, 59, 59))).toBe("afterLunch");
    expect(key(at(16))).toBe("beforeSupper");
    expect(key(at(17))).toBe("supper");
    expect(key(at(20))).toBe("afterSupper");
    expect(key(at(21, 59, 59))).toBe("afterSupper");
    expect(key(at(22))).toBe("night");
    expect(key(0)).toBe("night");
    expect(key(at(23, 59, 59))).toBe("night");
  });

  it("returns meal and phase", () => {
    expect(mealTag(at(12))).toEqual({ meal: "lunch", phase: "meal", key: "lunch" });
    expect(mealTag(at(16, 30))).toEqual({ meal: "supper", phase: "before", key: "beforeSupper" });
    expect(mealTag(at(3))).toEqual({ meal: null, phase: "night", key: "night" });
  });

  it("short windows leave 'other' time between meals", () => {
    const w = {
      breakfastStart: at(6),
      breakfastEnd: at(8),
      lunchStart: at(13),
      lunchEnd: at(14),
      supperStart: at(18),
      supperEnd: at(19),
    };
    expect(key(at(9, 59), w)).toBe("afterBreakfast");
    expect(key(at(10, 30), w)).toBe("other");
    expect(key(at(12), w)).toBe("beforeLunch");
    expect(key(at(21), w)).toBe("night");
  });

  it("a window may wrap midnight; an empty window never matches", () => {
    const w = { ...DEFAULT_MEAL_WINDOWS, supperStart: at(22), supperEnd: at(1) };
    expect(key(at(23), w)).toBe("supper");
    expect(key(at(0, 30), w)).toBe("supper");
    expect(key(at(2), w)).toBe("afterSupper");
    expect(key(at(3, 30), w)).toBe("night");
    const noLunch = { ...DEFAULT_MEAL_WINDOWS, lunchStart: at(12), lunchEnd: at(12) };
    expect(key(at(11, 59), noLunch)).toBe("afterBreakfast");
    expect(key(at(12, 30), noLunch)).toBe("other");
  });

  it("rejects bounds outside 0-86400 s", () => {
    expect(() => assertMealWindows({ ...DEFAULT_MEAL_WINDOWS, lunchEnd: 90_000 })).toThrow(
      RangeError,
    );
    expect(() => assertMealWindows({ ...DEFAULT_MEAL_WINDOWS, lunchEnd: 1.5 })).toThrow(RangeError);
    expect(() => assertMealWindows(DEFAULT_MEAL_WINDOWS)).not.toThrow();
  });
});

/** Epoch ms of a Warsaw wall time; an explicit offset picks one of the two 02:30 on 25 Oct. */
const waw = (iso: string) => Temporal.ZonedDateTime.from(`${iso}[${WAW}]`).epochMilliseconds;

describe("buildBgRange", () => {
  const limits = { low: 70, high: 180 };
  const readings: BgReadingInput[] = [
    { time: waw("2026-10-26T16:30"), mgdl: 70.2, id: 7 },
    { time: waw("2026-10-24T07:10"), mgdl: 70, source: "meter", id: 1 },
    { time: waw("2026-10-25T02:30+01:00"), mgdl: 52, id: 4 }, // the second 02:30 (winter time)
    { time: waw("2026-10-24T22:15"), mgdl: 180, id: 2 },
    { time: waw("2026-10-25T02:30+02:00"), mgdl: 69.9, id: 3 }, // the first 02:30 (summer time)
    { time: waw("2026-10-25T12:50"), mgdl: 181, id: 5 },
    { time: waw("2026-10-26T15:00"), mgdl: 260, id: 6 },
    { time: waw("2026-10-23T23:59"), mgdl: 100 }, // before the range
    { time: waw("2026-10-27T00:00"), mgdl: 100 }, // the range's end is exclusive
    { time: waw("2026-10-25T12:00"), mgdl: 0 }, // invalid
  ];
  const m = buildBgRange({ from: "2026/10/24", to: "2026-10-26", timeZone: WAW, readings, limits });

  it("groups by local day (the 25 h day included), in time order", () => {
    expect(m.from).toBe("2026-10-24");
    expect(m.to).toBe("2026-10-26");
    expect(m.days.map((d) => [d.date, d.readings.map((r) => r.id)])).toEqual([
      ["2026-10-24", [1, 2]],
      ["2026-10-25", [3, 4, 5]],
      ["2026-10-26", [6, 7]],
    ]);
    expect(m.end - m.start).toBe((24 + 25 + 24) * 3_600_000);
    expect(m.hasData).toBe(true);
  });

  it("each reading carries clock, wall seconds, class and meal tag", () => {
    const [r3, r4, r5] = m.days[1]!.readings;
    expect([r3!.clock, r3!.seconds, r3!.class, r3!.tag.key]).toEqual([
      "02:30",
      at(2, 30),
      "low",
      "night",
    ]);
    expect([r4!.clock, r4!.class, r4!.tag.key]).toEqual(["02:30", "veryLow", "night"]);
    expect([r5!.clock, r5!.class, r5!.tag.key]).toEqual(["12:50", "high", "lunch"]);
    expect(m.days[0]!.readings[0]).toMatchObject({
      clock: "07:10",
      class: "inRange",
      source: "meter",
      tag: { key: "breakfast" },
    });
    expect(m.days[2]!.readings.map((r) => [r.tag.key, r.class])).toEqual([
      ["afterLunch", "veryHigh"],
      ["beforeSupper", "inRange"],
    ]);
  });

  it("summary: 70, 180 and 70.2 in range, 69.9 low (classified before rounding)", () => {
    expect(m.summary.count).toBe(7);
    expect(m.summary.mean).toBeCloseTo(883.1 / 7, 12);
    expect(m.summary.high).toBe(2);
    expect(m.summary.low).toBe(2);
    expect(m.summary.highPercent).toBeCloseTo(200 / 7, 12);
    expect(m.summary.lowPercent).toBeCloseTo(200 / 7, 12);
    expect(m.classes).toEqual({ veryLow: 1, low: 1, inRange: 3, high: 1, veryHigh: 1 });
  });

  it("per meal tag counts and means, every tag listed", () => {
    expect(m.byTag.map((t) => t.key)).toEqual(TAG_ORDER);
    const night = m.byTag.find((t) => t.key === "night")!;
    expect(night.count).toBe(3);
    expect(night.mean).toBeCloseTo((180 + 69.9 + 52) / 3, 12);
    expect(m.byTag.find((t) => t.key === "breakfast")).toEqual({
      key: "breakfast",
      count: 1,
      mean: 70,
    });
    expect(m.byTag.find((t) => t.key === "supper")).toEqual({
      key: "supper",
      count: 0,
      mean: null,
    });
  });

  it("an empty range lists its days without readings", () => {
    const e = buildBgRange({
      from: "2026-03-28",
      to: "2026-03-30",
      timeZone: WAW,
      readings: [],
      limits,
    });
    expect(e.hasData).toBe(false);
    expect(e.days.map((d) => [d.date, d.readings.length])).toEqual([
      ["2026-03-28", 0],
      ["2026-03-29", 0],
      ["2026-03-30", 0],
    ]);
    expect(e.end - e.start).toBe((24 + 23 + 24) * 3_600_000);
    expect(e.summary).toEqual({
      mean: null,
      count: 0,
      high: 0,
      highPercent: null,
      low: 0,
      lowPercent: null,
    });
  });

  it("rejects a reversed range and bad limits", () => {
    expect(() =>
      buildBgRange({ from: "2026-03-30", to: "2026-03-28", timeZone: WAW, readings: [], limits }),
    ).toThrow(RangeError);
    expect(() =>
      buildBgRange({
        from: "2026-03-28",
        to: "2026-03-28",
        timeZone: WAW,
        readings: [],
        limits: { low: 180, high: 70 },
      }),
    ).toThrow(RangeError);
  });
});

describe("glucoseSummary of values", () => {
  it("counts above the high and below the low limit, invalid values left out", () => {
    const s = glucoseSummary([70, 180, 69.9, 180.1, 0, Number.NaN], { low: 70, high: 180 });
    expect(s.count).toBe(4);
    expect(s.mean).toBeCloseTo(500 / 4, 12);
    expect([s.high, s.low]).toEqual([1, 1]);
    expect([s.highPercent, s.lowPercent]).toEqual([25, 25]);
  });
});
