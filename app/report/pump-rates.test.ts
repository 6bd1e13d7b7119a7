import { describe, expect, it } from "vitest";
import { roundToStep } from "./pump-rates";

describe("roundToStep", () => {
  it("rounds bolus units to 0.05 U", () => {
    expect(roundToStep(3.3000000000000003, 0.05)).toBe(3.3);
    expect(roundToStep(1.024, 0.05)).toBe(1);
    expect(roundToStep(1.025, 0.05)).toBe(1.05);
    expect(roundToStep(0.9, 0.05)).toBe(0.9);
  });
});
