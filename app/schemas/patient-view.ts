import { z } from "zod";
import { cursorParam } from "~/domain/keyset";
import { parseDate, type IsoDate } from "~/report/day";
import { idNumber, MESSAGES, wholeNumber } from "./fields";

/** The patient header's tabs: DAILY (pump), BG (meter) and CGMS (none in the Russian locale). */
export const VIEW_TABS = ["daily", "bg", "cgms"] as const;
export type ViewTab = (typeof VIEW_TABS)[number];

/** CGMS shows one day or the 14-day overlay. */
export const CGMS_VIEWS = ["day", "overlay"] as const;
export type CgmsView = (typeof CGMS_VIEWS)[number];

/** The BG range when none is chosen: two weeks ending on the chosen (or last) day. */
export const DEFAULT_BG_DAYS = 14;

/**
 * A date field of the GET forms: empty means "not chosen"; anything else must be a real date in
 * YYYY-MM-DD or YYYY/MM/DD (the form the picker shows). A bad one is kept as typed and
 * reported (`invalid`), never a 500.
 */
export type DateField = { value: IsoDate | null; raw: string; invalid: boolean };

function dateField(input: unknown): DateField {
  const raw = typeof input === "string" ? input.trim().slice(0, 40) : "";
  if (raw === "") return { value: null, raw, invalid: false };
  const value = parseDate(raw);
  return { value, raw, invalid: value === null };
}

/** The query of `/patientShow/{id}/{userid}/patientHome`: every field falls back; nothing throws. */
export const patientViewQuery = z.object({
  tab: z.enum(VIEW_TABS).catch("daily"),
  view: z.enum(CGMS_VIEWS).catch("day"),
  date: z.unknown().transform(dateField),
  from: z.unknown().transform(dateField),
  to: z.unknown().transform(dateField),
  /** A quick-range button's length in days, as sent (app/report/quick-ranges.ts decides what it means). */
  days: z
    .unknown()
    .transform((value) => (typeof value === "string" ? value.trim().slice(0, 8) : null)),
});

export type PatientViewQuery = z.infer<typeof patientViewQuery>;

/** Reads the page query from a URL's search parameters. */
export function parsePatientViewQuery(search: URLSearchParams): PatientViewQuery {
  return patientViewQuery.parse(Object.fromEntries(search));
}

const pid = idNumber("errors.pid");
const isoDate = (message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).transform((value, ctx) => {
    const date = parseDate(value);
    if (date === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }
    return date;
  });

/** GET /api/patient-data/findLastRecord: pid, origin (2 = AiDEX, else pump). */
export const findLastRecordQuery = z.object({
  pid,
  origin: wholeNumber(MESSAGES.invalid).catch(0),
});

/** GET /api/patient-data/getPdaTimeZone: pid. */
export const pdaTimeZoneQuery = z.object({ pid });

/** GET /api/patient-data/findPatientData: pid and one local date. */
export const findPatientDataQuery = z.object({ pid, date: isoDate("errors.date") });

/** GET /api/patient-data/sugarData and /api/cgms/cgm-record/findList: pid and a range of local dates. */
export const rangeQuery = z.object({
  pid,
  start: isoDate("errors.start"),
  end: isoDate("errors.end"),
});

/** The query of `/patientShow/{id}/{userid}/uploads`: the page of the upload history (from 1; anything else is page 1). */
export const uploadHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  after: cursorParam,
  before: cursorParam,
});
