import { describe, expect, it } from "vitest";
import {
  centimetres,
  cmToFeetInches,
  feetInchesToCm,
  heightInCm,
  weightIn,
  weightToKg,
} from "./body-measures";

// Hand computed: 1 lb = 0.45359237 kg, 1 in = 2.54 cm.
describe("weights", () => {
  it("stores kilograms to 0.01 and shows them to 0.1 in either unit: a typed weight comes back as typed", () => {
    expect(weightToKg(150, 1)).toBe(68.04); // 68.0388555
    expect(weightToKg(72.456, 0)).toBe(72.46);
    expect(weightIn(68.04, 1)).toBe(150); // 150.0008...
    expect(weightIn(68, 1)).toBe(149.9); // 149.914...
    expect(weightIn(100, 1)).toBe(220.5); // 220.462...
    expect(weightIn(72.46, 0)).toBe(72.5);
  });
});

describe("heights", () => {
  it("converts feet and inches to centimetres, to 0.01", () => {
    expect(feetInchesToCm(5, 9)).toBe(175.26); // 69 in
    expect(feetInchesToCm(6, 0)).toBe(182.88); // 72 in
    expect(feetInchesToCm(1, 3.8)).toBe(40.13); // 15.8 in = 40.132 cm
    expect(centimetres(172.456)).toBe(172.46);
    expect(heightInCm(172.46)).toBe(172.5);
  });

  it("shows centimetres as whole feet and inches to 0.1", () => {
    expect(cmToFeetInches(175.26)).toEqual({ feet: 5, inches: 9 });
    expect(cmToFeetInches(175.3)).toEqual({ feet: 5, inches: 9 }); // 69.016 in
    expect(cmToFeetInches(180)).toEqual({ feet: 5, inches: 10.9 }); // 70.866 in
    expect(cmToFeetInches(182.88)).toEqual({ feet: 6, inches: 0 });
  });
});
