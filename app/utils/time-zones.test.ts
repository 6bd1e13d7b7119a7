import { describe, expect, it } from "vitest";
import {
  accountZone,
  clockIn,
  isListedZone,
  timeZoneList,
  timeZoneListWith,
  timeZoneOptions,
  zoneLabel,
} from "./time-zones";

// Offsets from the published rules (tz database): Warsaw UTC+1, UTC+2 in summer; New York UTC-5,
// UTC-4 in summer; Sydney UTC+11 in its summer (January), UTC+10 in July; Kolkata UTC+5:30 all year.
const JANUARY = Date.parse("2026-01-15T12:00:00Z");
const JULY = Date.parse("2026-07-15T12:00:00Z");

const find = (list: ReturnType<typeof timeZoneList>, timezone: string) =>
  list.find((z) => z.timezone === timezone);

describe("timeZoneList", () => {
  it("lists 31 zones, the product's markets among them", () => {
    const zones = timeZoneList(JANUARY);
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
    expect(find(timeZoneList(JANUARY), "Europe/Warsaw")).toEqual({
      timezone: "Europe/Warsaw",
      name: "Warsaw",
      offsetName: "GMT+01:00",
      offset: 60,
    });
    expect(find(timeZoneList(JULY), "Europe/Warsaw")).toEqual({
      timezone: "Europe/Warsaw",
      name: "Warsaw",
      offsetName: "GMT+02:00",
      offset: 120,
    });
    expect(find(timeZoneList(JANUARY), "America/New_York")).toMatchObject({
      offsetName: "GMT-05:00",
      offset: -300,
    });
    expect(find(timeZoneList(JULY), "America/New_York")).toMatchObject({
      offsetName: "GMT-04:00",
      offset: -240,
    });
    expect(find(timeZoneList(JANUARY), "Australia/Sydney")).toMatchObject({
      offsetName: "GMT+11:00",
      offset: 660,
    });
    expect(find(timeZoneList(JULY), "Australia/Sydney")).toMatchObject({
      offsetName: "GMT+10:00",
      offset: 600,
    });
    expect(find(timeZoneList(JULY), "Asia/Kolkata")).toMatchObject({
      offsetName: "GMT+05:30",
      offset: 330,
    });
    expect(find(timeZoneList(JULY), "UTC")).toMatchObject({
      offsetName: "GMT+00:00",
      offset: 0,
    });
    expect(find(timeZoneList(JULY), "Europe/London")).toMatchObject({
      offsetName: "GMT+01:00",
      offset: 60,
    });
  });

  it("sorts by offset, then by name", () => {
    const zones = timeZoneList(JANUARY);
    const sorted = [...zones].sort(
      (a, b) => a.offset - b.offset || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    expect(zones.map((z) => z.timezone)).toEqual(sorted.map((z) => z.timezone));
    // In January Rome, Warsaw and Lagos share UTC+1: by name.
    const plusOne = zones.filter((z) => z.offset === 60).map((z) => z.name);
    expect(plusOne).toEqual(["Lagos", "Rome", "Warsaw"]);
  });
});

describe("timeZoneListWith", () => {
  it("puts a zone outside the list first, with its offset then", () => {
    const zones = timeZoneListWith("Europe/Berlin", JULY);
    expect(zones).toHaveLength(32);
    expect(zones[0]).toEqual({
      timezone: "Europe/Berlin",
      name: "Europe/Berlin",
      offsetName: "GMT+02:00",
      offset: 120,
    });
    expect(timeZoneListWith("America/Argentina/Buenos_Aires", JULY)[0]!.name).toBe("Pago Pago");
  });

  it("adds nothing for a zone of the list, none, or one the runtime does not know", () => {
    for (const current of ["Europe/Warsaw", undefined, "Mars/Olympus_Mons"])
      expect(timeZoneListWith(current, JULY)).toHaveLength(31);
  });
});

describe("zoneLabel and timeZoneOptions", () => {
  it("show the offset, the name and the time there now on a 24-hour clock", () => {
    // 2026-07-15 12:00 UTC is 14:00 in Warsaw (UTC+2 in summer) and 17:30 in Kolkata (UTC+5:30).
    const warsaw = find(timeZoneList(JULY), "Europe/Warsaw")!;
    expect(zoneLabel(warsaw, JULY, "en")).toBe("(GMT+02:00) Warsaw — 14:00");
    expect(clockIn("Asia/Kolkata", JULY, "pl")).toBe("17:30");
    expect(clockIn("America/New_York", JANUARY, "en")).toBe("07:00");
    const options = timeZoneOptions("Europe/Warsaw", JANUARY, "en");
    expect(options).toHaveLength(31);
    expect(options).toContainEqual({ value: "Europe/Warsaw", label: "(GMT+01:00) Warsaw — 13:00" });
  });
});

describe("accountZone", () => {
  const record = (timeZone: string) => ({ timeZone });
  const chosen = (timeZone: string | null) => ({ timeZone });

  it("is the health record's zone for a person with one, whatever the settings hold", () => {
    expect(accountZone({ patient: record("Europe/Rome"), setting: chosen("Asia/Tokyo") })).toBe(
      "Europe/Rome",
    );
    expect(accountZone({ patient: record("Europe/Rome"), setting: chosen(null) })).toBe(
      "Europe/Rome",
    );
    expect(accountZone({ patient: record("Asia/Kathmandu"), setting: null })).toBe(
      "Asia/Kathmandu",
    );
  });

  it("is the chosen zone for an account without a health record", () => {
    expect(accountZone({ patient: null, setting: chosen("Europe/Warsaw") })).toBe("Europe/Warsaw");
    expect(accountZone({ patient: null, setting: chosen("America/New_York") })).toBe(
      "America/New_York",
    );
  });

  it("is UTC without a choice, without a settings row, and for a zone outside the 31", () => {
    expect(accountZone({ patient: null, setting: chosen(null) })).toBe("UTC");
    expect(accountZone({ patient: null, setting: null })).toBe("UTC");
    expect(accountZone({ patient: null, setting: chosen("") })).toBe("UTC");
    // A real IANA zone, but not one of those offered.
    expect(accountZone({ patient: null, setting: chosen("Asia/Kathmandu") })).toBe("UTC");
    expect(accountZone({ patient: null, setting: chosen("Mars/Olympus_Mons") })).toBe("UTC");
  });
});

describe("isListedZone", () => {
  it("knows the 31 by their exact ids and nothing else", () => {
    for (const zone of ["Europe/Warsaw", "UTC", "Asia/Kolkata", "Pacific/Auckland"])
      expect(isListedZone(zone), zone).toBe(true);
    for (const zone of ["Asia/Kathmandu", "europe/warsaw", "Europe/Warsaw ", "", "Etc/UTC"])
      expect(isListedZone(zone), zone).toBe(false);
  });
});
