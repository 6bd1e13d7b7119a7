import { describe, expect, it } from "vitest";
import { pumpTimeZone, pumpZoneOffset } from "./device-zone";

describe("the handheld's zone string", () => {
  it("reads the offset from characters 3 to 6", () => {
    expect(pumpZoneOffset("GMT+08:00")).toBe(8);
    expect(pumpZoneOffset("GMT-05:00")).toBe(-5);
    expect(pumpZoneOffset("UTC+13")).toBe(13);
    expect(pumpZoneOffset("GMT-12:00")).toBe(-12);
    expect(pumpTimeZone("GMT+01:00")).toBe("+01:00");
    expect(pumpTimeZone("GMT-05:00")).toBe("-05:00");
    expect(pumpTimeZone("GMT+00:00")).toBe("+00:00");
  });
  it("refuses offsets the handheld does not offer and strings without one", () => {
    for (const text of ["GMT+14:00", "GMT-13:00", "GMT+8", "Europe/Warsaw", "", "GMT 08:00"]) expect(pumpZoneOffset(text), text).toBeNull();
  });
});
