import { describe, expect, it } from "vitest";
import { computeAll } from "./index";
import { toIgluRecord } from "./iglu-keys";
import { allNumbers, DAY, HOUR, loadIgluReadings, readingsAt } from "./test-utils";
import type { Reading } from "./types";

const subject1 = loadIgluReadings().get("Subject 1")!;

/** Deterministic shuffle (LCG). */
function shuffled<T>(xs: readonly T[], seed = 12345): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("computeAll", () => {
  it("reference subject: every metric present, sufficient where the rules say so", () => {
    const m = computeAll(subject1);
    expect(m.meta).toMatchObject({
      timeZone: "UTC",
      inputReadings: 2915,
      readings: 2915,
      droppedInvalid: 0,
      mergedDuplicates: 0,
    });
    expect(m.meta.gridStart).toBe(Date.UTC(2015, 5, 6));
    // 14 local days (6-19 June 2015) with 79.8% sensor activity: the consensus rule holds.
    expect(m.coverage).toMatchObject({
      kind: "cgm",
      periodDays: 14,
      standard: true,
      grid: true,
      agp: true,
    });
    for (const r of [
      m.mean,
      m.sd,
      m.cv,
      m.lbgi,
      m.adrr,
      m.mage,
      m.modd,
      m.conga1,
      m.conga4,
      m.mag,
      m.auc100,
      m.aac100,
      m.gmi,
      m.agp,
    ]) {
      expect(r.value).not.toBeNull();
      expect(r.sufficient).toBe(true);
    }
    // GRI 7.19 -> zone A; LBGI 0.43 -> minimal risk; HBGI 1.81 low; ADRR 15.2 low.
    expect(m.controlLevel).toEqual({ value: "ideal", sufficient: true });
    expect(m.riskLevels.lbgi.value).toBe("extremelyLow");
    expect(m.riskLevels.hbgi.value).toBe("low");
    expect(m.riskLevels.adrr.value).toBe("low");
    expect(m.trend.value?.level).toBeTypeOf("string");
    expect(m.alarm.sufficient).toBe(true);
    expect(m.targets.value?.tir).toBe(true);
    expect(allNumbers(m).every(Number.isFinite)).toBe(true);
  });

  it("does not depend on input order or on repeated copies of readings", () => {
    const base = JSON.stringify(toIgluRecord(computeAll(subject1)));
    const messy = shuffled([...subject1, ...subject1.slice(100, 400)]);
    const m = computeAll(messy);
    expect(m.meta.mergedDuplicates).toBe(300);
    expect(JSON.stringify(toIgluRecord(m))).toBe(base);
  });

  it("drops invalid readings before computing", () => {
    const withJunk: Reading[] = [
      ...subject1,
      { time: subject1[10]!.time + 1000, mgdl: 0 },
      { time: Number.NaN, mgdl: 100 },
      { time: subject1[20]!.time + 1000, mgdl: -5 },
    ];
    const m = computeAll(withJunk);
    expect(m.meta.droppedInvalid).toBe(3);
    expect(m.mean.value).toBe(computeAll(subject1).mean.value);
  });

  it("degenerate inputs give nulls and false, never NaN", () => {
    const cases: Reading[][] = [
      [],
      [{ time: Date.UTC(2024, 0, 1), mgdl: 100 }],
      [{ time: Date.UTC(2024, 0, 1), mgdl: Number.NaN }],
      [
        { time: Date.UTC(2024, 0, 1), mgdl: 100 },
        { time: Date.UTC(2024, 0, 3), mgdl: 100 },
      ],
      readingsAt(new Array(30).fill(120)),
    ];
    for (const rs of cases) {
      const m = computeAll(rs);
      expect(allNumbers(m).some(Number.isNaN)).toBe(false);
      expect(JSON.stringify(m)).not.toContain("NaN");
      expect(m.mage.sufficient).toBe(false);
      expect(m.agp.sufficient).toBe(false);
    }
    const empty = computeAll([]);
    expect(empty.mean).toEqual({ value: null, sufficient: false });
    expect(empty.agp).toEqual({ value: null, sufficient: false });
    expect(empty.controlLevel).toEqual({ value: null, sufficient: false });
    expect(empty.meta.firstTime).toBeNull();
    const flat = computeAll(readingsAt(new Array(30).fill(120)));
    expect(flat.sd.value).toBe(0);
    expect(flat.mage.value).toBeNull();
    expect(flat.trend.value?.level).toBe("steady");
  });

  it("meter data: raw-reading metrics, no CGM grid metrics", () => {
    const rs: Reading[] = [];
    const t0 = Date.UTC(2024, 0, 1);
    for (let d = 0; d < 14; d++)
      for (const [h, g] of [
        [7, 110],
        [13, 190],
        [19, 140],
        [23, 95],
      ] as const)
        rs.push({ time: t0 + d * DAY + h * HOUR, mgdl: g });
    const m = computeAll(rs);
    expect(m.coverage.kind).toBe("meter");
    expect(m.mean).toEqual({ value: (110 + 190 + 140 + 95) / 4, sufficient: true });
    expect(m.lbgi.sufficient).toBe(true);
    expect(m.adrr.sufficient).toBe(true);
    expect(m.mage).toEqual({ value: null, sufficient: false });
    expect(m.modd.sufficient).toBe(false);
    expect(m.agp.sufficient).toBe(false);
    expect(m.trend.value).toBeNull();
  });

  it("options: M-value reference, alarm limits, time zone", () => {
    const rs = readingsAt([60, 120, 240, 100, 110, 120, 125]);
    expect(computeAll(rs, { mValueRef: 120 }).meta.mValueRef).toBe(120);
    expect(computeAll(rs, { mValueRef: 120 }).mValue.value).not.toBe(computeAll(rs).mValue.value);
    expect(computeAll(rs, { limits: { low: 70, high: 120 } }).alarm.value).toBe("high");
    expect(computeAll(rs).alarm.value).toBe("none");
    expect(() => computeAll(rs, { timeZone: "Not/AZone" })).toThrow(RangeError);
    expect(() => computeAll(rs, { limits: { low: 200, high: 100 } })).toThrow(RangeError);
    expect(() => computeAll(rs, { mValueRef: -1 })).toThrow(RangeError);
    const warsaw = computeAll(readingsAt([100, 110], Date.UTC(2024, 0, 1, 23, 30)), {
      timeZone: "Europe/Warsaw",
    });
    // 23:30Z on 1 January is 00:30 on 2 January in Warsaw: the grid starts at that local midnight.
    expect(warsaw.meta.gridStart).toBe(Date.UTC(2024, 0, 1, 23));
    expect(warsaw.meta.gridPoints).toBe((30 + 5) / 5);
  });
});
