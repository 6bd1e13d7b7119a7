import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  accountZoneSchema,
  LOGO_MAX_BYTES,
  logoSchema,
  settingsSchema,
  settingUpdateSchema,
} from "./setting";

function formData(values: Record<string, string | File>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
}

const valid = {
  lang: "it",
  unit: "1",
  weightUnit: "1",
  heightUnit: "0",
  orientation: "landscape",
  nameStyle: "2",
};

/** The form's messages by field, as conform reports them. */
function errors(
  values: Record<string, string | File>,
  schema: typeof settingsSchema | typeof logoSchema = settingsSchema,
) {
  const submission = parseWithZod(formData(values), { schema });
  return submission.status === "success" ? {} : submission.reply().error;
}

describe("settings schema", () => {
  it("turns the form's codes into the stored values; a ticked checkbox is a split line, none is off", () => {
    const on = parseWithZod(formData({ ...valid, splitLine: "on" }), { schema: settingsSchema });
    expect(on.status === "success" && on.value).toEqual({
      lang: "it",
      unit: 1,
      weightUnit: 1,
      heightUnit: 0,
      orientation: "landscape",
      nameStyle: 2,
      splitLine: true,
    });
    const off = parseWithZod(formData(valid), { schema: settingsSchema });
    expect(off.status === "success" && off.value.splitLine).toBe(false);
  });

  it("names each bad or missing choice with its own message", () => {
    expect(errors({ ...valid, lang: "de" })).toEqual({ lang: ["errors.lang"] });
    expect(errors({ ...valid, unit: "2" })).toEqual({ unit: ["errors.unit"] });
    expect(errors({ ...valid, weightUnit: "" })).toEqual({ weightUnit: ["errors.weightUnit"] });
    expect(errors({ ...valid, heightUnit: "inch" })).toEqual({ heightUnit: ["errors.heightUnit"] });
    expect(errors({ ...valid, orientation: "sideways" })).toEqual({
      orientation: ["errors.orientation"],
    });
    expect(errors({ ...valid, nameStyle: "3" })).toEqual({ nameStyle: ["errors.nameStyle"] });
    expect(errors({ ...valid, splitLine: "yes" })).toEqual({ splitLine: ["errors.splitLine"] });
    const { unit: _unit, orientation: _orientation, ...rest } = valid;
    expect(errors(rest)).toEqual({ unit: ["errors.unit"], orientation: ["errors.orientation"] });
  });
});

describe("logo schema", () => {
  const file = (size: number, name = "logo.png") =>
    new File([new Uint8Array(size)], name, { type: "image/png" });

  it("needs a file, and at most LOGO_MAX_BYTES of it", () => {
    expect(errors({ logo: file(LOGO_MAX_BYTES) }, logoSchema)).toEqual({});
    expect(errors({ logo: file(LOGO_MAX_BYTES + 1) }, logoSchema)).toEqual({
      logo: ["errors.logoTooLarge"],
    });
    expect(errors({ logo: new File([], "") }, logoSchema)).toEqual({
      logo: ["errors.logoMissing"],
    });
    expect(errors({}, logoSchema)).toEqual({ logo: ["errors.logoMissing"] });
    expect(errors({ logo: "not a file" }, logoSchema)).toEqual({ logo: ["errors.logoMissing"] });
  });
});

describe("setting update schema (POST /api/setting/update)", () => {
  const meals = {
    pid: 12,
    timeZone: "Europe/Warsaw",
    breakfastTime: ["06:00:00", "10:00:00"],
    lunchTime: ["11:30:00", "14:00:00"],
    supperTime: ["17:00:00", "20:15:30"],
  };
  /** The messages of a refused body, by path ("" for the body itself). */
  const problems = (body: unknown) => {
    const result = settingUpdateSchema.safeParse(body);
    return result.success
      ? null
      : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
  };

  it("reads the language body", () => {
    expect(settingUpdateSchema.parse({ lang: "ro" })).toEqual({ shape: "language", lang: "ro" });
  });

  it("reads the unit body, 0 or 1 as a number or its digit", () => {
    expect(settingUpdateSchema.parse({ unit: 1 })).toEqual({ shape: "unit", unit: 1 });
    expect(settingUpdateSchema.parse({ unit: "0" })).toEqual({ shape: "unit", unit: 0 });
  });

  it("reads a patient's zone and meal windows, the times as seconds after midnight", () => {
    // 06:00 = 21600 s, 10:00 = 36000 s, 11:30 = 41400 s, 14:00 = 50400 s, 17:00 = 61200 s, 20:15:30 = 72930 s.
    expect(settingUpdateSchema.parse(meals)).toEqual({
      shape: "patient",
      pid: 12,
      timeZone: "Europe/Warsaw",
      breakfastTime: [21600, 36000],
      lunchTime: [41400, 50400],
      supperTime: [61200, 72930],
    });
  });

  it.each([
    [{ lang: "de" }, [["lang", "errors.lang"]]],
    [{ lang: "PL" }, [["lang", "errors.lang"]]],
    [{ unit: 2 }, [["unit", "errors.unit"]]],
    [{ unit: true }, [["unit", "errors.unit"]]],
    [{ unit: "mg/dL" }, [["unit", "errors.unit"]]],
    [{ unit: 0.5 }, [["unit", "errors.unit"]]],
  ])("refuses %j with its own message", (body, expected) => {
    expect(problems(body)).toEqual(expected);
  });

  it("refuses a body that is none of the three, and a `shape` sent by the client", () => {
    for (const body of [
      {},
      { language: "pl" },
      { shape: "language", lang: "pl" },
      null,
      [],
      "lang=pl",
      1,
    ]) {
      expect([body, problems(body)?.[0]?.[1]]).toEqual([body, "errors.updateShape"]);
    }
  });

  it("refuses keys a body does not name (strict), also a mix of two bodies", () => {
    expect(problems({ lang: "pl", unit: 1 })).toEqual([["", "errors.unknownField"]]);
    expect(problems({ unit: 1, role: "admin" })).toEqual([["", "errors.unknownField"]]);
    expect(problems({ ...meals, lang: "pl" })).toEqual([["", "errors.unknownField"]]);
    expect(problems({ ...meals, breakfastStart: "06:00" })).toEqual([["", "errors.unknownField"]]);
  });

  it("refuses a zone the runtime does not know, and a fixed offset", () => {
    expect(problems({ ...meals, timeZone: "Europe/Atlantis" })).toEqual([
      ["timeZone", "errors.timeZone"],
    ]);
    expect(problems({ ...meals, timeZone: "+01:00" })).toEqual([["timeZone", "errors.timeZone"]]);
    expect(problems({ ...meals, timeZone: 1 })).toEqual([["timeZone", "errors.timeZone"]]);
  });

  it("refuses meal times that are not two HH:mm:ss times with the start first", () => {
    expect(problems({ ...meals, breakfastTime: ["10:00:00", "06:00:00"] })).toEqual([
      ["breakfastTime", "errors.mealTimeWrong"],
    ]);
    expect(problems({ ...meals, lunchTime: ["12:00:00", "12:00:00"] })).toEqual([
      ["lunchTime", "errors.mealTimeWrong"],
    ]);
    expect(problems({ ...meals, lunchTime: ["11:00", "14:00"] })).toEqual([
      ["lunchTime.0", "errors.mealTime"],
      ["lunchTime.1", "errors.mealTime"],
    ]);
    expect(problems({ ...meals, supperTime: ["24:00:00", "23:59:59"] })).toEqual([
      ["supperTime.0", "errors.mealTime"],
    ]);
    expect(problems({ ...meals, supperTime: ["17:00:00"] })).toEqual([
      ["supperTime", "errors.mealTime"],
    ]);
    expect(problems({ ...meals, supperTime: ["17:00:00", "18:00:00", "19:00:00"] })).toEqual([
      ["supperTime", "errors.mealTime"],
    ]);
    expect(problems({ ...meals, supperTime: "17:00:00-20:00:00" })).toEqual([
      ["supperTime", "errors.mealTime"],
    ]);
    const { lunchTime: _lunch, ...noLunch } = meals;
    expect(problems(noLunch)).toEqual([["lunchTime", "errors.mealTime"]]);
  });

  it("refuses a pid that is not an id", () => {
    for (const pid of [0, -1, 2 ** 31, true, "12a", 1.5])
      expect([pid, problems({ ...meals, pid })]).toEqual([pid, [["pid", "errors.pid"]]]);
  });
});

describe("the zone of an account's own times", () => {
  const zoneOf = (values: Record<string, string>) => {
    const submission = parseWithZod(formData(values), { schema: accountZoneSchema });
    return submission.status === "success"
      ? { value: submission.value.timeZone }
      : { error: submission.reply().error };
  };
  const problems = (body: unknown) => {
    const result = settingUpdateSchema.safeParse(body);
    return result.success
      ? null
      : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
  };
  const all = {
    lang: "pl",
    unit: 1,
    weightUnit: 0,
    heightUnit: 1,
    orientation: "landscape",
    nameStyle: 2,
    splitLine: false,
  };

  it("the page's form: one of the 31, or none (the empty choice, or nothing sent)", () => {
    expect(zoneOf({ timeZone: "Europe/Warsaw" })).toEqual({ value: "Europe/Warsaw" });
    expect(zoneOf({ timeZone: "UTC" })).toEqual({ value: "UTC" });
    expect(zoneOf({ timeZone: "" })).toEqual({ value: null });
    expect(zoneOf({})).toEqual({ value: null });
  });

  it("the page's form refuses a zone outside the 31, even one the runtime knows", () => {
    for (const zone of ["Asia/Kathmandu", "Europe/Kiev", "Mars/Base", "+01:00", "europe/warsaw"])
      expect([zone, zoneOf({ timeZone: zone })]).toEqual([
        zone,
        { error: { timeZone: ["errors.accountZone"] } },
      ]);
  });

  it("the API's `{ timeZone }` body: a zone of the list, or null or empty for none", () => {
    expect(settingUpdateSchema.parse({ timeZone: "America/New_York" })).toEqual({
      shape: "zone",
      timeZone: "America/New_York",
    });
    expect(settingUpdateSchema.parse({ timeZone: null })).toEqual({
      shape: "zone",
      timeZone: null,
    });
    expect(settingUpdateSchema.parse({ timeZone: "" })).toEqual({ shape: "zone", timeZone: null });
  });

  it("the API's `{ timeZone }` body refuses other zones and values, and other keys beside it", () => {
    for (const timeZone of ["Asia/Kathmandu", "Etc/GMT-3", 60, true, ["UTC"]])
      expect([timeZone, problems({ timeZone })]).toEqual([
        timeZone,
        [["timeZone", "errors.accountZone"]],
      ]);
    expect(problems({ timeZone: "UTC", breakfastTime: ["06:00:00", "10:00:00"] })).toEqual([
      ["", "errors.unknownField"],
    ]);
    // With a language the body is the language body, which takes no zone.
    expect(problems({ lang: "pl", timeZone: "UTC" })).toEqual([["", "errors.unknownField"]]);
  });

  it("the whole settings body takes the zone too; left out, it is not in the output (unchanged)", () => {
    expect(settingUpdateSchema.parse({ ...all, timeZone: "Asia/Tokyo" })).toEqual({
      shape: "settings",
      ...all,
      timeZone: "Asia/Tokyo",
    });
    expect(settingUpdateSchema.parse({ ...all, timeZone: null })).toMatchObject({
      shape: "settings",
      timeZone: null,
    });
    expect("timeZone" in settingUpdateSchema.parse(all)).toBe(false);
    expect(problems({ ...all, timeZone: "Asia/Kathmandu" })).toEqual([
      ["timeZone", "errors.accountZone"],
    ]);
  });

  it("a patient's body still takes any zone the runtime knows", () => {
    const meals = {
      pid: 3,
      timeZone: "Asia/Kathmandu",
      breakfastTime: ["06:00:00", "10:00:00"],
      lunchTime: ["11:00:00", "14:00:00"],
      supperTime: ["17:00:00", "20:00:00"],
    };
    expect(settingUpdateSchema.parse(meals)).toMatchObject({
      shape: "patient",
      timeZone: "Asia/Kathmandu",
    });
  });
});

describe("the reports' paper size", () => {
  const all = {
    lang: "en",
    unit: 1,
    weightUnit: 1,
    heightUnit: 1,
    orientation: "portrait",
    nameStyle: 0,
    splitLine: true,
  };
  const problems = (body: unknown) => {
    const result = settingUpdateSchema.safeParse(body);
    return result.success
      ? null
      : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
  };

  it("the page's form sends a4 or letter; left out, it is not in the output (unchanged)", () => {
    for (const paperSize of ["a4", "letter"]) {
      const read = parseWithZod(formData({ ...valid, paperSize }), { schema: settingsSchema });
      expect(read.status === "success" && read.value.paperSize).toBe(paperSize);
    }
    const without = parseWithZod(formData(valid), { schema: settingsSchema });
    expect(without.status).toBe("success");
    expect(without.status === "success" && Object.keys(without.value)).not.toContain("paperSize");
  });

  it("the page's form refuses any other paper with its own message", () => {
    // (An empty field is no field to the form reader: left out, unchanged.)
    for (const paperSize of ["A4", "Letter", "legal", "a5"])
      expect([paperSize, errors({ ...valid, paperSize })]).toEqual([
        paperSize,
        { paperSize: ["errors.paperSize"] },
      ]);
  });

  it("the API's whole settings body takes it or leaves it out; any other value is refused", () => {
    expect(settingUpdateSchema.parse({ ...all, paperSize: "letter" })).toEqual({
      shape: "settings",
      ...all,
      paperSize: "letter",
    });
    const without = settingUpdateSchema.parse(all);
    expect(without.shape).toBe("settings");
    expect(Object.keys(without)).not.toContain("paperSize");
    for (const paperSize of ["A4", "tabloid", 1, null, true])
      expect([paperSize, problems({ ...all, paperSize })]).toEqual([
        paperSize,
        [["paperSize", "errors.paperSize"]],
      ]);
  });

  it("a body with the paper size alone is read as the whole settings body, which needs the rest", () => {
    expect(problems({ paperSize: "letter" })).toEqual([
      ["lang", "errors.lang"],
      ["unit", "errors.unit"],
      ["weightUnit", "errors.weightUnit"],
      ["heightUnit", "errors.heightUnit"],
      ["orientation", "errors.orientation"],
      ["nameStyle", "errors.nameStyle"],
    ]);
    // The language and unit bodies take no paper size.
    expect(problems({ unit: 1, paperSize: "a4" })).toEqual([
      ["lang", "errors.lang"],
      ["weightUnit", "errors.weightUnit"],
      ["heightUnit", "errors.heightUnit"],
      ["orientation", "errors.orientation"],
      ["nameStyle", "errors.nameStyle"],
    ]);
  });
});
