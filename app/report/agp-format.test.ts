import { describe, expect, it } from "vitest";
import { formatMinutes, formatPeriod } from "./agp-format";

/** Any run of spaces (the runtime writes thin and no-break ones) as one plain space. */
const plain = (text: string) => text.replace(/\s+/g, " ");

describe("the glucose profile's period and time-per-day texts", () => {
  it("writes the period's dates in the language's own order and month names", () => {
    expect(plain(formatPeriod("2025-03-03", "2025-03-16", "en"))).toBe("March 3 – 16, 2025");
    expect(plain(formatPeriod("2025-03-03", "2025-03-16", "pl"))).toBe("3–16 marca 2025");
    expect(plain(formatPeriod("2025-03-03", "2025-03-16", "ro"))).toBe("3–16 martie 2025");
    expect(plain(formatPeriod("2025-02-24", "2025-03-09", "en"))).toBe(
      "February 24 – March 9, 2025",
    );
  });

  it("writes minutes a day as hours and minutes: 4 % of 1440 is 57.6 -> 58 min", () => {
    expect(formatMinutes(0.04 * 1440, "en")).toBe("58 min");
    expect(formatMinutes(0, "en")).toBe("0 min");
    expect(formatMinutes(72, "en")).toBe("1 hr 12 min");
    expect(formatMinutes(120, "en")).toBe("2 hr");
    expect(plain(formatMinutes(72, "ru"))).toBe("1 ч 12 мин");
    expect(plain(formatMinutes(72, "pl"))).toBe("1 godz. 12 min");
  });
});
