import { describe, expect, it } from "vitest";
import { consensusTargetsOf, timeInRangesOf } from "../metrics/ranges";
import {
  belowRangeFlag,
  FLAG_VALUES,
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
    });
  });

  it("uses the consensus bands and goals the AGP report holds (54, 70, 180 mg/dL; 70 %, 4 %)", () => {
    expect(TRIAGE_BANDS).toEqual({ veryLow: 54, low: 70, high: 180 });
    expect(FLAG_VALUES).toEqual({
      noUpload: { days: 7 },
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
