import { describe, expect, it } from "vitest";
import { DEFAULT_MEAL_WINDOWS } from "./bg-range";
import { MEAL_PERIODS, mealPeriodBounds, mealPeriodOf } from "./meal-periods";

const at = (hh: number, mm = 0, ss = 0) => hh * 3600 + mm * 60 + ss;
const clock = (s: number) =>
  `${String(Math.floor(s / 3600)).padStart(2, "0")}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
/** The periods as "key start-end" lines, for reading the expectations at a glance. */
const table = (w = DEFAULT_MEAL_WINDOWS) =>
  mealPeriodBounds(w).map((p) => `${p.key} ${clock(p.start)}-${clock(p.end)}`);
const windows = (b: [number, number], l: [number, number], s: [number, number]) => ({
  breakfastStart: b[0],
  breakfastEnd: b[1],
  lunchStart: l[0],
  lunchEnd: l[1],
  supperStart: s[0],
  supperEnd: s[1],
});

describe("mealPeriodBounds", () => {
  it("default windows (06-10, 11-14, 17-20): an hour before breakfast, windows split at their middle, two hours after supper", () => {
    // Breakfast 06:00-10:00, middle 08:00; lunch 11:00-14:00, middle 12:30, an hour before it
    // 10:00 = breakfast's end; supper 17:00-20:00, middle 18:30, an hour before it 16:00 (after
    // lunch's end 14:00); after supper until 20:00 + 2 h; before breakfast from 06:00 - 1 h.
    expect(table()).toEqual([
      "beforeBreakfast 05:00-08:00",
      "afterBreakfast 08:00-10:00",
      "beforeLunch 10:00-12:30",
      "afterLunch 12:30-16:00",
      "beforeSupper 16:00-18:30",
      "afterSupper 18:30-22:00",
      "night 22:00-05:00",
    ]);
    const lengths = mealPeriodBounds(DEFAULT_MEAL_WINDOWS).map((p) => p.length / 3600);
    expect(lengths).toEqual([3, 2, 2.5, 3.5, 2.5, 3.5, 7]);
  });

  it("short windows with long gaps: the gap goes to after the meal until an hour before the next", () => {
    // Breakfast 07:00-08:00 (middle 07:30), lunch 12:00-13:00 (an hour before: 11:00, later than
    // 08:00), supper 18:30-19:30 (an hour before: 17:30, later than 13:00; middle 19:00; + 2 h
    // after its end: 21:30).
    expect(table(windows([at(7), at(8)], [at(12), at(13)], [at(18, 30), at(19, 30)]))).toEqual([
      "beforeBreakfast 06:00-07:30",
      "afterBreakfast 07:30-11:00",
      "beforeLunch 11:00-12:30",
      "afterLunch 12:30-17:30",
      "beforeSupper 17:30-19:00",
      "afterSupper 19:00-21:30",
      "night 21:30-06:00",
    ]);
  });

  it("a late supper: the after-supper period runs past midnight", () => {
    // Breakfast 05:00-06:00 (from 04:00), supper 22:00-23:30: after supper to 01:30.
    const bounds = mealPeriodBounds(
      windows([at(5), at(6)], [at(12), at(13)], [at(22), at(23, 30)]),
    );
    expect(bounds.map((p) => `${p.key} ${clock(p.start)}-${clock(p.end)}`)).toEqual([
      "beforeBreakfast 04:00-05:30",
      "afterBreakfast 05:30-11:00",
      "beforeLunch 11:00-12:30",
      "afterLunch 12:30-21:00",
      "beforeSupper 21:00-22:45",
      "afterSupper 22:45-01:30",
      "night 01:30-04:00",
    ]);
    expect(mealPeriodOf(at(0, 30), bounds)).toBe("afterSupper");
    expect(mealPeriodOf(at(1, 30), bounds)).toBe("night");
  });

  it("overlapping windows leave a period empty, never a gap: lunch inside breakfast", () => {
    // Breakfast 06:00-12:00 (middle 09:00), lunch 08:00-09:00: an hour before lunch (07:00) is
    // before breakfast's end, so after breakfast runs 09:00-12:00; lunch's middle 08:30 lies
    // before that, so before lunch is empty at 12:00 and after lunch runs 12:00 to 16:00.
    const bounds = mealPeriodBounds(windows([at(6), at(12)], [at(8), at(9)], [at(17), at(20)]));
    expect(bounds.map((p) => [p.key, clock(p.start), clock(p.end), p.length / 3600])).toEqual([
      ["beforeBreakfast", "05:00", "09:00", 4],
      ["afterBreakfast", "09:00", "12:00", 3],
      ["beforeLunch", "12:00", "12:00", 0],
      ["afterLunch", "12:00", "16:00", 4],
      ["beforeSupper", "16:00", "18:30", 2.5],
      ["afterSupper", "18:30", "22:00", 3.5],
      ["night", "22:00", "05:00", 7],
    ]);
    expect(mealPeriodOf(at(12), bounds)).toBe("afterLunch");
    // The periods still cover the whole day.
    expect(bounds.reduce((sum, p) => sum + p.length, 0)).toBe(86_400);
  });

  it("a supper that ends late enough leaves no night: after supper stops at the next morning's before breakfast", () => {
    // Breakfast 01:00-02:00 (before it from 00:00), supper 21:00-23:00: + 2 h is 01:00, past 00:00.
    const bounds = mealPeriodBounds(windows([at(1), at(2)], [at(12), at(13)], [at(21), at(23)]));
    expect(bounds.at(-2)).toMatchObject({ key: "afterSupper", start: at(22), end: 0 });
    expect(bounds.at(-1)).toMatchObject({ key: "night", length: 0 });
    expect(bounds.reduce((sum, p) => sum + p.length, 0)).toBe(86_400);
  });

  it("refuses bounds outside 0-86400 s", () => {
    expect(() => mealPeriodBounds({ ...DEFAULT_MEAL_WINDOWS, lunchEnd: 90_000 })).toThrow(
      RangeError,
    );
  });
});

describe("mealPeriodOf", () => {
  const bounds = mealPeriodBounds(DEFAULT_MEAL_WINDOWS);
  it("puts each time of the default day in its period, start included and end excluded", () => {
    const cases: [number, string][] = [
      [at(4, 59, 59), "night"],
      [at(5), "beforeBreakfast"],
      [at(7, 30), "beforeBreakfast"],
      [at(7, 59, 59), "beforeBreakfast"],
      [at(8), "afterBreakfast"],
      [at(9, 59, 59), "afterBreakfast"],
      [at(10), "beforeLunch"],
      [at(12, 29, 59), "beforeLunch"],
      [at(12, 30), "afterLunch"],
      [at(15, 59, 59), "afterLunch"],
      [at(16), "beforeSupper"],
      [at(18, 29, 59), "beforeSupper"],
      [at(18, 30), "afterSupper"],
      [at(19, 30), "afterSupper"],
      [at(21, 59, 59), "afterSupper"],
      [at(22), "night"],
      [0, "night"],
      [at(23, 59, 59), "night"],
    ];
    expect(cases.map(([s]) => [clock(s), mealPeriodOf(s, bounds)])).toEqual(
      cases.map(([s, key]) => [clock(s), key]),
    );
  });

  it("every second of the day has one period", () => {
    const seen = new Set<string>();
    for (let s = 0; s < 86_400; s += 59) seen.add(mealPeriodOf(s, bounds));
    expect([...seen].sort()).toEqual([...MEAL_PERIODS].sort());
  });
});
