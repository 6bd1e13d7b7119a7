import { z } from "zod";
import { isKnownTimeZone } from "~/ingest/device-time";
import { idNumber, safeText } from "./fields";

/**
 * The payloads of the device-upload calls, under the names the calls carry. Records arrive as the
 * browser parsed them from the device; the server checks every field's range here, turns the
 * records into the app's (app/wire/upload.ts) and applies the processing rules in app/ingest.
 * Message keys are in the `upload` namespace.
 */

/** Records in one slice (and in one single-call upload). */
export const SLICE_MAX_RECORDS = 1000;
/** Records in one sliced upload: 400 days of five-minute CGM readings, with room to spare. */
export const UPLOAD_MAX_RECORDS = 200_000;

export const DEVICE_KINDS = ["equil", "gocheck", "aidex"] as const;
export type DeviceKindName = (typeof DEVICE_KINDS)[number];

const whole = (min: number, max: number) =>
  z
    .number({ invalid_type_error: "errors.recordField", required_error: "errors.recordField" })
    .int("errors.recordField")
    .min(min, "errors.recordField")
    .max(max, "errors.recordField");
const u16 = whole(0, 65_535);
const serial = safeText({
  required_error: "errors.deviceSn",
  invalid_type_error: "errors.deviceSn",
})
  .min(1, "errors.deviceSn")
  .max(32, "errors.deviceSn")
  .regex(/^[A-Za-z0-9_-]+$/, "errors.deviceSn");
const zoneText = z.string().max(64, "errors.timeZone");

/** A time zone the upload names: an IANA zone this server knows, or a fixed offset "+08:00". */
export const timeZoneField = z
  .string({ required_error: "errors.timeZone", invalid_type_error: "errors.timeZone" })
  .max(64, "errors.timeZone")
  .refine(isKnownTimeZone, "errors.timeZone");

export {
  cgmRecordSchema,
  meterRecordSchema,
  pumpRecordSchema,
  RECORD_SCHEMAS,
  type CgmRecordWire,
  type MeterRecordWire,
  type PumpRecordWire,
} from "./device-records";

const pid = idNumber("errors.pid");
const dataList = z
  .array(z.unknown(), { required_error: "errors.dataList", invalid_type_error: "errors.dataList" })
  .min(1, "errors.dataList");
const version = z.string({ invalid_type_error: "errors.pdaVersion" }).max(32, "errors.pdaVersion");

/** POST /api/patient-data/getSliceId: opens a sliced upload of `total` records. */
export const sliceStartSchema = z
  .object({
    pid,
    deviceKind: z.enum(DEVICE_KINDS, { errorMap: () => ({ message: "errors.deviceKind" }) }),
    deviceSn: serial,
    pdaVersion: version.optional(),
    total: z
      .number({ invalid_type_error: "errors.total", required_error: "errors.total" })
      .int("errors.total")
      .min(1, "errors.total")
      .max(UPLOAD_MAX_RECORDS, "errors.total"),
    timeZone: timeZoneField.optional(),
  })
  .strict();

/** POST /api/patient-data/sliceSave: one slice; `index` counts from 0 in the order sent. */
export const sliceSaveSchema = z
  .object({
    sliceId: idNumber("errors.sliceId"),
    index: z
      .number({ invalid_type_error: "errors.sliceIndex", required_error: "errors.sliceIndex" })
      .int("errors.sliceIndex")
      .min(0, "errors.sliceIndex")
      .max(UPLOAD_MAX_RECORDS, "errors.sliceIndex"),
    dataList,
  })
  .strict();

/** POST /api/patient-data/completeSliceTask: every slice sent (isSuccess true) or the upload abandoned. */
export const sliceCompleteSchema = z
  .object({
    sliceId: idNumber("errors.sliceId"),
    isSuccess: z.boolean({
      invalid_type_error: "errors.isSuccess",
      required_error: "errors.isSuccess",
    }),
  })
  .strict();

/** GET /api/patient-data/checkSave?sliceId= */
export const sliceCheckSchema = z
  .object({
    sliceId: z
      .string()
      .regex(/^\d{1,10}$/, "errors.sliceId")
      .transform(Number)
      .pipe(idNumber("errors.sliceId")),
  })
  .strict();

/** POST /api/patient-data/save: a pump upload in one call. */
export const pumpSaveSchema = z
  .object({ pid, pdaSn: serial, pdaVersion: version, timeZone: timeZoneField.optional(), dataList })
  .strict();

/** POST /api/patient-data/saveCgmsData (AiDEX) and /saveSugar (meter): records of one device in one call. */
export const deviceSaveSchema = z
  .object({ pid: pid.optional(), deviceSn: serial.optional(), timeZone: timeZoneField, dataList })
  .strict();

/** Basal presets on the handheld: 7 (index 0 to 6), each 48 half-hour rates in steps of 0.0125 U/h. */
export const BASAL_PRESETS = 7;
export const BASAL_SLOTS = 48;
export const BASAL_SETTING_STEP_UH = 0.0125;

const preset = z
  .object({
    settingIndex: whole(0, BASAL_PRESETS - 1),
    valueArray: z
      .array(u16, {
        invalid_type_error: "errors.basalValues",
        required_error: "errors.basalValues",
      })
      .length(BASAL_SLOTS, "errors.basalValues"),
    name: safeText().max(32, "errors.basalName").optional(),
  })
  .strict("errors.recordField");

/** POST /api/basal-rate-base-setting/save: the handheld's basal presets, raw as read. */
export const basalSaveSchema = z
  .object({
    pid: pid.optional(),
    list: z
      .array(preset, { invalid_type_error: "errors.basalList", required_error: "errors.basalList" })
      .min(1, "errors.basalList")
      .max(BASAL_PRESETS, "errors.basalList")
      .refine((l) => new Set(l.map((p) => p.settingIndex)).size === l.length, "errors.basalList"),
    pdaVersion: version,
    pdaSn: serial,
    pdaTimeZone: zoneText.optional(),
  })
  .strict();
export type BasalSaveInput = z.output<typeof basalSaveSchema>;

/** A time-segmented setting (one value per half hour at most, 48 or 49 with a trailing default). */
const segments = z
  .array(u16, { invalid_type_error: "errors.recordField" })
  .max(49, "errors.recordField");
const setting = z
  .number({ invalid_type_error: "errors.recordField" })
  .finite("errors.recordField")
  .min(0, "errors.recordField")
  .max(65_535, "errors.recordField");

/**
 * POST /api/pda-setting/saveOrUpdate: the 15 settings read from the handheld, with their wire
 * names (two of them misspelt by the device software: maxiumBasalRate, lowReseverThreshold).
 * Target lows and highs and the sensitivity are tenths of mg/dL; the carbohydrate ratio is g/U;
 * the other settings' scales are not known and are kept as read.
 */
export const pumpSettingSchema = z
  .object({
    pid: pid.optional(),
    pdaSn: serial,
    pdaVersion: version,
    lowBg: segments,
    highBg: segments,
    defaultCho: segments,
    sensitiveSilver: segments,
    originBasal: setting.optional(),
    bolusRate: setting.optional(),
    maxBolus: setting.optional(),
    doubleBolus: z
      .union([z.boolean(), z.literal(0), z.literal(1)], {
        errorMap: () => ({ message: "errors.recordField" }),
      })
      .optional(),
    effectiveTime: whole(0, 65_535).optional(),
    maxiumBasalRate: setting.optional(),
    bolusIncrement: setting.optional(),
    quickBolusIncrement: setting.optional(),
    lowReseverThreshold: setting.optional(),
    tempBasalRate: setting.optional(),
  })
  .strict();
export type PumpSettingWire = z.output<typeof pumpSettingSchema>;
