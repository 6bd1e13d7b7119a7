import { describe, expect, it } from "vitest";
import { pumpTimeZones, uploadTimeZones } from "./upload-time-zones";

// Offsets from the published rules (tz database): Warsaw UTC+1, UTC+2 in summer; New York UTC-5,
// UTC-4 in summer; Sydney UTC+11 in its summer (January), UTC+10 in July; Kolkata UTC+5:30 all year.
const JANUARY = Date.parse("2026-01-15T12:00:00Z");
const JULY = Date.parse("2026-07-15T12:00:00Z");

const find = (list: ReturnType<typeof uploadTimeZones>, timezone: string) =>
  list.find((z) => z.timezone === timezone);

describe("uploadTimeZones", () => {
  it("lists 31 zones, the product's markets among them", () => {
    const zones = uploadTimeZones(JANUARY);
    expect(zones).toHaveLength(31);
    expect(new Set(zones.map((z) => z.timezone)).size).toBe(31);
    for (const zone of [
      "Europe/Warsaw",
      "Europe/Rome",
      "Europe/Bucharest",
      "Europe/Moscow",
      "Europe/London",
      "America/New_York",
      "Asia/Shanghai",
      "Asia/Kolkata",
      "Australia/Sydney",
      "UTC",
    ]) {
      expect(find(zones, zone), zone).toBeDefined();
    }
  });

  it("gives each zone its offset at the moment asked: daylight saving time moves it", () => {
    expect(find(uploadTimeZones(JANUARY), "Europe/Warsaw")).toEqual({
      timezone: "Europe/Warsaw",
      name: "Warsaw",
      offsetName: "GMT+01:00",
      offset: 60,
    });
    expect(find(uploadTimeZones(JULY), "Europe/Warsaw")).toEqual({
      timezone: "Europe/Warsaw",
      name: "Warsaw",
      offsetName: "GMT+02:00",
      offset: 120,
    });
    expect(find(uploadTimeZones(JANUARY), "America/New_York")).toMatchObject({
      offsetName: "GMT-05:00",
      offset: -300,
    });
    expect(find(uploadTimeZones(JULY), "America/New_York")).toMatchObject({
      offsetName: "GMT-04:00",
      offset: -240,
    });
    expect(find(uploadTimeZones(JANUARY), "Australia/Sydney")).toMatchObject({
      offsetName: "GMT+11:00",
      offset: 660,
    });
    expect(find(uploadTimeZones(JULY), "Australia/Sydney")).toMatchObject({
      offsetName: "GMT+10:00",
      offset: 600,
    });
    expect(find(uploadTimeZones(JULY), "Asia/Kolkata")).toMatchObject({
      offsetName: "GMT+05:30",
      offset: 330,
    });
    expect(find(uploadTimeZones(JULY), "UTC")).toMatchObject({
      offsetName: "GMT+00:00",
      offset: 0,
    });
    expect(find(uploadTimeZones(JULY), "Europe/London")).toMatchObject({
      offsetName: "GMT+01:00",
      offset: 60,
    });
  });

  it("sorts by offset, then by name", () => {
    const zones = uploadTimeZones(JANUARY);
    const sorted = [...zones].sort(
      (a, b) => a.offset - b.offset || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    expect(zones.map((z) => z.timezone)).toEqual(sorted.map((z) => z.timezone));
    // In January Rome, Warsaw and Lagos share UTC+1: by name.
    const plusOne = zones.filter((z) => z.offset === 60).map((z) => z.name);
    expect(plusOne).toEqual(["Lagos", "Rome", "Warsaw"]);
  });
});

describe("pumpTimeZones", () => {
  it("lists the handheld's 26 whole-hour zones, UTC-12 to UTC+13, as fixed-offset zones", () => {
    const zones = pumpTimeZones();
    expect(zones).toHaveLength(26);
    expect(zones[0]).toEqual({ offset: -12, offsetName: "GMT-12:00", timezone: "-12:00" });
    expect(zones[7]).toEqual({ offset: -5, offsetName: "GMT-05:00", timezone: "-05:00" });
    expect(zones[12]).toEqual({ offset: 0, offsetName: "GMT+00:00", timezone: "+00:00" });
    expect(zones[20]).toEqual({ offset: 8, offsetName: "GMT+08:00", timezone: "+08:00" });
    expect(zones[25]).toEqual({ offset: 13, offsetName: "GMT+13:00", timezone: "+13:00" });
    expect(zones.map((z) => z.offset)).toEqual(Array.from({ length: 26 }, (_, i) => i - 12));
  });
});
