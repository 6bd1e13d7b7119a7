import { describe, expect, it } from "vitest";
import { ea1c, ea1cOf, gmi, gmiOf } from "./a1c";
import { ctxOf } from "./test-utils";

describe("GMI and eHbA1c", () => {
  it("154 mg/dL: GMI 3.31 + 0.02392 x 154 = 6.99368%; eA1c (46.7 + 154) / 28.7 = 6.99303%", () => {
    expect(gmiOf(154)).toBeCloseTo(6.99368, 12);
    expect(ea1cOf(154)).toBeCloseTo(200.7 / 28.7, 12);
    const ctx = ctxOf([134, 174]);
    expect(gmi(ctx)).toEqual({ value: gmiOf(154), sufficient: false });
    expect(ea1c(ctx).value).toBeCloseTo(6.993031358885017, 12);
  });
  it("no readings: null", () => {
    expect(gmi(ctxOf([]))).toEqual({ value: null, sufficient: false });
  });
});
