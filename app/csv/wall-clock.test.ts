import { describe, expect, it } from "vitest";
import {
  DateOrderEvidence,
  formatWall,
  parseIsoWall,
  splitVendorStamp,
  vendorWall,
} from "./wall-clock";

describe("parseIsoWall", () => {
  it.each([
    ["2026-01-05 08:00", "2026-01-05 08:00:00"],
    ["2026-01-05T08:00:07", "2026-01-05 08:00:07"],
    ["  2026-01-05T08:00:07.250 ", "2026-01-05 08:00:07"],
    ["2024-02-29 23:59:59", "2024-02-29 23:59:59"],
    ["2000-01-01 00:00", "2000-01-01 00:00:00"],
    ["2099-12-31 23:59:59", "2099-12-31 23:59:59"],
  ])("reads %j as %j", (text, wall) => {
    expect(parseIsoWall(text)).toBe(wall);
  });

  it.each([
    "2026-02-30 08:00",
    "2025-02-29 08:00",
    "2026-04-31 08:00",
    "2026-13-01 08:00",
    "2026-01-05 24:00",
    "2026-01-05 08:60",
    "2026-01-05 08:00:60",
    "1999-12-31 23:59",
    "2100-01-01 00:00",
    "2026-01-05T08:00:00Z",
    "2026-01-05T08:00:00+01:00",
    "2026-1-5 8:00",
    "2026-01-05",
    "05-01-2026 08:00",
    "",
  ])("refuses %j", (text) => {
    expect(parseIsoWall(text)).toBeNull();
  });
});

describe("formatWall", () => {
  it("pads every part", () => {
    expect(formatWall({ year: 2026, month: 1, day: 5, hour: 7, minute: 3, second: 9 })).toBe(
      "2026-01-05 07:03:09",
    );
  });
});

describe("vendor stamps", () => {
  it.each([
    [
      "25-03-2026 14:05",
      {
        first: 25,
        second: 3,
        year: 2026,
        yearFirst: false,
        hour: 14,
        minute: 5,
        seconds: 0,
        meridiem: null,
      },
    ],
    [
      "3/7/2026 9:05 PM",
      {
        first: 3,
        second: 7,
        year: 2026,
        yearFirst: false,
        hour: 9,
        minute: 5,
        seconds: 0,
        meridiem: "pm",
      },
    ],
    [
      "25.03.2026 14:05:10",
      {
        first: 25,
        second: 3,
        year: 2026,
        yearFirst: false,
        hour: 14,
        minute: 5,
        seconds: 10,
        meridiem: null,
      },
    ],
    [
      "2026-03-25 02:05 a.m.",
      {
        first: 3,
        second: 25,
        year: 2026,
        yearFirst: true,
        hour: 2,
        minute: 5,
        seconds: 0,
        meridiem: "am",
      },
    ],
  ])("splits %j", (text, stamp) => {
    expect(splitVendorStamp(text)).toEqual(stamp);
  });

  it.each([
    "25-03/2026 14:05",
    "25-03-26 14:05",
    "2026-03-2026 14:05",
    "123-03-2026 14:05",
    "25-03-2026",
    "25-03-2026 14h05",
    "25-03-2026 14:05 XM",
  ])("refuses %j", (text) => {
    expect(splitVendorStamp(text)).toBeNull();
  });

  const decide = (stamps: string[], forced?: "DMY" | "MDY") => {
    const evidence = new DateOrderEvidence();
    for (const s of stamps) evidence.observe(splitVendorStamp(s)!);
    return evidence.decide(forced);
  };

  it.each([
    [
      "a first number over 12 anywhere: day-first",
      ["01-02-2026 10:00", "13-02-2026 10:00"],
      { order: "DMY", clock: "24h" },
    ],
    [
      "a second number over 12 anywhere: month-first",
      ["01-02-2026 10:00", "02-13-2026 10:00"],
      { order: "MDY", clock: "24h" },
    ],
    [
      "day-first wins over a 12-hour clock",
      ["13-02-2026 10:00 AM"],
      { order: "DMY", clock: "12h" },
    ],
    [
      "ambiguous, 12-hour clock: month-first",
      ["01-02-2026 10:00 AM", "01-03-2026 10:00"],
      { order: "MDY", clock: "12h" },
    ],
    [
      "ambiguous, 24-hour clock: day-first",
      ["01-02-2026 10:00", "12-12-2026 23:00"],
      { order: "DMY", clock: "24h" },
    ],
    ["only year-first stamps: YMD", ["2026-02-13 10:00"], { order: "YMD", clock: "24h" }],
  ])("%s", (_name, stamps, decision) => {
    expect(decide(stamps)).toEqual(decision);
  });

  it("takes the user's order for a day/month file, never for a year-first one", () => {
    expect(decide(["13-02-2026 10:00"], "MDY")).toEqual({ order: "MDY", clock: "24h" });
    expect(decide(["2026-02-13 10:00"], "MDY")).toEqual({ order: "YMD", clock: "24h" });
  });

  it.each([
    ["03-04-2026 00:30", "DMY", "2026-04-03 00:30:00"],
    ["03-04-2026 00:30", "MDY", "2026-03-04 00:30:00"],
    ["03-04-2026 12:30 AM", "MDY", "2026-03-04 00:30:00"],
    ["03-04-2026 12:30 PM", "MDY", "2026-03-04 12:30:00"],
    ["03-04-2026 11:59 PM", "MDY", "2026-03-04 23:59:00"],
    ["2026.04.03 07:00:59", "DMY", "2026-04-03 07:00:59"],
  ])("reads %j in %s as %j", (text, order, wall) => {
    expect(vendorWall(splitVendorStamp(text)!, order as "DMY" | "MDY")).toBe(wall);
  });

  it.each([
    ["00:30 AM is no 12-hour time", "03-04-2026 00:30 AM", "MDY"],
    ["13:00 PM is no 12-hour time", "03-04-2026 13:00 PM", "MDY"],
    ["30 February", "30-02-2026 08:00", "DMY"],
    ["month 13", "13-03-2026 08:00", "MDY"],
    ["year 2100", "01-01-2100 08:00", "DMY"],
  ])("refuses %s", (_name, text, order) => {
    expect(vendorWall(splitVendorStamp(text)!, order as "DMY" | "MDY")).toBeNull();
  });
});
