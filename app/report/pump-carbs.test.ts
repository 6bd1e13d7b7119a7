import { describe, expect, it } from "vitest";
import { carbEncodingOf, carbGrams, compareVersions, parseFirmwareVersion } from "./pump-carbs";

describe("firmware versions and the carbohydrate rules", () => {
  it("parses x.y.z with an optional suffix and compares numerically", () => {
    expect(parseFirmwareVersion("5.0.3C")).toMatchObject({
      major: 5,
      minor: 0,
      patch: 3,
      suffix: "C",
    });
    expect(parseFirmwareVersion("v5.2.0")).toMatchObject({
      major: 5,
      minor: 2,
      patch: 0,
      suffix: "",
    });
    expect(parseFirmwareVersion("5.2")).toBeNull();
    expect(parseFirmwareVersion("five")).toBeNull();
    expect(parseFirmwareVersion(null)).toBeNull();
    const v = (s: string) => parseFirmwareVersion(s)!;
    expect(compareVersions(v("5.0.10"), v("5.0.9"))).toBeGreaterThan(0);
    expect(compareVersions(v("5.1.9"), v("5.2.0"))).toBeLessThan(0);
    expect(compareVersions(v("5.10.0"), v("5.2.0"))).toBeGreaterThan(0);
    expect(compareVersions(v("5.0.3C"), v("5.0.3"))).toBeGreaterThan(0);
  });

  it("encoding: below 5.2.0 x10; 5.2.0 and later grams; special 5.0.10 and 5.0.3C grams; unparsable unknown", () => {
    expect(carbEncodingOf("5.1.9")).toBe("x10");
    expect(carbEncodingOf("5.0.9")).toBe("x10");
    expect(carbEncodingOf("5.0.3")).toBe("x10");
    expect(carbEncodingOf("5.2.0")).toBe("grams");
    expect(carbEncodingOf("5.3.0")).toBe("grams");
    expect(carbEncodingOf("5.0.10")).toBe("grams");
    expect(carbEncodingOf("5.0.3C")).toBe("grams");
    expect(carbEncodingOf("5.0.3c")).toBe("grams");
    expect(carbEncodingOf("5.2")).toBe("unknown");
    expect(carbEncodingOf(undefined)).toBe("unknown");
  });

  it("5.1.9 divides by 10, and again when still above 200", () => {
    expect(carbGrams(450, "5.1.9")).toEqual({ grams: 45, byVersion: true, byLimit: false });
    expect(carbGrams(2000, "5.1.9")).toEqual({ grams: 200, byVersion: true, byLimit: false });
    expect(carbGrams(2500, "5.1.9")).toEqual({ grams: 25, byVersion: true, byLimit: true });
  });

  it("5.2.0 keeps grams; above 200 is ten times too large", () => {
    expect(carbGrams(45, "5.2.0")).toEqual({ grams: 45, byVersion: false, byLimit: false });
    expect(carbGrams(200, "5.2.0")).toEqual({ grams: 200, byVersion: false, byLimit: false });
    expect(carbGrams(201, "5.2.0")).toEqual({ grams: 20.1, byVersion: false, byLimit: true });
    expect(carbGrams(250, "5.2.0")).toEqual({ grams: 25, byVersion: false, byLimit: true });
  });

  it("the special versions 5.0.10 and 5.0.3C: grams, with the 200 rule", () => {
    expect(carbGrams(45, "5.0.10")).toEqual({ grams: 45, byVersion: false, byLimit: false });
    expect(carbGrams(250, "5.0.10")).toEqual({ grams: 25, byVersion: false, byLimit: true });
    expect(carbGrams(60, "5.0.3C")).toEqual({ grams: 60, byVersion: false, byLimit: false });
    expect(carbGrams(240, "5.0.3C")).toEqual({ grams: 24, byVersion: false, byLimit: true });
  });

  it("no version: only the 200 rule", () => {
    expect(carbGrams(45, null)).toEqual({ grams: 45, byVersion: false, byLimit: false });
    expect(carbGrams(230, null)).toEqual({ grams: 23, byVersion: false, byLimit: true });
  });
});
