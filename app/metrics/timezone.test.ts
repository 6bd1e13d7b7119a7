import { describe, expect, it } from "vitest";
import { assertTimeZone, localDayToIsoDate, ZoneOffsets } from "./timezone";

const H = 3_600_000;

describe("ZoneOffsets", () => {
  it("UTC has one fixed offset", () => {
    const z = new ZoneOffsets("UTC", Date.UTC(2024, 0, 1), Date.UTC(2024, 11, 31));
    expect(z.isFixed).toBe(true);
    expect(z.offsetAt(Date.UTC(2024, 6, 1))).toBe(0);
    expect(localDayToIsoDate(z.localDay(Date.UTC(2024, 2, 31, 23, 59)))).toBe("2024-03-31");
    expect(localDayToIsoDate(z.localDay(Date.UTC(2024, 3, 1)))).toBe("2024-04-01");
  });

  it("Europe/Warsaw: +01:00 until 2024-03-31 01:00Z, then +02:00", () => {
    const z = new ZoneOffsets("Europe/Warsaw", Date.UTC(2024, 2, 30), Date.UTC(2024, 3, 2));
    expect(z.isFixed).toBe(false);
    expect(z.offsetAt(Date.UTC(2024, 2, 31, 0, 59))).toBe(1 * H);
    expect(z.offsetAt(Date.UTC(2024, 2, 31, 1, 0))).toBe(2 * H);
    // 23:30Z on the 30th is 00:30 local on the 31st.
    expect(localDayToIsoDate(z.localDay(Date.UTC(2024, 2, 30, 23, 30)))).toBe("2024-03-31");
    // Local midnight starting 31 March is 23:00Z on the 30th; the day is 23 h long.
    expect(z.startOfLocalDay(Date.UTC(2024, 2, 31, 12))).toBe(Date.UTC(2024, 2, 30, 23));
    expect(z.startOfLocalDay(Date.UTC(2024, 3, 1, 12))).toBe(Date.UTC(2024, 2, 31, 22));
  });

  it("fixed-offset zones work too", () => {
    const z = new ZoneOffsets("-05:00", 0, 10 * H);
    expect(z.offsetAt(0)).toBe(-5 * H);
    expect(z.startOfLocalDay(Date.UTC(2015, 5, 7, 3))).toBe(Date.UTC(2015, 5, 6, 5));
  });

  it("rejects an unknown zone", () => {
    expect(() => assertTimeZone("Mars/Olympus_Mons")).toThrow(RangeError);
    expect(() => assertTimeZone("Europe/Warsaw")).not.toThrow();
  });
});
