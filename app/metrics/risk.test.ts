import { describe, expect, it } from "vitest";
import { createContext } from "./context";
import { adrr, grade, gradeScore, hbgi, jIndex, kovatchevF, lbgi, mValue } from "./risk";
import { ctxOf, HOUR } from "./test-utils";

// f(g) = ln(g)^1.084 - 5.381 and r(g) = 22.77 f(g)^2 for the test values:
//   g    f(g)                    r(g)
//   50   -0.9940456251462253     22.499645069943405
//   100  -0.14549809621277188     0.48203397795508907
//   200   0.7138855963884092     11.604335320521106
//   300   1.2210778730713123     33.95077978881628
describe("Kovatchev risk indices", () => {
  it("f(g)", () => {
    expect(kovatchevF(50)).toBeCloseTo(-0.9940456251462253, 14);
    expect(kovatchevF(300)).toBeCloseTo(1.2210778730713123, 14);
  });

  it("LBGI and HBGI of 50, 100, 200, 300", () => {
    const ctx = ctxOf([50, 100, 200, 300]);
    // LBGI = (22.4996 + 0.4820) / 4; HBGI = (11.6043 + 33.9508) / 4.
    expect(lbgi(ctx).value).toBeCloseTo((22.499645069943405 + 0.48203397795508907) / 4, 12);
    expect(hbgi(ctx).value).toBeCloseTo((11.604335320521106 + 33.95077978881628) / 4, 12);
  });

  it("splits at 112.5 mg/dL", () => {
    expect(hbgi(ctxOf([112.4, 90])).value).toBe(0);
    expect(lbgi(ctxOf([112.5, 150])).value).toBe(0);
  });

  it("ADRR: mean over days of the day's high risk max plus low risk max", () => {
    const d1 = Date.UTC(2024, 0, 1);
    const ctx = createContext([
      { time: d1 + 8 * HOUR, mgdl: 50 },
      { time: d1 + 12 * HOUR, mgdl: 200 },
      { time: d1 + 24 * HOUR + 8 * HOUR, mgdl: 100 },
    ]);
    // Day 1: 11.6043 (200) + 22.4996 (50); day 2: 0 + 0.4820 (100).
    const expected = (11.604335320521106 + 22.499645069943405 + 0.48203397795508907) / 2;
    expect(adrr(ctx).value).toBeCloseTo(expected, 12);
  });

  it("ADRR splits days at local midnight, DST days included (Europe/Warsaw)", () => {
    const readings = [
      // 2024-03-30 23:30 CET (22:30Z) and 2024-03-31 00:30 CET (23:30Z): two local days, one UTC day.
      { time: Date.UTC(2024, 2, 30, 22, 30), mgdl: 50 },
      { time: Date.UTC(2024, 2, 30, 23, 30), mgdl: 300 },
      // 31 March is 23 h long: 23:30 CEST is 21:30Z, still 31 March.
      { time: Date.UTC(2024, 2, 31, 21, 30), mgdl: 200 },
      // 2024-10-27 is 25 h long: 00:30 CEST (22:30Z on the 26th) and 23:30 CET (22:30Z on the 27th)
      // are the same local day, two UTC days.
      { time: Date.UTC(2024, 9, 26, 22, 30), mgdl: 100 },
      { time: Date.UTC(2024, 9, 27, 22, 30), mgdl: 300 },
    ];
    const r50 = 22.499645069943405;
    const r100 = 0.48203397795508907;
    const r200 = 11.604335320521106;
    const r300 = 33.95077978881628;
    // Warsaw days: 30 Mar {50}, 31 Mar {300, 200}, 27 Oct {100, 300}.
    const warsaw = (r50 + r300 + (r300 + r100)) / 3;
    expect(adrr(createContext(readings, { timeZone: "Europe/Warsaw" })).value).toBeCloseTo(
      warsaw,
      12,
    );
    // UTC days: 30 Mar {50, 300}, 31 Mar {200}, 26 Oct {100}, 27 Oct {300}.
    const utc = (r300 + r50 + r200 + r100 + r300) / 4;
    expect(adrr(createContext(readings, { timeZone: "UTC" })).value).toBeCloseTo(utc, 12);
  });

  it("M-value with the default reference 90 and a configured one", () => {
    // |log10(90/90)|^3 = 0; 1000 |log10(2)|^3 = 27.27905...; mean = 13.6395...
    expect(mValue(ctxOf([90, 180])).value).toBeCloseTo((1000 * Math.log10(2) ** 3) / 2, 12);
    // r = 120: 60 and 240 are both a factor 2 away, 120 is 0.
    expect(mValue(ctxOf([60, 120, 240]), 120).value).toBeCloseTo(
      (2 * 1000 * Math.log10(2) ** 3) / 3,
      12,
    );
    expect(() => mValue(ctxOf([100]), 0)).toThrow(RangeError);
  });

  it("GRADE: per-reading score capped at 50, including below 18 mg/dL", () => {
    // g = 18 * 10^(10^-0.16) makes log10(log10(g/18)) = -0.16, a score of 0.
    expect(gradeScore(18 * 10 ** (10 ** -0.16))).toBeCloseTo(0, 12);
    expect(gradeScore(100)).toBeCloseTo(425 * (Math.log10(Math.log10(100 / 18)) + 0.16) ** 2, 12);
    expect(gradeScore(1000)).toBe(50);
    expect(gradeScore(18)).toBe(50);
    expect(gradeScore(10)).toBe(50);
    const expected = (gradeScore(50) + gradeScore(100) + gradeScore(200) + gradeScore(300)) / 4;
    expect(grade(ctxOf([50, 100, 200, 300])).value).toBeCloseTo(expected, 12);
    expect(expected).toBeCloseTo(13.966813650063017, 10);
  });

  it("J-index = 0.001 (mean + SD)^2", () => {
    // mean 140, SD sqrt(1000).
    expect(jIndex(ctxOf([100, 120, 140, 160, 180])).value).toBeCloseTo(
      0.001 * (140 + Math.sqrt(1000)) ** 2,
      12,
    );
    expect(jIndex(ctxOf([100])).value).toBeNull();
  });

  it("no readings: null", () => {
    const ctx = ctxOf([]);
    for (const r of [lbgi(ctx), hbgi(ctx), adrr(ctx), grade(ctx), mValue(ctx), jIndex(ctx)])
      expect(r.value).toBeNull();
  });
});
