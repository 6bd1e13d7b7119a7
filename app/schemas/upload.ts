import { z } from "zod";
import { isKnownTimeZone } from "~/ingest/device-time";
import { idNumber, INT4_MAX, safeText } from "./fields";

/**
 * The payloads of the device-upload calls. Records arrive as the browser parsed them from the
 * device; the server checks every field's range here and applies the processing rules in
 * app/ingest. Message keys are in the `upload` namespace.
 */

/** Records in one slice (and in one single-call upload). */
export const SLICE_MAX_RECORDS = 1000;
/** Records in one sliced upload: 400 days of five-minute CGM readings, with room to spare. */
export const UPLOAD_MAX_RECORDS = 200_000;

export const DEVICE_KINDS = ["equil", "gocheck", "aidex"] as const;
export type DeviceKindName = (typeof DEVICE_KINDS)[number];

const whole = (min: number, max: number) => z.number({ invalid_type_error: "errors.recordField", required_error: "errors.recordField" }).int("errors.recordField").min(min, "errors.recordField").max(max, "errors.recordField");
const byte = whole(0, 255);
const u16 = whole(0, 65_535);
const deviceTime = z.string({ invalid_type_error: "errors.recordField", required_error: "errors.recordField" }).max(19, "errors.recordField");
const serial = safeText({ required_error: "errors.deviceSn", invalid_type_error: "errors.deviceSn" }).min(1, "errors.deviceSn").max(32, "errors.deviceSn").regex(/^[A-Za-z0-9_-]+$/, "errors.deviceSn");
const zoneText = z.string().max(64, "errors.timeZone");

/** A time zone the upload names: an IANA zone this server knows, or a fixed offset "+08:00". */
export const timeZoneField = z.string({ required_error: "errors.timeZone", invalid_type_error: "errors.timeZone" }).max(64, "errors.timeZone").refine(isKnownTimeZone, "errors.timeZone");

/**
 * A 28-byte pump history record as parsed by the browser. `recordId` (or its older name
 * `historyId`) is the device's record number; `deviceTime` the handheld's local clock;
 * `pdaRecordTimeZone` the handheld's own zone string ("GMT+01:00"), `recordTimeZone` the zone the
 * operator chose. `transDateTime` and `dateTime` are the server's to set: values sent are ignored.
 */
export const pumpRecordSchema = z
  .object({
    recordId: whole(0, INT4_MAX).optional(),
    historyId: whole(0, INT4_MAX).optional(),
    eventIndex: u16,
    eventPort: byte,
    eventType: byte,
    eventUrgency: byte,
    eventValue: byte,
    statusByte0: byte,
    statusByte1: byte,
    statusShort0: u16,
    statusShort1: u16,
    deviceTime,
    pdaSn: serial.optional(),
    pid: z.number().int().optional(),
    recordTimeZone: zoneText.optional(),
    pdaRecordTimeZone: zoneText.optional(),
    transDateTime: z.unknown().optional(),
    dateTime: z.unknown().optional(),
  })
  .strict("errors.recordField")
  .refine((r) => r.recordId !== undefined || r.historyId !== undefined, "errors.recordId");
export type PumpRecordInput = z.output<typeof pumpRecordSchema>;

/**
 * A 22-byte CGM history record (AiDEX). `eventData` is the raw value: mg/dL = 1.8 x raw. Event
 * types 7 and 8 are glucose readings; `dataOrigin` 3 marks a manual blood value.
 */
export const cgmRecordSchema = z
  .object({
    eventIndex: whole(0, INT4_MAX),
    historyId: whole(0, INT4_MAX).optional(),
    sensorIndex: whole(0, 65_535).optional(),
    eventType: byte,
    eventData: u16,
    deviceTime,
    deviceSn: serial.optional(),
    dataOrigin: byte.optional(),
  })
  .strict("errors.recordField");
export type CgmRecordInput = z.output<typeof cgmRecordSchema>;

/** A blood-glucose meter record read over the serial port: mg/dL in `statusShort0`. */
export const meterRecordSchema = z
  .object({
    dateTime: deviceTime,
    statusShort0: u16,
    statusByte0: byte,
    deviceSn: serial.optional(),
  })
  .strict("errors.recordField");
export type MeterRecordInput = z.output<typeof meterRecordSchema>;

export const RECORD_SCHEMAS = { equil: pumpRecordSchema, aidex: cgmRecordSchema, gocheck: meterRecordSchema } as const;
export type RecordInput<K extends DeviceKindName> = z.output<(typeof RECORD_SCHEMAS)[K]>;

const pid = idNumber("errors.pid");
const dataList = z.array(z.unknown(), { required_error: "errors.dataList", invalid_type_error: "errors.dataList" }).min(1, "errors.dataList");
const version = z.string({ invalid_type_error: "errors.pdaVersion" }).max(32, "errors.pdaVersion");

/** POST /api/patient-data/getSliceId: opens a sliced upload of `total` records. */
export const sliceStartSchema = z
  .object({
    pid,
    deviceKind: z.enum(DEVICE_KINDS, { errorMap: () => ({ message: "errors.deviceKind" }) }),
    deviceSn: serial,
    pdaVersion: version.optional(),
    total: z.number({ invalid_type_error: "errors.total", required_error: "errors.total" }).int("errors.total").min(1, "errors.total").max(UPLOAD_MAX_RECORDS, "errors.total"),
    timeZone: timeZoneField.optional(),
  })
  .strict();

/** POST /api/patient-data/sliceSave: one slice; `index` counts from 0 in the order sent. */
export const sliceSaveSchema = z
  .object({
    sliceId: idNumber("errors.sliceId"),
    index: z.number({ invalid_type_error: "errors.sliceIndex", required_error: "errors.sliceIndex" }).int("errors.sliceIndex").min(0, "errors.sliceIndex").max(UPLOAD_MAX_RECORDS, "errors.sliceIndex"),
    dataList,
  })
  .strict();

/** POST /api/patient-data/completeSliceTask: every slice sent (isSuccess true) or the upload abandoned. */
export const sliceCompleteSchema = z.object({ sliceId: idNumber("errors.sliceId"), isSuccess: z.boolean({ invalid_type_error: "errors.isSuccess", required_error: "errors.isSuccess" }) }).strict();

/** GET /api/patient-data/checkSave?sliceId= */
export const sliceCheckSchema = z.object({ sliceId: z.string().regex(/^\d{1,10}$/, "errors.sliceId").transform(Number).pipe(idNumber("errors.sliceId")) }).strict();

/** POST /api/patient-data/save: a pump upload in one call. */
export const pumpSaveSchema = z
  .object({ pid, pdaSn: serial, pdaVersion: version, timeZone: timeZoneField.optional(), dataList })
  .strict();

/** POST /api/patient-data/saveCgmsData (AiDEX) and /saveSugar (meter): records of one device in one call. */
export const deviceSaveSchema = z
  .object({ pid: pid.optional(), deviceSn: serial.optional(), timeZone: timeZoneField, dataList })
  .strict();
