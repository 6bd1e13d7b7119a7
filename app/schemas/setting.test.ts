import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, logoSchema, settingsSchema } from "./setting";

function formData(values: Record<string, string | File>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
}

const valid = { unit: "1", weightUnit: "1", heightUnit: "0", orientation: "landscape", nameStyle: "2" };

/** The form's messages by field, as conform reports them. */
function errors(values: Record<string, string | File>, schema: typeof settingsSchema | typeof logoSchema = settingsSchema) {
  const submission = parseWithZod(formData(values), { schema });
  return submission.status === "success" ? {} : submission.reply().error;
}

describe("settings schema", () => {
  it("turns the form's codes into the stored values; a ticked checkbox is a split line, none is off", () => {
    const on = parseWithZod(formData({ ...valid, splitLine: "on" }), { schema: settingsSchema });
    expect(on.status === "success" && on.value).toEqual({ unit: 1, weightUnit: 1, heightUnit: 0, orientation: "landscape", nameStyle: 2, splitLine: true });
    const off = parseWithZod(formData(valid), { schema: settingsSchema });
    expect(off.status === "success" && off.value.splitLine).toBe(false);
  });

  it("names each bad or missing choice with its own message", () => {
    expect(errors({ ...valid, unit: "2" })).toEqual({ unit: ["errors.unit"] });
    expect(errors({ ...valid, weightUnit: "" })).toEqual({ weightUnit: ["errors.weightUnit"] });
    expect(errors({ ...valid, heightUnit: "inch" })).toEqual({ heightUnit: ["errors.heightUnit"] });
    expect(errors({ ...valid, orientation: "sideways" })).toEqual({ orientation: ["errors.orientation"] });
    expect(errors({ ...valid, nameStyle: "3" })).toEqual({ nameStyle: ["errors.nameStyle"] });
    expect(errors({ ...valid, splitLine: "yes" })).toEqual({ splitLine: ["errors.splitLine"] });
    const { unit: _unit, orientation: _orientation, ...rest } = valid;
    expect(errors(rest)).toEqual({ unit: ["errors.unit"], orientation: ["errors.orientation"] });
  });
});

describe("logo schema", () => {
  const file = (size: number, name = "logo.png") => new File([new Uint8Array(size)], name, { type: "image/png" });

  it("needs a file, and at most LOGO_MAX_BYTES of it", () => {
    expect(errors({ logo: file(LOGO_MAX_BYTES) }, logoSchema)).toEqual({});
    expect(errors({ logo: file(LOGO_MAX_BYTES + 1) }, logoSchema)).toEqual({ logo: ["errors.logoTooLarge"] });
    expect(errors({ logo: new File([], "") }, logoSchema)).toEqual({ logo: ["errors.logoMissing"] });
    expect(errors({}, logoSchema)).toEqual({ logo: ["errors.logoMissing"] });
    expect(errors({ logo: "not a file" }, logoSchema)).toEqual({ logo: ["errors.logoMissing"] });
  });
});
