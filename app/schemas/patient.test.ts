import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  fromSavePayload,
  latestToday,
  limitFromMgdl,
  limitToMgdl,
  newPatientSchema,
  normaliseDate,
  parseIdList,
  patientRecordSchema,
  secondsToTime,
  timeToSeconds,
} from "./patient";

/** The messages zod reports, by field. */
function errors(result: {
  success: boolean;
  error?: { issues: { path: (string | number)[]; message: string }[] };
}) {
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? [])
    (out[issue.path.join(".") || "_"] ??= []).push(issue.message);
  return out;
}

const record = { gender: "female", diabetesType: "1", unit: "0", lowLimit: "3.9", highLimit: "10" };
const newPatient = { ...record, email: " Nina@Example.org ", firstName: "Nina", lastName: "Novak" };

function formData(values: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values))
    for (const v of [value].flat()) data.append(key, v);
  return data;
}

describe("glucose range", () => {
  it("needs both limits: 'Please Add Glucose Range'", () => {
    expect(errors(patientRecordSchema.safeParse({ ...record, lowLimit: "" }))).toEqual({
      lowLimit: ["errors.glucoseRangeRequired"],
    });
    expect(errors(patientRecordSchema.safeParse({ ...record, highLimit: undefined }))).toEqual({
      highLimit: ["errors.glucoseRangeRequired"],
    });
  });

  it("refuses a high limit below (or equal to) the low one: 'Glucose Range Not Right'", () => {
    expect(
      errors(patientRecordSchema.safeParse({ ...record, lowLimit: "10", highLimit: "3.9" })),
    ).toEqual({ highLimit: ["errors.glucoseRangeWrong"] });
    expect(
      errors(patientRecordSchema.safeParse({ ...record, lowLimit: "5", highLimit: "5" })),
    ).toEqual({ highLimit: ["errors.glucoseRangeWrong"] });
  });

  it("refuses limits outside 40-400 mg/dL, in the unit's own words", () => {
    expect(
      errors(patientRecordSchema.safeParse({ ...record, lowLimit: "1", highLimit: "10" })),
    ).toEqual({ lowLimit: ["errors.glucoseRangeBoundsMmol"] });
    expect(
      errors(
        patientRecordSchema.safeParse({ ...record, unit: "1", lowLimit: "70", highLimit: "500" }),
      ),
    ).toEqual({ highLimit: ["errors.glucoseRangeBoundsMgdl"] });
    expect(errors(patientRecordSchema.safeParse({ ...record, lowLimit: "abc" }))).toMatchObject({
      lowLimit: ["errors.glucoseRangeInvalid", "errors.glucoseRangeRequired"],
    });
  });

  it("converts mmol/L to whole mg/dL (x18) and keeps mg/dL as typed", () => {
    const mmol = patientRecordSchema.parse(record);
    expect([mmol.lowLimitMgdl, mmol.highLimitMgdl]).toEqual([70, 180]);
    const mgdl = patientRecordSchema.parse({
      ...record,
      unit: "1",
      lowLimit: "72",
      highLimit: "160",
    });
    expect([mgdl.lowLimitMgdl, mgdl.highLimitMgdl]).toEqual([72, 160]);
    expect(
      patientRecordSchema.parse({ ...record, lowLimit: "4.4", highLimit: "7.8" }),
    ).toMatchObject({ lowLimitMgdl: 79, highLimitMgdl: 140 });
  });

  it("shows stored mg/dL in the user's unit; a shown value saved again does not drift", () => {
    expect(limitFromMgdl(70, 0)).toBe(3.9);
    expect(limitFromMgdl(180, 0)).toBe(10);
    expect(limitFromMgdl(70.4, 1)).toBe(70);
    for (const mgdl of [54, 63, 70, 72, 140, 180, 250]) {
      const once = limitToMgdl(limitFromMgdl(mgdl, 0), 0);
      expect(limitToMgdl(limitFromMgdl(once, 0), 0)).toBe(once);
      expect(Math.abs(once - mgdl)).toBeLessThanOrEqual(1);
    }
  });
});

describe("height and weight", () => {
  const parsed = (values: Record<string, string>) => {
    const result = patientRecordSchema.safeParse({ ...record, ...values });
    return result.success
      ? { heightCm: result.data.heightCm, weightKg: result.data.weightKg }
      : null;
  };

  it("stores cm and kg as typed, to 0.01; both may be left out", () => {
    expect(parsed({ height: "172.456", weight: "68.04" })).toEqual({
      heightCm: 172.46,
      weightKg: 68.04,
    });
    expect(parsed({ height: "", weight: "" })).toEqual({
      heightCm: undefined,
      weightKg: undefined,
    });
    expect(parsed({})).toEqual({ heightCm: undefined, weightKg: undefined });
  });

  it("converts feet and inches and pounds (1 in = 2.54 cm, 1 lb = 0.45359237 kg)", () => {
    // 5 ft 9 in = 69 in = 175.26 cm; 150 lb = 68.04 kg; 6 ft alone = 182.88 cm.
    expect(
      parsed({ heightUnit: "1", weightUnit: "1", heightFt: "5", heightIn: "9", weight: "150" }),
    ).toEqual({ heightCm: 175.26, weightKg: 68.04 });
    expect(parsed({ heightUnit: "1", heightFt: "6" })).toEqual({
      heightCm: 182.88,
      weightKg: undefined,
    });
  });

  it("refuses what is not a number, and heights and weights out of bounds in the unit typed", () => {
    expect(
      errors(patientRecordSchema.safeParse({ ...record, height: "tall", weight: "-3" })),
    ).toEqual({
      height: ["errors.heightInvalid"],
      weight: ["errors.weightInvalid"],
    });
    expect(
      errors(patientRecordSchema.safeParse({ ...record, height: "39.9", weight: "401" })),
    ).toEqual({
      height: ["errors.heightBoundsCm"],
      weight: ["errors.weightBoundsKg"],
    });
    // 8 ft 3 in = 251.46 cm; 4 lb = 1.81 kg.
    expect(
      errors(
        patientRecordSchema.safeParse({
          ...record,
          heightUnit: "1",
          weightUnit: "1",
          heightFt: "8",
          heightIn: "3",
          weight: "4",
        }),
      ),
    ).toEqual({ heightFt: ["errors.heightBoundsFtIn"], weight: ["errors.weightBoundsLb"] });
  });
});

describe("required fields of the add-patient form", () => {
  it("gender and diabetes type are required; every message shows at once", () => {
    expect(
      errors(newPatientSchema.safeParse({ email: "a@b.org", lowLimit: "10", highLimit: "4" })),
    ).toEqual({
      gender: ["errors.genderMsg"],
      diabetesType: ["errors.diabetesTypeMsg"],
      highLimit: ["errors.glucoseRangeWrong"],
    });
    expect(errors(patientRecordSchema.safeParse({ ...record, gender: "robot" }))).toEqual({
      gender: ["errors.genderMsg"],
    });
    expect(
      patientRecordSchema.parse({ ...record, gender: "unknown", pronoun: "they" }),
    ).toMatchObject({ gender: "unknown", pronoun: "they" });
    expect(errors(patientRecordSchema.safeParse({ ...record, pronoun: "it" }))).toEqual({
      pronoun: ["errors.pronounInvalid"],
    });
  });

  it("the email is required, trimmed and lower-cased", () => {
    expect(newPatientSchema.parse(newPatient).email).toBe("nina@example.org");
    expect(errors(newPatientSchema.safeParse({ ...newPatient, email: "  " }))).toEqual({
      email: ["errors.emailMsg"],
    });
    expect(errors(newPatientSchema.safeParse({ ...newPatient, email: "nina" }))).toEqual({
      email: ["errors.emailInvalid"],
    });
  });
});

describe("dates, times and ids", () => {
  it("birth dates: YYYY-MM-DD or the API's YYYY/MM/DD, real dates, not in the future", () => {
    expect(normaliseDate("1990/1/31")).toBe("1990-01-31");
    expect(normaliseDate("2023-02-29")).toBeNull();
    expect(patientRecordSchema.parse({ ...record, birthDate: "1985/07/04" }).birthDate).toBe(
      "1985-07-04",
    );
    expect(errors(patientRecordSchema.safeParse({ ...record, birthDate: "1985-13-01" }))).toEqual({
      birthDate: ["errors.birthDateInvalid"],
    });
    expect(errors(patientRecordSchema.safeParse({ ...record, birthDate: "1850-01-01" }))).toEqual({
      birthDate: ["errors.birthDateInvalid"],
    });
    const tomorrowEverywhere = new Date(Date.parse(latestToday()) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(
      errors(patientRecordSchema.safeParse({ ...record, birthDate: tomorrowEverywhere })),
    ).toEqual({ birthDate: ["errors.birthDateFuture"] });
    expect(
      patientRecordSchema.parse({ ...record, birthDate: new Date().toISOString().slice(0, 10) })
        .birthDate,
    ).toBeDefined();
  });

  it("comma-joined option ids, lists and repeated form fields", () => {
    expect(parseIdList("7,8, 9,,8")).toEqual([7, 8, 9]);
    expect(parseIdList(["7", "8,9"])).toEqual([7, 8, 9]);
    expect(parseIdList([3, 4])).toEqual([3, 4]);
    expect(parseIdList("")).toEqual([]);
    expect(parseIdList("7,x")).toBeNull();
    expect(parseIdList("-1")).toBeNull();
    expect(
      patientRecordSchema.parse({ ...record, basicDiseases: "7,8", complication: "13" }),
    ).toMatchObject({ basicDiseases: [7, 8], complication: [13] });
    expect(patientRecordSchema.parse(record)).toMatchObject({
      basicDiseases: [],
      complication: [],
    });
    expect(errors(patientRecordSchema.safeParse({ ...record, complication: "13,abc" }))).toEqual({
      complication: ["errors.optionInvalid"],
    });
  });

  it("meal times: HH:mm or HH:mm:ss, both ends, start before end", () => {
    expect(timeToSeconds("06:30")).toBe(23_400);
    expect(timeToSeconds("06:30:15")).toBe(23_415);
    expect(timeToSeconds("24:00")).toBeNull();
    expect(secondsToTime(23_415)).toBe("06:30");
    expect(secondsToTime(23_415, true)).toBe("06:30:15");
    expect(
      patientRecordSchema.parse({ ...record, breakfastStart: "06:00", breakfastEnd: "09:30:00" }),
    ).toMatchObject({ breakfastStart: 21_600, breakfastEnd: 34_200 });
    expect(
      errors(patientRecordSchema.safeParse({ ...record, lunchStart: "13:00", lunchEnd: "12:00" })),
    ).toEqual({ lunchEnd: ["errors.mealTimeWrong"] });
    expect(errors(patientRecordSchema.safeParse({ ...record, supperStart: "18:00" }))).toEqual({
      supperEnd: ["errors.mealTimeMsg"],
    });
  });

  it("time zones: IANA names the runtime knows", () => {
    expect(patientRecordSchema.parse({ ...record, timeZone: "Europe/Warsaw" }).timeZone).toBe(
      "Europe/Warsaw",
    );
    expect(patientRecordSchema.parse({ ...record, timeZone: "UTC" }).timeZone).toBe("UTC");
    expect(errors(patientRecordSchema.safeParse({ ...record, timeZone: "Mars/Olympus" }))).toEqual({
      timeZone: ["errors.timeZoneInvalid"],
    });
  });
});

describe("the forms (conform) and the API payload", () => {
  it("parses the add-patient form data with checkboxes as the action does", () => {
    const submission = parseWithZod(
      formData({ ...newPatient, basicDiseases: ["7", "8"], complication: "13", pronoun: "" }),
      { schema: newPatientSchema },
    );
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toMatchObject({
      email: "nina@example.org",
      basicDiseases: [7, 8],
      complication: [13],
      lowLimitMgdl: 70,
      highLimitMgdl: 180,
    });
    const bad = parseWithZod(formData({ ...newPatient, lowLimit: "", highLimit: "" }), {
      schema: newPatientSchema,
    });
    expect(bad.status).toBe("error");
    expect(bad.reply().error).toMatchObject({ lowLimit: ["errors.glucoseRangeRequired"] });
  });

  it("reads a list of one patient with the save call's and findOne's names", () => {
    const { patient, count } = fromSavePayload([
      {
        email: "x@y.org",
        complications: [{ id: 13 }],
        basicDiseases: "7,8",
        diabetesType: { id: 1, code: "type1" },
        breakfastTime: ["06:00:00", "10:00:00"],
      },
    ]);
    expect(count).toBe(1);
    const parsed = newPatientSchema.parse({
      ...patient,
      gender: "male",
      lowLimit: 70,
      highLimit: 180,
      unit: 1,
    });
    expect(parsed).toMatchObject({
      complication: [13],
      basicDiseases: [7, 8],
      diabetesType: 1,
      breakfastStart: 21_600,
      breakfastEnd: 36_000,
    });
    expect(fromSavePayload({ email: "bare@object.org" }).count).toBe(1);
    expect(fromSavePayload("nonsense").count).toBe(0);
  });
});

describe("CGM goal set", () => {
  it("is optional (absent and blank mean: keep, or standard for a new record)", () => {
    const absent = patientRecordSchema.safeParse(record);
    expect(absent.success && absent.data.cgmGoalSet).toBeUndefined();
    const blank = patientRecordSchema.safeParse({ ...record, cgmGoalSet: "" });
    expect(blank.success && blank.data.cgmGoalSet).toBeUndefined();
  });

  it("takes the three sets and refuses anything else with a message key", () => {
    for (const set of ["standard", "olderHighRisk", "pregnancy"]) {
      const parsed = newPatientSchema.safeParse({ ...newPatient, cgmGoalSet: set });
      expect(parsed.success && parsed.data.cgmGoalSet).toBe(set);
    }
    expect(errors(patientRecordSchema.safeParse({ ...record, cgmGoalSet: "children" }))).toEqual({
      cgmGoalSet: ["cgmGoalSet.invalid"],
    });
    expect(errors(patientRecordSchema.safeParse({ ...record, cgmGoalSet: 2 }))).toEqual({
      cgmGoalSet: ["cgmGoalSet.invalid"],
    });
  });
});
