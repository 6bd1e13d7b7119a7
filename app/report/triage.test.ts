import { describe, expect, it } from "vitest";
import { consensusTargetsOf, timeInRangesOf } from "../metrics/ranges";
import {
  belowRangeFlag,
  CATEGORY_LIMITS,
  FLAG_VALUES,
  TRIAGE_CATEGORIES,
  triageCategory,
  tirDropped,
  lowTirFlag,
  noRecentUpload,
  TRIAGE_BANDS,
  triageFigures,
  type TriageCounts,
} from "./triage";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const DAY = 86_400_000;

const counts = (over: Partial<TriageCounts>): TriageCounts => ({
  readings: 0,
  below54: 0,
  below70: 0,
  inRange: 0,
  meanMgdl: null,
  daysWithData: 0,
  lastUploadAt: null,
  above180: 0,
  above250: 0,
  slots: 0,
  expectedSlots: 4032,
  prevReadings: 0,
  prevInRange: 0,
  prevSlots: 0,
  prevExpectedSlots: 4032,
  ...over,
});

describe("triage figures", () => {
  it("are percent of readings and GMI of the mean, worked out by hand", () => {
    // 200 readings: 3 below 54, 11 below 70, 130 in range; mean 162 mg/dL.
    // 3/200 = 1.5 %, 11/200 = 5.5 %, 130/200 = 65 %; GMI 3.31 + 0.02392 x 162 = 7.18504.
    const f = triageFigures(
      counts({
        readings: 200,
        below54: 3,
        below70: 11,
        inRange: 130,
        meanMgdl: 162,
        daysWithData: 13,
        lastUploadAt: NOW - 2 * DAY,
      }),
      NOW,
    );
    expect(f.below54).toBeCloseTo(1.5, 12);
    expect(f.below70).toBeCloseTo(5.5, 12);
    expect(f.tir).toBeCloseTo(65, 12);
    expect(f.gmi).toBeCloseTo(7.18504, 12);
    expect(f.daysWithData).toBe(13);
    expect(f.flags).toEqual(["belowRange", "lowTir"]);
  });

  it("without readings: no figures, no glucose flags; without an upload: the upload flag", () => {
    expect(triageFigures(counts({}), NOW)).toEqual({
      tir: null,
      below70: null,
      below54: null,
      gmi: null,
      daysWithData: 0,
      flags: ["noUpload"],
      above180: null,
      above250: null,
      wear: 0,
      prevTir: null,
      tirChange: null,
      category: "noData",
    });
  });

  it("uses the consensus bands and goals the AGP report holds (54, 70, 180 mg/dL; 70 %, 4 %)", () => {
    expect(TRIAGE_BANDS).toEqual({ veryLow: 54, low: 70, high: 180, veryHigh: 250 });
    expect(FLAG_VALUES).toEqual({
      noUpload: { count: 7 },
      belowRange: { percent: 4 },
      lowTir: { percent: 70 },
    });
  });
});

describe("triage flags", () => {
  it("no upload: none at all, or the newest more than 7 x 24 hours ago", () => {
    expect(noRecentUpload(null, NOW)).toBe(true);
    expect(noRecentUpload(NOW - 7 * DAY, NOW)).toBe(false);
    expect(noRecentUpload(NOW - 7 * DAY - 1, NOW)).toBe(true);
    expect(noRecentUpload(NOW - 6 * DAY, NOW)).toBe(false);
  });

  it("below range: over 4 % of readings below 70 mg/dL, exactly 4 % is not flagged", () => {
    expect(belowRangeFlag(1, 25)).toBe(false); // 4 %
    expect(belowRangeFlag(2, 49)).toBe(true); // 4.08 %
    expect(belowRangeFlag(4, 100)).toBe(false);
    expect(belowRangeFlag(5, 100)).toBe(true);
    expect(belowRangeFlag(0, 0)).toBe(false);
  });

  it("low time in range: under 70 % of readings in range, exactly 70 % is not flagged", () => {
    expect(lowTirFlag(7, 10)).toBe(false); // 70 %: 0.7 x 100 is not 70.00000000000001 here
    expect(lowTirFlag(69, 100)).toBe(true);
    expect(lowTirFlag(2, 3)).toBe(true); // 66.7 %
    expect(lowTirFlag(0, 0)).toBe(false);
  });

  it("agree with the consensus targets of app/metrics away from the limits", () => {
    // The consensus asks for TIR > 70 % and < 4 % below 70: a flag means the target is missed.
    const cases: number[][] = [
      [60, 80, 120, 150, 200, 65, 100, 110, 170, 175], // 10 % below, 70 % in range
      Array.from({ length: 100 }, (_, i) => (i < 3 ? 60 : i < 30 ? 200 : 120)), // 3 %, 70 %
      Array.from({ length: 100 }, (_, i) => (i < 5 ? 60 : 120)), // 5 %, 95 %
      Array.from({ length: 100 }, (_, i) => (i < 40 ? 220 : 120)), // 0 %, 60 %
    ];
    for (const values of cases) {
      const t = timeInRangesOf(values)!;
      const targets = consensusTargetsOf(t, 30);
      const n = values.length;
      const below = values.filter((v) => v < 70).length;
      const inRange = values.filter((v) => v >= 70 && v <= 180).length;
      expect(belowRangeFlag(below, n)).toBe(t.below70 > 4);
      expect(!targets.below70).toBe(t.below70 >= 4);
      expect(lowTirFlag(inRange, n)).toBe(t.range70to180 < 70);
      if (t.range70to180 !== 70) expect(lowTirFlag(inRange, n)).toBe(!targets.tir);
    }
  });
});

/**
 * Categories. Base: 1000 readings all in range, every one of the 1000 expected slots filled (100 %
 * wear), no previous period; each case changes what it tests, each limit once exactly at it (not
 * in the category) and once one reading past it.
 */
describe("triage categories", () => {
  const full = (over: Partial<TriageCounts>): TriageCounts =>
    counts({
      readings: 1000,
      inRange: 1000,
      meanMgdl: 120,
      slots: 1000,
      expectedSlots: 1000,
      ...over,
    });
  const cat = (over: Partial<TriageCounts>) => triageCategory(full(over));

  it("are in the order of the rule, worst first", () => {
    expect(TRIAGE_CATEGORIES).toEqual([
      "veryLow",
      "low",
      "tirDrop",
      "veryHigh",
      "high",
      "lowWear",
      "noData",
      "target",
    ]);
    expect(CATEGORY_LIMITS).toEqual({
      veryLow: 1,
      low: 4,
      tirDrop: 15,
      veryHigh: 5,
      high: 25,
      wear: 70,
    });
  });

  it("very low: over 1 % below 54 mg/dL (10 of 1000 is exactly 1 %: not; 11 is)", () => {
    expect(cat({ below54: 10, below70: 10, inRange: 990 })).toBe("target");
    expect(cat({ below54: 11, below70: 11, inRange: 989 })).toBe("veryLow");
  });

  it("low: over 4 % below 70 mg/dL, the very low readings counted in it", () => {
    // 40 of 1000 = 4 %: not low. 41 = 4.1 %: low. 5 below 54 (0.5 %) + 36 at 54-69 = 41: low.
    expect(cat({ below70: 40, inRange: 960 })).toBe("target");
    expect(cat({ below70: 41, inRange: 959 })).toBe("low");
    expect(cat({ below54: 5, below70: 41, inRange: 959 })).toBe("low");
  });

  it("time in range dropped: 15 points or more, both periods worn 70 % or more", () => {
    // Previous 800 of 1000 in range = 80 %; now 650 of 1000 = 65 %: down 15 points exactly: dropped.
    const prev = { prevReadings: 1000, prevInRange: 800, prevSlots: 1000, prevExpectedSlots: 1000 };
    expect(cat({ ...prev, inRange: 650, above180: 350 })).toBe("tirDrop");
    // 651 = 65.1 %: down 14.9 points: not dropped (high, 34.9 % above 180).
    expect(cat({ ...prev, inRange: 651, above180: 349 })).toBe("high");
    // Different counts: previous 3 of 4 = 75 %, now 3 of 5 = 60 %: down exactly 15: dropped.
    expect(
      tirDropped(
        full({
          readings: 5,
          inRange: 3,
          slots: 5,
          expectedSlots: 5,
          prevReadings: 4,
          prevInRange: 3,
          prevSlots: 4,
          prevExpectedSlots: 4,
        }),
      ),
    ).toBe(true);
    // Previous wear 699 of 1000 slots = 69.9 %: the drop is not judged (the same data at 700: it is).
    expect(tirDropped(full({ ...prev, prevSlots: 699, inRange: 600 }))).toBe(false);
    expect(tirDropped(full({ ...prev, prevSlots: 700, inRange: 600 }))).toBe(true);
    // Current wear 699 of 1000: not judged either; then it is low wear.
    expect(cat({ ...prev, slots: 699, inRange: 600 })).toBe("lowWear");
    // No previous readings: no drop.
    expect(tirDropped(full({ inRange: 0 }))).toBe(false);
  });

  it("very high: over 5 % above 250 mg/dL; high: over 25 % above 180, very high included", () => {
    expect(cat({ above250: 50, above180: 50, inRange: 950 })).toBe("target");
    expect(cat({ above250: 51, above180: 51, inRange: 949 })).toBe("veryHigh");
    expect(cat({ above180: 250, inRange: 750 })).toBe("target");
    expect(cat({ above180: 251, inRange: 749 })).toBe("high");
    // 20 above 250 (2 %) + 231 at 181-250 = 251 above 180: high.
    expect(cat({ above250: 20, above180: 251, inRange: 749 })).toBe("high");
  });

  it("low wear: under 70 % of the slots; no data: no readings; else on target", () => {
    expect(cat({ slots: 700 })).toBe("target");
    expect(cat({ slots: 699 })).toBe("lowWear");
    expect(triageCategory(counts({}))).toBe("noData");
    expect(cat({})).toBe("target");
  });

  it("the first that applies wins", () => {
    // Very low and low and very high and low wear: very low.
    expect(cat({ below54: 20, below70: 60, above250: 100, above180: 100, slots: 10 })).toBe(
      "veryLow",
    );
    // Low (5 %) and a dropped time in range: low.
    const prev = {
      prevReadings: 1000,
      prevInRange: 1000,
      prevSlots: 1000,
      prevExpectedSlots: 1000,
    };
    expect(cat({ ...prev, below70: 50, inRange: 500, above180: 450, above250: 100 })).toBe("low");
    // A drop and very high: the drop.
    expect(cat({ ...prev, inRange: 500, above180: 500, above250: 100 })).toBe("tirDrop");
    // Very high and low wear: very high.
    expect(cat({ above250: 60, above180: 60, inRange: 940, slots: 100 })).toBe("veryHigh");
  });

  it("figures: wear, the previous time in range and the change, worked out by hand", () => {
    // Now 650 of 1000 in range (65 %), 350 above 180 (35 %), 60 above 250 (6 %); 2016 slots of
    // 4032 (50 %); previous 720 of 900 (80 %): change 65 - 80 = -15 points.
    const f = triageFigures(
      full({
        inRange: 650,
        above180: 350,
        above250: 60,
        slots: 2016,
        expectedSlots: 4032,
        prevReadings: 900,
        prevInRange: 720,
        prevSlots: 900,
        prevExpectedSlots: 1000,
      }),
      NOW,
    );
    expect(f.above180).toBeCloseTo(35, 12);
    expect(f.above250).toBeCloseTo(6, 12);
    expect(f.wear).toBeCloseTo(50, 12);
    expect(f.prevTir).toBeCloseTo(80, 12);
    expect(f.tirChange).toBeCloseTo(-15, 12);
    // Current wear 50 %: the drop is not judged; 6 % above 250: very high.
    expect(f.category).toBe("veryHigh");
  });
});
