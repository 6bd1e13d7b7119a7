import { describe, expect, it } from "vitest";
import { isKnownTimeZone, parseWallClock, WallClockResolver } from "./device-time";

const wall = (text: string) => parseWallClock(text)!;
const utc = (iso: string) => Date.parse(iso);

describe("parseWallClock", () => {
  it("reads device times as if they were UTC", () => {
    expect(wall("2026-03-29 02:30:00")).toBe(utc("2026-03-29T02:30:00Z"));
    expect(wall("2026-03-29T23:59:59")).toBe(utc("2026-03-29T23:59:59Z"));
    // Leap days: 2028 is a leap year, and 2000 too (divisible by 400).
    expect(wall("2028-02-29 12:00:00")).toBe(utc("2028-02-29T12:00:00Z"));
    expect(wall("2000-02-29 00:00:00")).toBe(utc("2000-02-29T00:00:00Z"));
  });
  it("refuses dates that do not exist and years a device cannot record", () => {
    for (const text of [
      "2026-02-29 10:00:00",
      "2026-04-31 10:00:00",
      "2026-01-01 24:00:00",
      "2026-01-01 10:60:00",
      "1999-12-31 10:00:00",
      "2100-01-01 00:00:00",
      "2026-1-01 10:00:00",
      "",
      "now",
      "2026-00-10 10:00:00",
      "2026-13-01 10:00:00",
      "2026-01-00 10:00:00",
      "2026-01-0a 10:00:00",
      "2026-01-01x10:00:00",
      "2026-01-01 10:00:00Z",
      "2026-06-31 10:00:00",
    ]) {
      expect(parseWallClock(text), text).toBeNull();
    }
  });
});

describe("WallClockResolver", () => {
  it("a fixed-offset zone subtracts its offset", () => {
    expect(new WallClockResolver("+08:00").resolve(wall("2026-01-01 08:00:00"))).toEqual({
      instant: utc("2026-01-01T00:00:00Z"),
      dst: null,
    });
    expect(new WallClockResolver("-05:00").resolve(wall("2026-01-01 08:00:00"))).toEqual({
      instant: utc("2026-01-01T13:00:00Z"),
      dst: null,
    });
  });

  it("Europe/Warsaw, 29 March 2026: 02:00-03:00 does not exist; 02:30 is read as 03:30 CEST", () => {
    const r = new WallClockResolver("Europe/Warsaw");
    expect(r.resolve(wall("2026-03-29 01:59:00"))).toEqual({
      instant: utc("2026-03-29T00:59:00Z"),
      dst: null,
    });
    expect(r.resolve(wall("2026-03-29 02:30:00"))).toEqual({
      instant: utc("2026-03-29T01:30:00Z"),
      dst: "gap",
    });
    expect(r.resolve(wall("2026-03-29 03:00:00"))).toEqual({
      instant: utc("2026-03-29T01:00:00Z"),
      dst: null,
    });
  });

  it("Europe/Warsaw, 25 October 2026: 02:00-03:00 happens twice; the device's order picks the second pass", () => {
    const r = new WallClockResolver("Europe/Warsaw");
    // 02:10 CEST = 00:10Z, 02:50 CEST = 00:50Z, then the clock goes back: 02:10 CET = 01:10Z.
    expect(r.resolve(wall("2026-10-25 02:10:00"))).toEqual({
      instant: utc("2026-10-25T00:10:00Z"),
      dst: "overlap",
    });
    expect(r.resolve(wall("2026-10-25 02:50:00"))).toEqual({
      instant: utc("2026-10-25T00:50:00Z"),
      dst: "overlap",
    });
    expect(r.resolve(wall("2026-10-25 02:10:00"))).toEqual({
      instant: utc("2026-10-25T01:10:00Z"),
      dst: "overlap",
    });
    expect(r.resolve(wall("2026-10-25 03:00:00"))).toEqual({
      instant: utc("2026-10-25T02:00:00Z"),
      dst: null,
    });
  });

  it("America/New_York, 8 March and 1 November 2026", () => {
    const spring = new WallClockResolver("America/New_York");
    expect(spring.resolve(wall("2026-03-08 02:15:00"))).toEqual({
      instant: utc("2026-03-08T07:15:00Z"),
      dst: "gap",
    });
    const autumn = new WallClockResolver("America/New_York");
    // 01:30 EDT = 05:30Z (first pass); alone, the earlier instant is taken.
    expect(autumn.resolve(wall("2026-11-01 01:30:00"))).toEqual({
      instant: utc("2026-11-01T05:30:00Z"),
      dst: "overlap",
    });
    expect(autumn.resolve(wall("2026-11-01 00:30:00"))).toEqual({
      instant: utc("2026-11-01T04:30:00Z"),
      dst: null,
    });
  });

  it("ordinary times are unambiguous", () => {
    expect(new WallClockResolver("Europe/Warsaw").resolve(wall("2026-07-01 12:00:00"))).toEqual({
      instant: utc("2026-07-01T10:00:00Z"),
      dst: null,
    });
    expect(new WallClockResolver("UTC").resolve(wall("2026-07-01 12:00:00"))).toEqual({
      instant: utc("2026-07-01T12:00:00Z"),
      dst: null,
    });
  });
});

describe("isKnownTimeZone", () => {
  it("knows IANA zones and fixed offsets, and nothing else", () => {
    expect(
      ["Europe/Warsaw", "America/New_York", "UTC", "+08:00", "-12:00"].every(isKnownTimeZone),
    ).toBe(true);
    expect(
      ["Mars/Olympus", "+8", "GMT+08:00; drop", "", "../etc", "+25:00"].some(isKnownTimeZone),
    ).toBe(false);
  });
});
