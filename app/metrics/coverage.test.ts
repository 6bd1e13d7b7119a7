import { describe, expect, it } from "vitest";
import { createContext } from "./context";
import { ctxOf, DAY, HOUR, MIN } from "./test-utils";
import type { Reading } from "./types";

const START = Date.UTC(2024, 0, 1);

/** `days` days of 5-minute CGM from START, keeping the fraction `wear` of each day. */
function cgm(days: number, wear = 1): Reading[] {
  const out: Reading[] = [];
  const keep = Math.round(288 * wear);
  for (let d = 0; d < days; d++)
    for (let c = 0; c < keep; c++)
      out.push({ time: START + d * DAY + c * 5 * MIN, mgdl: 120 + (c % 30) });
  return out;
}

/** `perDay` meter readings a day (at 7:00, 12:00, 18:00, 22:00) for `days` days. */
function meter(days: number, perDay: number): Reading[] {
  const hours = [7, 12, 18, 22].slice(0, perDay);
  const out: Reading[] = [];
  for (let d = 0; d < days; d++)
    for (const h of hours) out.push({ time: Date.UTC(2024, 0, 1) + d * DAY + h * HOUR, mgdl: 140 });
  return out;
}

describe("coverage and the sufficiency rules", () => {
  it("CGM: 14 days with >= 70% active meet the consensus rule", () => {
    const c = createContext(cgm(14)).coverage;
    expect(c.kind).toBe("cgm");
    expect(c.periodDays).toBe(14);
    expect(c.activePercent).toBe(100);
    expect(c.fullDays).toBe(14);
    expect(c).toMatchObject({ standard: true, grid: true, agp: true });
  });

  it("CGM: 13 days, or 14 days with too little wear, are not sufficient", () => {
    expect(createContext(cgm(13)).coverage.standard).toBe(false);
    // 60% of each day worn (one block a day): active ~ 60%.
    const c = createContext(cgm(14, 0.6)).coverage;
    expect(c.activePercent!).toBeLessThan(70);
    expect(c.standard).toBe(false);
    expect(c.fullDays).toBe(0);
    expect(c.agp).toBe(false);
  });

  it("meter data: 14 days with >= 3 readings a day", () => {
    const ok = createContext(meter(14, 3)).coverage;
    expect(ok.kind).toBe("meter");
    expect(ok.daysWithThreeReadings).toBe(14);
    expect(ok).toMatchObject({ standard: true, grid: false, agp: false });
    const few = createContext(meter(14, 2)).coverage;
    expect(few.daysWithData).toBe(14);
    expect(few.standard).toBe(false);
  });

  it("kind can be forced; sparse data forced to CGM is not well worn", () => {
    const c = createContext(meter(14, 4), { kind: "cgm" }).coverage;
    expect(c).toMatchObject({ kind: "cgm", standard: false });
    // Median interval 5 h: iglu's active percent measures against 5 h, the wear against 15 min.
    expect(c.activePercent!).toBeGreaterThan(70);
    expect(c.wearPercent!).toBeLessThan(10);
    expect(createContext(meter(14, 3), { kind: "meter" }).coverage.standard).toBe(true);
  });

  it("no data", () => {
    const c = ctxOf([]).coverage;
    expect(c).toMatchObject({
      readings: 0,
      periodDays: 0,
      activePercent: null,
      samplingIntervalMin: null,
      standard: false,
      agp: false,
    });
  });
});
