import { z } from "zod/v4";
import { INT4_MAX, MESSAGES } from "./fields";
import { safeTextPattern } from "~/utils/safe-text";

/**
 * The records of the device-upload calls, as the browser parsed them from the device. Each record
 * of an upload is checked on its own (90 days of one patient are some 56,000 records), so these
 * schemas use zod's v4 engine, which the zod 3 package ships as `zod/v4`: it compiles an object
 * schema into one function and checks a record about three times faster than the v3 engine (the
 * forms and the other calls keep v3, which their form and OpenAPI libraries read). Every failure
 * of a field has the message `errors.recordField`, so the refusal names the record and the field.
 */

const FIELD = "errors.recordField";

/** A whole-number field's range; `optional` when a record may leave it out. */
type Range = readonly [min: number, max: number, optional?: "optional"];
const BYTE: Range = [0, 255];
const U16: Range = [0, 65_535];
const INT4: Range = [0, INT4_MAX];
const optional = ([min, max]: Range) => [min, max, "optional"] as const;

type WholeShape<R extends Record<string, Range>> = {
  [K in keyof R]: R[K][2] extends "optional" ? z.ZodOptional<z.ZodNumber> : z.ZodNumber;
};

/**
 * A record's whole-number fields: in the object they are numbers, and one check per record tests
 * each one present for a whole number within its range. Zod runs a field's own checks one at a
 * time with an allocation each; with three on each of a pump record's eleven numbers, that was the
 * largest part of checking a slice of 1,000 records, and this takes about half the time.
 */
function wholeNumbers<const R extends Record<string, Range>>(ranges: R) {
  const entries = Object.entries(ranges);
  const shape: Record<string, z.ZodType> = {};
  for (const [field, [, , opt]] of entries) {
    const number = z.number({ error: FIELD });
    shape[field] = opt ? number.optional() : number;
  }
  const check = (ctx: { value: Record<string, unknown>; issues: z.core.$ZodRawIssue[] }) => {
    for (const [field, [min, max]] of entries) {
      const value = ctx.value[field];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
        ctx.issues.push({ code: "custom", message: FIELD, path: [field], input: value });
    }
  };
  return { shape: shape as WholeShape<R>, check };
}

const deviceTime = z.string({ error: FIELD }).max(19, FIELD);
/** A device serial: trimmed, 1-32 letters, digits, `_` and `-`. */
const serial = z
  .string({ error: "errors.deviceSn" })
  .trim()
  .regex(safeTextPattern(), MESSAGES.hiddenCharacters)
  .min(1, "errors.deviceSn")
  .max(32, "errors.deviceSn")
  .regex(/^[A-Za-z0-9_-]+$/, "errors.deviceSn");
const zoneText = z.string({ error: "errors.timeZone" }).max(64, "errors.timeZone");

/**
 * A 28-byte pump history record as parsed by the browser. `recordId` (or its older name
 * `historyId`) is the device's record number; `deviceTime` the handheld's local clock;
 * `pdaRecordTimeZone` the handheld's own zone string ("GMT+01:00"), `recordTimeZone` the zone the
 * operator chose. `transDateTime` and `dateTime` are the server's to set: values sent are ignored.
 */
const pumpNumbers = wholeNumbers({
  recordId: optional(INT4),
  historyId: optional(INT4),
  eventIndex: U16,
  eventPort: BYTE,
  eventType: BYTE,
  eventUrgency: BYTE,
  eventValue: BYTE,
  statusByte0: BYTE,
  statusByte1: BYTE,
  statusShort0: U16,
  statusShort1: U16,
});
export const pumpRecordSchema = z
  .strictObject(
    {
      ...pumpNumbers.shape,
      deviceTime,
      pdaSn: serial.optional(),
      pid: z.number({ error: FIELD }).int(FIELD).optional(),
      recordTimeZone: zoneText.optional(),
      pdaRecordTimeZone: zoneText.optional(),
      transDateTime: z.unknown().optional(),
      dateTime: z.unknown().optional(),
    },
    { error: FIELD },
  )
  .check(pumpNumbers.check)
  .refine((r) => r.recordId !== undefined || r.historyId !== undefined, "errors.recordId");
export type PumpRecordWire = z.output<typeof pumpRecordSchema>;

/**
 * A 22-byte CGM history record (AiDEX). `eventData` is the raw value: mg/dL = 1.8 x raw. Event
 * types 7 and 8 are glucose readings; `dataOrigin` 3 marks a manual blood value.
 */
const cgmNumbers = wholeNumbers({
  eventIndex: INT4,
  historyId: optional(INT4),
  sensorIndex: optional(U16),
  eventType: BYTE,
  eventData: U16,
  dataOrigin: optional(BYTE),
});
export const cgmRecordSchema = z
  .strictObject({ ...cgmNumbers.shape, deviceTime, deviceSn: serial.optional() }, { error: FIELD })
  .check(cgmNumbers.check);
export type CgmRecordWire = z.output<typeof cgmRecordSchema>;

/** A blood-glucose meter record read over the serial port: mg/dL in `statusShort0`. */
const meterNumbers = wholeNumbers({ statusShort0: U16, statusByte0: BYTE });
export const meterRecordSchema = z
  .strictObject(
    { dateTime: deviceTime, ...meterNumbers.shape, deviceSn: serial.optional() },
    { error: FIELD },
  )
  .check(meterNumbers.check);
export type MeterRecordWire = z.output<typeof meterRecordSchema>;

export const RECORD_SCHEMAS = {
  equil: pumpRecordSchema,
  aidex: cgmRecordSchema,
  gocheck: meterRecordSchema,
} as const;
