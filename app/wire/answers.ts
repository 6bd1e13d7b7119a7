import { z } from "zod";
import { CGM_GOAL_SETS } from "~/domain/cgm-goal-set";

/**
 * The `data` of every `/api/` call's success answer, as zod schemas: what the calls really
 * answer, for the OpenAPI document (app/api-docs/) and for the tests that check every answer
 * against it. The request schemas live in app/schemas; the functions that give the answers their
 * names live beside this module (patient-data.ts, reports.ts, upload.ts).
 *
 * An object whose every field is listed here is strict (a field the code adds without adding it
 * here fails the contract tests); the large report and day models are listed by their top-level
 * fields, and their parts are described but left open.
 */

/** An object of exactly these fields. */
const exact = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** A part of a model that the document describes in words and does not list field by field. */
const part = (description: string) => z.object({}).passthrough().describe(description);

const int = z.number().int();
const id = int.min(1);
const nullableString = z.string().nullable();
/** A local day, YYYY-MM-DD. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** An ISO 8601 instant. */
const instant = z.string().describe("ISO 8601 instant (UTC)");
const epochMs = z.number().describe("epoch milliseconds");
const mgdl = z.number().describe("mg/dL");
const optionalMgdl = mgdl.nullable();

// ---- accounts ----------------------------------------------------------------------------------

/** The caller's own account (getUserInfo; login adds `token` and `active`). */
export const userInfoData = exact({
  name: z.string().describe("first and last name, else the email"),
  financeId: z.null(),
  email: z.string(),
  isPass: int.describe("organisation audit: 0 not sent, 1 approved, 2 refused, 3 in review"),
  identity: int.describe("1 person, 2 clinic"),
  role: z.enum(["guest", "editor", "admin"]),
  userId: id,
  pid: id.nullable().describe("the person's patient record id; null for a clinic"),
  reason: nullableString.describe("why an organisation audit was refused"),
  firstName: nullableString,
  lastName: nullableString,
  unit: int.describe("glucose unit: 0 mmol/L, 1 mg/dL"),
  weightUnit: int.describe("0 kg, 1 lb"),
  heightUnit: int.describe("0 cm, 1 ft/in"),
  lang: z.string(),
  imagePath: nullableString,
  downLoadPercnet: z.literal(100).describe("spelled so; always 100"),
});

export const loginData = userInfoData
  .extend({
    token: z.string(),
    active: z.boolean().describe("our addition: whether the account is activated"),
  })
  .strict();

export const registerData = exact({ userId: id, token: z.string() });

export const randomStringData = exact({
  randomString: z.string().describe("the activation form's origin prefix"),
  origin: z.string().describe("its signed token, sent back as `origin`"),
});

export const activateData = exact({
  creatorShare: exact({
    readPowerId: id,
    creatorName: z.string(),
    creatorEmail: z.string(),
    creatorIdentity: int,
  }).nullable(),
});

export const organisationData = exact({ isPass: z.literal(3) });

export const countryListData = z.array(exact({ code: z.string(), name: z.string() }));

export const optionListData = z.array(
  exact({
    id,
    type: int.describe("0 diabetes type, 1 basic disease, 2 complication"),
    code: z.string(),
    name: z.string(),
  }),
);

// ---- settings ----------------------------------------------------------------------------------

export const settingsData = exact({
  lang: z.enum(["en", "pl", "ru", "it", "ro"]),
  unit: int,
  weightUnit: int,
  heightUnit: int,
  paperSize: z
    .enum(["a4", "letter"])
    .describe("a4 (210 x 297 mm) or letter (US Letter, 8.5 x 11 in)"),
  orientation: z.enum(["portrait", "landscape"]),
  nameStyle: int.describe("0 left, 1 centre, 2 right"),
  splitLine: z.boolean(),
  timeZone: nullableString,
  accountTimeZone: z.string(),
});

const clockPair = z.tuple([z.string(), z.string()]).describe('["HH:mm:ss", "HH:mm:ss"]');

export const patientSettingsData = exact({
  pid: id,
  timeZone: z.string(),
  breakfastTime: clockPair,
  lunchTime: clockPair,
  supperTime: clockPair,
});

export const settingUpdateData = z.union([settingsData, patientSettingsData]);

export const timeZonesData = exact({
  zones: z.array(
    exact({
      timezone: z.string(),
      name: z.string(),
      offsetName: z.string(),
      offset: int.describe("minutes east of UTC, now"),
    }),
  ),
  pumpZones: z.array(
    exact({
      offset: int.describe("hours"),
      offsetName: z.string(),
      timezone: z.string(),
    }),
  ),
});

// ---- patient record ----------------------------------------------------------------------------

export const patientSaveData = exact({ pid: id, userId: id, mailed: z.boolean().optional() });

const namedOption = exact({ id, code: z.string(), name: z.string() });

export const patientRecordData = exact({
  pid: id,
  userId: id,
  email: z.string(),
  firstName: nullableString,
  lastName: nullableString,
  name: z.string(),
  active: z.boolean(),
  own: z.boolean(),
  gender: nullableString,
  pronoun: nullableString,
  birthDate: nullableString.describe("YYYY/MM/DD"),
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  diabetesType: namedOption.nullable(),
  basicDiseases: z.array(namedOption),
  complications: z.array(namedOption),
  unit: int,
  lowLimit: z.number().nullable().describe("in the caller's unit"),
  highLimit: z.number().nullable().describe("in the caller's unit"),
  lowLimitMgdl: z.number().nullable(),
  highLimitMgdl: z.number().nullable(),
  timeZone: z.string(),
  breakfastTime: clockPair,
  lunchTime: clockPair,
  supperTime: clockPair,
  cgmGoalSet: z
    .enum(CGM_GOAL_SETS)
    .describe("the consensus CGM goals of the glucose profile: standard, olderHighRisk, pregnancy"),
});

// ---- sharing -----------------------------------------------------------------------------------

const shareState = int.describe("0 waiting, 1 accepted, 2 refused, 3 expired");

/** A share as the lists and the sharing calls answer it. */
export const shareItem = exact({
  pid: id.nullable(),
  firstName: nullableString,
  lastName: nullableString,
  email: z.string(),
  name: z.string(),
  nickName: nullableString,
  readPowerId: id,
  isNew: int,
  uploadIsNew: int,
  state: shareState,
  sourceType: int.describe("0 share request, 1 invitation, 2 share with the account's creator"),
  identity: int,
  provideId: id,
  readId: id,
  code: z.null(),
  birthDate: nullableString,
  message: nullableString,
  userId: id,
});

const listedShare = shareItem
  .extend({
    lastUploadAt: nullableString.optional(),
    lastUploadDate: nullableString.optional(),
    active: z.boolean().optional(),
  })
  .strict();

const sentShare = exact({
  readPowerId: id,
  userId: id,
  name: z.string(),
  email: z.string(),
  identity: int,
  state: shareState,
});

export const shareListData = exact({
  count: int,
  data: z.array(z.union([listedShare, sentShare])),
});

export const shareSearchData = exact({
  count: int,
  data: z.array(
    exact({
      userId: id,
      name: z.string(),
      email: z.string(),
      identity: int,
      readPowerId: id.nullable(),
      state: shareState.nullable(),
    }),
  ),
});

export const deletedShareData = exact({
  readPowerId: id.describe("our addition: the removed share"),
});

// ---- patient data ------------------------------------------------------------------------------

export const lastRecordData = exact({
  origin: int.describe("2 AiDEX CGM, 0 pump"),
  deviceSn: z.string(),
  index: int,
  deviceTime: z.string(),
  timeZone: z.string(),
  dateTime: instant,
}).nullable();

export const pdaTimeZoneData = exact({ pdaSn: z.string(), timeZone: z.string() }).nullable();

const glucoseSummary = exact({
  sugarAvg: z.number().nullable(),
  size: int,
  high: int,
  highPercent: z.number().nullable(),
  low: int,
  lowPercent: z.number().nullable(),
});

const insulinTotals = exact({
  total: z.number(),
  basal: z.number(),
  basalPercent: z.number().nullable(),
  bolus: z.number(),
  bolusPercent: z.number().nullable(),
  points: int,
});

const limits = z.object({ low: mgdl, high: mgdl }).passthrough();

export const patientDayData = exact({
  pid: id,
  date: day,
  timeZone: z.string(),
  nearestWithData: exact({ pump: day.nullable(), cgm: day.nullable(), bg: day.nullable() }),
  pump: z
    .object({
      window: part("start, end (epoch ms) and hours (23, 24 or 25)"),
      hasData: z.boolean(),
      pumpTotalCount: insulinTotals,
    })
    .passthrough()
    .describe(
      "the DAILY model: basal steps, boluses, carbs, bg, glucose, alarms, totals, pumpTotalCount, table",
    ),
  cgm: z
    .object({ hasData: z.boolean(), points: z.array(part("time, mgdl, class, segment")) })
    .passthrough()
    .describe(
      "the CGMS day model: points, targetBand, latest, trend, alarm, timeInRanges, summary",
    ),
  cgmStats: part("mean, sd (mg/dL), cv, gmi (%)").nullable(),
  bg: z
    .object({ hasData: z.boolean(), summary: glucoseSummary })
    .passthrough()
    .describe("the BG model of the day, as sugarData"),
});

export const meterReadingsData = exact({
  pid: id,
  timeZone: z.string(),
  limits,
  sugarTotalCount: glucoseSummary,
  days: z.array(
    z
      .object({ date: day, readings: z.array(part("time, clock, mgdl, class, tag, source")) })
      .passthrough(),
  ),
  byTag: z.array(part("key, count, mean")),
});

export const cgmListData = exact({
  pid: id,
  timeZone: z.string(),
  count: int,
  timeInRanges: part("percent per consensus band").nullable(),
  readings: z.array(exact({ dateTime: instant, mgdl, mmol: z.number() })),
});

export const latestDateData = exact({
  pid: id,
  timeZone: z.string(),
  report: day.nullable(),
  aidex: day.nullable(),
  latest: day.nullable(),
});

export const daysWithDataData = exact({
  pid: id,
  timeZone: z.string(),
  start: day,
  end: day,
  days: z.array(exact({ date: day, cgm: z.boolean(), bg: z.boolean(), pump: z.boolean() })),
});

// ---- reports -----------------------------------------------------------------------------------

const reportHead = {
  pid: id,
  from: day,
  to: day,
  timeZone: z.string(),
  start: epochMs,
  end: epochMs,
  hasData: z.boolean(),
};

export const cgmReportData = exact({
  ...reportHead,
  glucoseUnit: int.describe("the caller's unit setting, for display"),
  glucoseUnitCode: z.string(),
  targetGlucoseRange: exact({ low: mgdl, high: mgdl }),
  highestValue: optionalMgdl,
  lowestValue: optionalMgdl,
  timeWhenTheHighestValueShows: nullableString,
  timeWhenTheLowestValueShows: nullableString,
  highestValueTime: epochMs.nullable(),
  lowestValueTime: epochMs.nullable(),
  numberOfValue: int,
  periodAverage: optionalMgdl,
  valuesAboveGoal: z.number().nullable(),
  valuesBelowGoal: z.number().nullable(),
  valuesWithinGoal: z.number().nullable(),
  goalCounts: exact({ above: int, within: int, below: int }),
  rows: z.array(
    exact({
      pdid: z.string().describe("the stored CGM record's id"),
      dateTimeStr: z.string(),
      time: epochMs,
      statusShort0: mgdl,
    }),
  ),
});

export const pumpReportData = exact({
  ...reportHead,
  dates: z.array(day),
  sugarList: z.array(
    exact({
      date: day,
      patientData: z.array(part("dateTime, clock, statusShort0 (mg/dL), source, id")),
    }),
  ),
  pumpList: z.array(
    exact({
      date: day,
      hasData: z.boolean(),
      pumps: z.array(
        part(
          "deviceRecordTime, end, clock, dataType, bolusKind, basalRate, totalBolusRate, units, delayTime (ms), points",
        ),
      ),
      pumpTotalCount: insulinTotals,
    }),
  ),
  cho: exact({
    list: z.array(part("dateTime, date, clock, grams, source")),
    avg: z.number().nullable(),
    total: z.number(),
    daysWithData: int,
  }),
  choAvg: z.number().nullable(),
  warmMsg: z.array(part("dateTime, date, clock, remark, severity, code")),
  sugarTotalCount: glucoseSummary,
  PumpTotalCount: insulinTotals,
  setting: part("unit, nameStyle"),
  patientInfo: exact({ highLimit: mgdl, lowLimit: mgdl }),
  pdaSetting: part("the handheld's stored settings").nullable(),
  choTables: z.array(z.array(part("a carbohydrate entry"))),
  warmMsgTables: z.array(z.array(part("an alarm"))),
  charts: z.array(z.unknown()).describe("the days in groups of 5"),
  chartSections: z.array(z.unknown()),
  bigBoluses: exact({
    count: int,
    shown: z.boolean(),
    entries: z.array(part("an insulin entry with its date")),
  }),
});

export const agpReportData = z
  .object({
    pid: id,
    from: day,
    to: day,
    timeZone: z.string(),
    dayCount: int,
    fullDays: int,
    daysWithData: int,
    limits,
    statistics: part("readings, mean, sd, cv, cvGoalMet, gmi, ea1c, activePercent, ..."),
    timeInRanges: part("value, bands, goals, targets"),
    agp: z.unknown().describe("5/25/50/75/95 percentiles per minute of the day, mg/dL"),
    targetBand: z.unknown(),
    dailyProfiles: z.array(part("date, full, counts (the points are left out)")),
  })
  .passthrough();

// ---- dashboard ---------------------------------------------------------------------------------

export const dashboardData = exact({
  total: int,
  counts: z.array(exact({ key: z.string(), name: z.string(), count: int })),
});

// ---- uploads -----------------------------------------------------------------------------------

export const uploadSummaryData = exact({
  status: z.enum(["done", "failed"]),
  inserted: int,
  duplicates: int,
  flagged: int,
  skipped: int,
  dstAdjusted: int,
  otherPatientDevice: z.boolean(),
  firstDate: instant.nullable(),
  lastDate: instant.nullable(),
  error: nullableString,
  errorValues: z.record(z.union([z.string(), z.number()])).nullable(),
});

export const sliceIdData = id.describe("the sliceId");
export const sliceSavedData = exact({ index: int, received: int, expected: int });
export const sliceCompletedData = exact({ status: z.enum(["processing", "failed"]) });
export const checkSaveData = z.union([z.literal(false), uploadSummaryData]);
export const basalSavedData = exact({ saved: int });
export const pumpSettingSavedData = exact({ saved: z.literal(true) });
export const uploadErrLogData = exact({ count: int });

// ---- files -------------------------------------------------------------------------------------

const recordCounts = exact({ cgm: int, bg: int, carbs: int, insulin: int, pump: int });

export const importCsvData = exact({
  dryRun: z.boolean(),
  format: z.string(),
  unit: nullableString,
  device: part("name, serial").nullable(),
  dateOrder: nullableString,
  clock: nullableString,
  timeZone: z.string(),
  counts: recordCounts,
  firstDate: instant.nullable(),
  lastDate: instant.nullable(),
  inserted: int,
  duplicates: int,
  flagged: int,
  dstAdjusted: int,
  devices: z.array(
    exact({
      deviceKind: z.string(),
      deviceSn: z.string(),
      entries: int,
      inserted: int,
      duplicates: int,
    }),
  ),
  errors: z.array(
    exact({ line: int, key: z.string(), values: z.record(z.unknown()), message: z.string() }),
  ),
  moreErrors: int,
  uploads: z.array(id),
});

export const preExportData = exact({
  unit: int,
  patients: z.array(
    exact({
      pid: id,
      name: z.string(),
      timeZone: z.string(),
      start: day,
      end: day,
      counts: recordCounts,
    }),
  ),
  totals: recordCounts,
});
