import { describe, expect, it } from "vitest";
import { checkPumpFirmware } from "./firmware";

describe("checkPumpFirmware", () => {
  it.each([
    ["5.2.0", "grams"],
    ["5.10.1", "grams"],
    ["6.0.0", "grams"],
    ["5.1.9", "x10"],
    ["5.0.0", "x10"],
    ["5.0.10", "grams"],
    ["5.0.3C", "grams"],
    ["5.0.3", "x10"],
    [" 5.2.0 ", "grams"],
  ])("%s stores carbohydrate as %s", (version, carbEncoding) => {
    expect(checkPumpFirmware(version)).toEqual({ ok: true, value: { version: version.trim(), carbEncoding } });
  });

  it.each([
    ["1.2.3", "cgmPda"],
    ["1.", "cgmPda"],
    ["5.2", "versionFormat"],
    ["", "versionFormat"],
    [undefined, "versionFormat"],
    ["5.2.0.1", "versionFormat"],
    ["4.9.9", "wrongSoftwareVersion"],
  ])("refuses %s (%s)", (version, kind) => {
    expect(checkPumpFirmware(version)).toEqual({ ok: false, error: { kind } });
  });
});
