import { z } from "zod";
import { requiredMessage, safeText } from "./fields";

/**
 * The Nightscout API's payloads and queries (REST API v1, the subset uploader apps and reader
 * tools use). Uploaders differ in how they write numbers (`120` or `"120"`) and times (`date` in
 * epoch ms, `dateString` or `created_at` in ISO 8601): both are read. Fields the app does not keep
 * (noise, filtered, unfiltered, rssi, ...) are accepted and dropped.
 */

/** A number, or a string holding one ("120", "5.5"), as uploaders send them. */
const numeric = z.preprocess(
  (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number().finite(),
);

/** An instant in epoch ms: a number, or a date string that Date reads. */
const instantText = z
  .string()
  .max(64)
  .transform((s, ctx) => {
    const ms = Date.parse(s);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: "custom", message: "date" });
      return z.NEVER;
    }
    return ms;
  });

const shortText = z.string().max(100);

/** One entry of `POST /api/v1/entries`: a sensor reading (sgv), a meter reading (mbg) or a calibration (cal). */
export const nsEntrySchema = z
  .object({
    type: z.string().max(16).optional(),
    sgv: numeric.optional(),
    mbg: numeric.optional(),
    date: numeric.optional(),
    dateString: instantText.optional(),
    sysTime: instantText.optional(),
    direction: z.string().max(32).optional(),
    device: shortText.optional(),
  })
  .transform((e, ctx) => {
    const at = e.date ?? e.dateString ?? e.sysTime;
    if (at === undefined || !Number.isSafeInteger(Math.round(at))) {
      ctx.addIssue({ code: "custom", message: "date", path: ["date"] });
      return z.NEVER;
    }
    const type = e.type ?? (e.sgv !== undefined ? "sgv" : e.mbg !== undefined ? "mbg" : "");
    return {
      type,
      sgv: e.sgv,
      mbg: e.mbg,
      at: Math.round(at),
      direction: e.direction,
      device: e.device,
    };
  });
export type NsEntryInput = z.output<typeof nsEntrySchema>;

/** One treatment of `POST /api/v1/treatments`. */
export const nsTreatmentSchema = z
  .object({
    eventType: z.string().max(64).optional(),
    created_at: instantText.optional(),
    date: numeric.optional(),
    mills: numeric.optional(),
    insulin: numeric.nullish(),
    carbs: numeric.nullish(),
    glucose: numeric.nullish(),
    glucoseType: z.string().max(32).optional(),
    units: z.string().max(16).optional(),
    enteredBy: shortText.optional(),
    notes: z.string().max(2000).optional(),
  })
  .transform((t, ctx) => {
    const at = t.created_at ?? t.date ?? t.mills;
    if (at === undefined || !Number.isSafeInteger(Math.round(at))) {
      ctx.addIssue({ code: "custom", message: "date", path: ["created_at"] });
      return z.NEVER;
    }
    return {
      eventType: t.eventType ?? "",
      at: Math.round(at),
      insulin: t.insulin ?? null,
      carbs: t.carbs ?? null,
      glucose: t.glucose ?? null,
      mmol: t.units !== undefined && /^mmol/i.test(t.units),
      enteredBy: t.enteredBy,
    };
  });
export type NsTreatmentInput = z.output<typeof nsTreatmentSchema>;

/** The largest device status document kept, as JSON text. */
export const DEVICE_STATUS_MAX_BYTES = 8 * 1024;

/** One document of `POST /api/v1/devicestatus`: any JSON object, at most 8 KB. */
export const nsDeviceStatusSchema = z
  .record(z.string(), z.unknown())
  .refine((doc) => Buffer.byteLength(JSON.stringify(doc)) <= DEVICE_STATUS_MAX_BYTES, {
    message: "size",
  });

/** Records one POST may carry (a month of one-minute readings, within the 8 MB body cap). */
export const NS_MAX_RECORDS = 50_000;

/** The calls of the API, by the path after `/api/v1/` (with or without `.json`). */
export const NS_CALLS = {
  entries: "entries",
  "entries/sgv": "sgv",
  "entries/current": "current",
  treatments: "treatments",
  profile: "profile",
  status: "status",
  devicestatus: "devicestatus",
  verifyauth: "verifyauth",
} as const;
export type NsCall = (typeof NS_CALLS)[keyof typeof NS_CALLS];

/** The call a path names, or null: `entries.json` and `entries` are the same call. */
export function nsCallOf(path: string): NsCall | null {
  const bare = path.replace(/\/+$/, "").replace(/\.json$/, "");
  return Object.prototype.hasOwnProperty.call(NS_CALLS, bare)
    ? NS_CALLS[bare as keyof typeof NS_CALLS]
    : null;
}

/**
 * The default `count` of a read, as Nightscout answers: 10 entries or device statuses, and 100
 * treatments (1000 when the query bounds the dates); the largest count answered.
 */
export const NS_DEFAULT_COUNT = 10;
export const NS_TREATMENTS_COUNT = 100;
export const NS_TREATMENTS_FIND_COUNT = 1000;
export const NS_MAX_COUNT = 100_000;

const bound = z.preprocess(
  (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
  z.union([z.number().int(), instantText]),
);

/**
 * A read's query: `count`, and the date bounds Nightscout tools send as
 * `find[date][$gte]=<ms>` (entries), `find[dateString][$gte]=<ISO>` or
 * `find[created_at][$gte]=<ISO>` (treatments); `$gt` and `$lt` are taken as `$gte` and `$lte`
 * moved by one millisecond.
 */
export function nsReadQuery(
  params: URLSearchParams,
  defaults: { count: number; findCount?: number } = { count: NS_DEFAULT_COUNT },
):
  | { ok: true; count: number; from: number | null; to: number | null }
  | { ok: false; field: string } {
  const countText = params.get("count");
  let count: number | null = null;
  if (countText !== null) {
    if (!/^\d{1,9}$/.test(countText)) return { ok: false, field: "count" };
    count = Math.min(Number(countText), NS_MAX_COUNT);
  }
  let from: number | null = null;
  let to: number | null = null;
  for (const [key, value] of params) {
    const m = /^find\[(date|dateString|created_at|sysTime|mills)\]\[\$(gte|gt|lte|lt)\]$/.exec(key);
    if (!m) continue;
    const parsed = bound.safeParse(value);
    if (!parsed.success) return { ok: false, field: key };
    const ms = parsed.data;
    if (m[2] === "gte") from = Math.max(from ?? ms, ms);
    if (m[2] === "gt") from = Math.max(from ?? ms + 1, ms + 1);
    if (m[2] === "lte") to = Math.min(to ?? ms, ms);
    if (m[2] === "lt") to = Math.min(to ?? ms - 1, ms - 1);
  }
  const bounded = from !== null || to !== null;
  count ??= bounded && defaults.findCount !== undefined ? defaults.findCount : defaults.count;
  return { ok: true, count, from, to };
}

/** The form that makes a link: a name (1-60 characters of safe text) and what the link may do. */
export const nightscoutLinkForm = z.object({
  name: safeText(requiredMessage("name")).min(1, "name").max(60, "name"),
  kind: z.enum(["upload", "read"], { message: "kind" }),
});

/** The form that revokes a link: its public id. */
export const nightscoutRevokeForm = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/) });
