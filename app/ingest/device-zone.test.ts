import { describe, expect, it } from "vitest";
import { pumpTimeZone, pumpZoneOffset } from "~/ingest/device-zone";

// Expected values worked out by hand from the handheld's rule: the sign and two hour digits are
// characters 3 to 6 of the zone string, within UTC-12 to UTC+13.

describe("pumpZoneOffset", () => {
  it.each([
    ["GMT+08:00", 8],
    ["GMT-05:00", -5],
    ["UTC+13", 13],
    ["GMT-12:00", -12],
    ["GMT+13:00", 13],
    ["GMT+00:00", 0],
    ["GMT-00:00", 0],
    ["UTC+01", 1],
    ["XYZ-09:30", -9],
  ] as const)("%j is %i hours", (text, hours) => {
    expect(pumpZoneOffset(text)).toBe(hours);
  });

  it.each([
    "GMT+14:00",
    "GMT-13:00",
    "GMT+99:00",
    "GMT+8",
    "GMT+8:00",
    "GMT 08:00",
    "GMT08:00",
    "GMT+0a:00",
    "GMT＋08:00",
    "GMT+٠٨:00",
    "+08:00",
    "Europe/Warsaw",
    "GMT",
    "",
  ])("%j is no pump zone", (text) => {
    expect(pumpZoneOffset(text)).toBeNull();
    expect(pumpTimeZone(text)).toBeNull();
  });
});

describe("pumpTimeZone", () => {
  it.each([
    ["GMT+08:00", "+08:00"],
    ["GMT-05:00", "-05:00"],
    ["UTC+13", "+13:00"],
    ["GMT-12:00", "-12:00"],
    ["GMT+00:00", "+00:00"],
    ["GMT-00:00", "+00:00"],
    ["GMT+01:00", "+01:00"],
  ] as const)("%j is the zone %s", (text, zone) => {
    expect(pumpTimeZone(text)).toBe(zone);
  });
});
