import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, createRng, DEMO_DAYS, RAW_RATE_STEP, SCRIPT } from "./demo-data";

const today = Temporal.PlainDate.from("2026-11-23"); // the window holds the 25-hour day of 2026-10-25
const data = buildDemoData(today);

describe("demo data", () => {
  it("is deterministic", () => {
    const again = buildDemoData(today);
    expect(again.cgm.map((p) => p.raw)).toEqual(data.cgm.map((p) => p.raw));
    expect(again.pump.length).toBe(data.pump.length);
    expect(createRng(1)()).toBe(createRng(1)());
    expect(createRng(1)()).not.toBe(createRng(2)());
  });

  it("covers 30 full local days ending at today's midnight", () => {
    expect(data.start.toPlainDate().toString()).toBe("2026-10-24");
    expect(data.end.toPlainDate().toString()).toBe("2026-11-23");
    const days = new Set(data.cgm.map((p) => p.at.toPlainDate().toString()));
    expect(days.size).toBe(DEMO_DAYS);
    expect(data.cgm.every((p) => Temporal.ZonedDateTime.compare(p.at, data.end) < 0)).toBe(true);
  });

  it("reads every 5 minutes, with values that are 1.8 x a raw integer between 40 and 400 mg/dL", () => {
    for (const p of data.cgm) {
      expect(p.mgdl).toBeCloseTo(p.raw * 1.8, 6);
      expect(p.mgdl).toBeGreaterThanOrEqual(39.6);
      expect(p.mgdl).toBeLessThanOrEqual(399.6);
    }
    const steps = data.cgm
      .slice(1)
      .map((p, i) => (p.at.epochMilliseconds - data.cgm[i]!.at.epochMilliseconds) / 60_000);
    expect(steps.filter((m) => m === 5).length / steps.length).toBeGreaterThan(0.99);
  });

  it("has the scripted sensor gap, hypos and highs", () => {
    const gapDay = data.start.toPlainDate().add({ days: SCRIPT.sensorGapDay }).toString();
    const inGap = data.cgm.filter(
      (p) => p.at.toPlainDate().toString() === gapDay && p.at.hour >= 10 && p.at.hour < 16,
    );
    expect(inGap).toEqual([]);
    expect(data.cgm.filter((p) => p.mgdl < 54).length).toBeGreaterThan(10);
    expect(data.cgm.filter((p) => p.mgdl > 250).length).toBeGreaterThan(10);
    const tir = data.cgm.filter((p) => p.mgdl >= 70 && p.mgdl <= 180).length / data.cgm.length;
    expect(tir).toBeGreaterThan(0.6);
    expect(tir).toBeLessThan(0.97);
  });

  it("keeps meal times on the wall clock across the daylight-saving change", () => {
    const breakfastHours = data.meals.filter((_, i) => i % 3 === 0).map((m) => m.at.hour);
    expect(Math.min(...breakfastHours)).toBeGreaterThanOrEqual(6);
  });

  it("gives boluses that integrate to the carbohydrate ratio (10 g per unit)", () => {
    let units = 0;
    for (let i = 1; i < data.pump.length; i++) {
      const prev = data.pump[i - 1]!;
      units +=
        ((data.pump[i]!.at.epochMilliseconds - prev.at.epochMilliseconds) / 3600_000) *
        prev.bolusRaw *
        RAW_RATE_STEP;
    }
    const grams = data.meals.reduce((sum, m) => sum + m.grams, 0);
    expect(units).toBeCloseTo(grams / 10, 0);
  });

  it("includes carbohydrate entries and each scripted alarm", () => {
    const codes = data.pump.map((e) => `${e.port}/${e.type}`);
    expect(codes.filter((c) => c === "3/1").length).toBe(data.meals.length);
    for (const code of ["4/8", "4/7", "4/5", "4/2", "5/0", "4/1"]) expect(codes).toContain(code);
  });
});
