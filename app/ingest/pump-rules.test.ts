import { describe, expect, it } from "vitest";
import { BolusCheck, checkPumpVersion, derivePumpRecord, isKnownPumpEvent } from "./pump-rules";

describe("checkPumpVersion", () => {
  it("accepts x.y.z pump firmware from 5.0.0, with the special versions", () => {
    expect(checkPumpVersion("5.3.0")).toEqual({ ok: true, version: "5.3.0" });
    expect(checkPumpVersion("5.0.10")).toEqual({ ok: true, version: "5.0.10" });
    expect(checkPumpVersion("5.0.3C")).toEqual({ ok: true, version: "5.0.3C" });
  });
  it("a version starting with 1. is a CGM handheld; other shapes and old firmware are refused", () => {
    expect(checkPumpVersion("1.4.2")).toEqual({ ok: false, key: "errors.cgmPda" });
    expect(checkPumpVersion("1.")).toEqual({ ok: false, key: "errors.cgmPda" });
    expect(checkPumpVersion("5.2")).toEqual({ ok: false, key: "errors.versionFormat" });
    expect(checkPumpVersion(undefined)).toEqual({ ok: false, key: "errors.versionFormat" });
    expect(checkPumpVersion("4.9.9")).toEqual({ ok: false, key: "errors.wrongSoftwareVersion" });
  });
});

describe("event codes", () => {
  it("knows the handheld's codes and nothing else", () => {
    expect(
      [
        [0, 4],
        [0, 7],
        [3, 0],
        [3, 1],
        [4, 0],
        [4, 8],
        [5, 0],
      ].every(([p, t]) => isKnownPumpEvent(p!, t!)),
    ).toBe(true);
    expect(
      [
        [0, 0],
        [0, 8],
        [3, 2],
        [4, 4],
        [5, 1],
        [6, 0],
      ].some(([p, t]) => isKnownPumpEvent(p!, t!)),
    ).toBe(false);
  });
});

describe("derivePumpRecord", () => {
  const carb = (bolusRateRaw: number) => ({
    eventPort: 3,
    eventType: 1,
    eventUrgency: 0,
    bolusRateRaw,
  });
  it("carbohydrate grams come from bolusRateRaw under the firmware and 200 g rules", () => {
    expect(derivePumpRecord(carb(450), "5.1.9").carbGrams).toBe(45); // old firmware: tenths
    expect(derivePumpRecord(carb(45), "5.3.0").carbGrams).toBe(45);
    expect(derivePumpRecord(carb(450), "5.3.0").carbGrams).toBe(45); // above 200: ten times too large
    expect(derivePumpRecord(carb(450), "5.0.10").carbGrams).toBe(45); // special version: grams, then the 200 g rule
    expect(derivePumpRecord(carb(120), "5.0.3C").carbGrams).toBe(120);
    expect(derivePumpRecord(carb(3000), "5.1.0").carbGrams).toBe(30); // 300 after /10, still > 200: /10 again
    expect(derivePumpRecord(carb(0), "5.3.0").carbGrams).toBeNull();
  });
  it("alarms come from the event codes; rewind and prime are not alarms", () => {
    expect(
      derivePumpRecord({ eventPort: 4, eventType: 1, eventUrgency: 1, bolusRateRaw: 0 }, null)
        .alarm,
    ).toBe("low_insulin");
    expect(
      derivePumpRecord({ eventPort: 4, eventType: 3, eventUrgency: 0, bolusRateRaw: 0 }, null)
        .alarm,
    ).toBe("occlusion");
    expect(
      derivePumpRecord({ eventPort: 5, eventType: 0, eventUrgency: 2, bolusRateRaw: 0 }, null)
        .alarm,
    ).toBe("no_power");
    expect(
      derivePumpRecord({ eventPort: 4, eventType: 8, eventUrgency: 0, bolusRateRaw: 0 }, null)
        .alarm,
    ).toBeNull();
    expect(
      derivePumpRecord({ eventPort: 4, eventType: 0, eventUrgency: 0, bolusRateRaw: 0 }, null),
    ).toEqual({ carbGrams: null, alarm: null });
  });
});

describe("BolusCheck", () => {
  const calc = (recordId: number, eventType: number, bolusRateRaw: number) => ({
    recordId,
    eventPort: 0,
    eventType,
    bolusRateRaw,
  });
  const basal = (recordId: number) => ({ recordId, eventPort: 4, eventType: 0, bolusRateRaw: 0 });
  it("flags a calculation whose confirmed bolus is more than 2 U from the suggestion", () => {
    const check = new BolusCheck();
    // 4.50 U suggested, 7.00 U confirmed: 2.5 U apart.
    [calc(1, 4, 180), calc(2, 5, 45), calc(3, 6, 450), calc(4, 7, 700), basal(5)].forEach((r) =>
      check.add(r.recordId, r.eventPort, r.eventType, r.bolusRateRaw),
    );
    // 4.50 U suggested, 6.50 U confirmed: exactly 2 U apart, consistent.
    [calc(6, 4, 150), calc(7, 5, 40), calc(8, 6, 450), calc(9, 7, 650)].forEach((r) =>
      check.add(r.recordId, r.eventPort, r.eventType, r.bolusRateRaw),
    );
    expect(check.finish()).toEqual([1, 2, 3, 4]);
  });
  it("a new calculation starts when the type does not rise; a run without both figures is not judged", () => {
    const check = new BolusCheck();
    [calc(1, 6, 100), calc(2, 6, 500), calc(3, 7, 100), calc(4, 5, 30), calc(5, 7, 900)].forEach(
      (r) => check.add(r.recordId, r.eventPort, r.eventType, r.bolusRateRaw),
    );
    // runs: [1], [2,3] (5.00 vs 1.00: flagged), [4,5] (no suggestion)
    expect(check.finish()).toEqual([2, 3]);
  });
});
