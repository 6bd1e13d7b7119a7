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

const whole = (min: number, max: number) =>
  z.number({ error: FIELD }).int(FIELD).min(min, FIELD).max(max, FIELD);
const byte = whole(0, 255);
const u16 = whole(0, 65_535);
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
export const pumpRecordSchema = z
  .strictObject(
    {
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
      pid: z.number({ error: FIELD }).int(FIELD).optional(),
      recordTimeZone: zoneText.optional(),
      pdaRecordTimeZone: zoneText.optional(),
      transDateTime: z.unknown().optional(),
      dateTime: z.unknown().optional(),
    },
    { error: FIELD },
  )
  .refine((r) => r.recordId !== undefined || r.historyId !== undefined, "errors.recordId");
export type PumpRecordWire = z.output<typeof pumpRecordSchema>;

/**
 * A 22-byte CGM history record (AiDEX). `eventData` is the raw value: mg/dL = 1.8 x raw. Event
 * types 7 and 8 are glucose readings; `dataOrigin` 3 marks a manual blood value.
 */
export const cgmRecordSchema = z.strictObject(
  {
    eventIndex: whole(0, INT4_MAX),
    historyId: whole(0, INT4_MAX).optional(),
    sensorIndex: whole(0, 65_535).optional(),
    eventType: byte,
    eventData: u16,
    deviceTime,
    deviceSn: serial.optional(),
    dataOrigin: byte.optional(),
  },
  { error: FIELD },
);
export type CgmRecordWire = z.output<typeof cgmRecordSchema>;

/** A blood-glucose meter record read over the serial port: mg/dL in `statusShort0`. */
export const meterRecordSchema = z.strictObject(
  {
    dateTime: deviceTime,
    statusShort0: u16,
    statusByte0: byte,
    deviceSn: serial.optional(),
  },
  { error: FIELD },
);
export type MeterRecordWire = z.output<typeof meterRecordSchema>;

export const RECORD_SCHEMAS = {
  equil: pumpRecordSchema,
  aidex: cgmRecordSchema,
  gocheck: meterRecordSchema,
} as const;
