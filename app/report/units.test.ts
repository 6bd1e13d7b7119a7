import { describe, expect, it } from "vitest";
import { fromUnit } from "../domain/glucose-unit";
import {
  classify,
  displayGlucose,
  formatGlucose,
  formatNumber,
  formatQuantity,
  glucoseDisplay,
  isAboveRange,
  isBelowRange,
  roundHalfUp,
  unitCode,
  VERY_HIGH_MGDL,
  VERY_LOW_MGDL,
} from "./units";

const limits = { low: 70, high: 180 };

describe("unit codes", () => {
  it("0 is mmol/L, 1 mg/dL", () => {
    expect(unitCode(0)).toBe("mmol/L");
    expect(unitCode(1)).toBe("mg/dL");
  });
});

describe("rounding for display", () => {
  it("half away from zero on the decimal value as written", () => {
    expect(roundHalfUp(3.95, 1)).toBe(4);
    expect(roundHalfUp(71.1 / 18, 1)).toBe(4); // 3.9499999999999997 in binary
    expect(roundHalfUp(3.94, 1)).toBe(3.9);
    expect(roundHalfUp(99.5, 0)).toBe(100);
    expect(roundHalfUp(-0.05, 1)).toBe(-0.1);
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(Object.is(roundHalfUp(-0.01, 1), 0)).toBe(true);
  });

  it("mmol/L to 0.1, mg/dL to 1", () => {
    expect(displayGlucose(70.2, 0)).toBe(3.9);
    expect(displayGlucose(99, 0)).toBe(5.5);
    expect(displayGlucose(100, 0)).toBe(5.6); // 5.555...
    expect(displayGlucose(70.2, 1)).toBe(70);
    expect(displayGlucose(180.5, 1)).toBe(181);
  });
});

describe("formatGlucose", () => {
  it("en: point decimal separator for mmol/L, integers for mg/dL", () => {
    expect(formatGlucose(99, 0, "en")).toBe("5.5");
    expect(formatGlucose(180, 0, "en")).toBe("10.0");
    expect(formatGlucose(70.2, 0, "en")).toBe("3.9");
    expect(formatGlucose(99, 1, "en")).toBe("99");
    expect(formatGlucose(70.2, 1, "en")).toBe("70");
  });

  it("pl: comma decimal separator; no grouping for large mg/dL values", () => {
    expect(formatGlucose(99, 0, "pl")).toBe("5,5");
    expect(formatGlucose(70.2, 0, "pl")).toBe("3,9");
    expect(formatGlucose(180, 0, "pl")).toBe("10,0");
    expect(formatGlucose(99, 1, "pl")).toBe("99");
    expect(formatGlucose(1234, 1, "pl")).toBe("1234");
    expect(formatGlucose(99, 0, "ru")).toBe("5,5");
    expect(formatGlucose(99, 0, "it")).toBe("5,5");
  });

  it("missing values and an unknown locale", () => {
    expect(formatGlucose(null, 0, "en")).toBe("—");
    expect(formatGlucose(Number.NaN, 1, "en")).toBe("—");
    expect(formatGlucose(99, 0, "not a locale!")).toBe("5.5");
  });

  it("formatNumber for insulin and grams", () => {
    expect(formatNumber(12.345, 2, "pl")).toBe("12,35");
    expect(formatNumber(0.05, 2, "en")).toBe("0.05");
    expect(formatNumber(null, 1, "en")).toBe("—");
  });
});

describe("formatQuantity: counts and amounts in running text", () => {
  const NBSP = "\u00a0";
  it("groups thousands as each language does", () => {
    expect(formatQuantity(2016, "en")).toBe("2,016");
    expect(formatQuantity(2016, "ru")).toBe(`2${NBSP}016`);
    expect(formatQuantity(2016, "ro")).toBe("2.016");
    // Polish and Italian leave four digits together and group from five.
    expect(formatQuantity(2016, "pl")).toBe("2016");
    expect(formatQuantity(2016, "it")).toBe("2016");
    expect(formatQuantity(12016, "pl")).toBe(`12${NBSP}016`);
    expect(formatQuantity(12016, "it")).toBe("12.016");
    expect(formatQuantity(1234567, "en")).toBe("1,234,567");
  });

  it("writes the language's decimal separator, without adding decimals", () => {
    expect(formatQuantity(7.5, "en")).toBe("7.5");
    expect(formatQuantity(7.5, "pl")).toBe("7,5");
    expect(formatQuantity(7.5, "ru")).toBe("7,5");
    expect(formatQuantity(7.5, "it")).toBe("7,5");
    expect(formatQuantity(7.5, "ro")).toBe("7,5");
    expect(formatQuantity(3, "pl")).toBe("3");
    expect(formatQuantity(0.1234, "en")).toBe("0.123");
    expect(formatQuantity(1234.5, "ro")).toBe("1.234,5");
  });
});

describe("classify (before rounding)", () => {
  it("70 and 180 mg/dL are in range; the next values out", () => {
    expect(classify(70, limits)).toBe("inRange");
    expect(classify(180, limits)).toBe("inRange");
    expect(classify(69.99, limits)).toBe("low");
    expect(classify(180.01, limits)).toBe("high");
  });

  it("3.9 mmol/L = 70.2 mg/dL is in range; 69.9 shows as 3.9 yet is low", () => {
    expect(classify(fromUnit(3.9, 0), limits)).toBe("inRange");
    expect(formatGlucose(69.9, 0, "en")).toBe("3.9");
    expect(classify(69.9, limits)).toBe("low");
    // 180.4 shows as "10.0" mmol/L and "180" mg/dL, but is high.
    expect(formatGlucose(180.4, 0, "en")).toBe("10.0");
    expect(formatGlucose(180.4, 1, "en")).toBe("180");
    expect(classify(180.4, limits)).toBe("high");
  });

  it("very low < 54 and very high > 250 mg/dL", () => {
    expect(VERY_LOW_MGDL).toBe(54);
    expect(VERY_HIGH_MGDL).toBe(250);
    expect(classify(53.9, limits)).toBe("veryLow");
    expect(classify(54, limits)).toBe("low");
    expect(classify(250, limits)).toBe("high");
    expect(classify(250.1, limits)).toBe("veryHigh");
  });

  it("the fixed bands apply whatever the patient's limits", () => {
    expect(classify(52, { low: 50, high: 300 })).toBe("veryLow");
    expect(classify(260, { low: 50, high: 300 })).toBe("veryHigh");
    expect(classify(200, { low: 50, high: 300 })).toBe("inRange");
    expect(classify(100, { low: 110, high: 150 })).toBe("low");
  });

  it("rejects limits that are not low < high", () => {
    expect(() => classify(100, { low: 180, high: 70 })).toThrow(RangeError);
  });

  it("below and above helpers", () => {
    expect(isBelowRange("veryLow") && isBelowRange("low")).toBe(true);
    expect(isBelowRange("inRange")).toBe(false);
    expect(isAboveRange("high") && isAboveRange("veryHigh")).toBe(true);
    expect(isAboveRange("inRange")).toBe(false);
  });

  it("glucoseDisplay bundles value, text, unit code and class", () => {
    expect(glucoseDisplay(69.9, 0, "pl", limits)).toEqual({
      mgdl: 69.9,
      value: 3.9,
      text: "3,9",
      unit: 0,
      unitCode: "mmol/L",
      class: "low",
    });
    expect(glucoseDisplay(252, 1, "en", limits)).toEqual({
      mgdl: 252,
      value: 252,
      text: "252",
      unit: 1,
      unitCode: "mg/dL",
      class: "veryHigh",
    });
  });
});
