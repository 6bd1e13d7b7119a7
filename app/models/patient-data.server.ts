import type { Prisma } from "@prisma/client";
import type { Reading } from "~/metrics/types";
import type { BgReadingInput } from "~/report/bg-range";
import { localDate, nearestDayWithData, type DayWindow, type IsoDate } from "~/report/day";
import type { PumpHistoryRecord } from "~/report/pump-day";
import { db } from "~/utils/db.server";
import { visiblePatients, type Viewer } from "./access.server";

/**
 * Reads of a patient's device data for the data views and the data API. Every query carries the
 * access rule (`visiblePatients`) in its `where`, so a caller that skipped the patient look-up
 * still reads nothing it may not see.
 */

/** Which table a view reads: pump history (DAILY), CGM (CGMS) or meter readings (BG). */
export type DataKind = "pump" | "cgm" | "bg";

/** An instant window [start, end) in epoch ms. */
export type Span = { start: number; end: number };

function scoped(viewer: Viewer, pid: number) {
  return { patientId: pid, patient: visiblePatients(viewer) };
}

function between(span: Span): Prisma.DateTimeFilter {
  return { gte: new Date(span.start), lt: new Date(span.end) };
}

/** The pump record as the day model wants it (BigInt id as text). */
const pumpSelect = {
  id: true,
  dateTime: true,
  eventIndex: true,
  eventPort: true,
  eventType: true,
  eventUrgency: true,
  eventValue: true,
  statusShort0: true,
  statusShort1: true,
  statusByte0: true,
  statusByte1: true,
} satisfies Prisma.PumpRecordSelect;

function toPumpRecord(r: Prisma.PumpRecordGetPayload<{ select: typeof pumpSelect }>): PumpHistoryRecord {
  return { ...r, id: r.id.toString(), dateTime: r.dateTime.getTime() };
}

/**
 * The inputs of `buildPumpDay` for one day window: the day's records, the last record before it
 * that carries a basal rate (every record but a BG entry, port 3 type 0) and the first after it.
 */
export async function pumpDayRecords(viewer: Viewer, pid: number, window: Span) {
  const where = scoped(viewer, pid);
  const order: Prisma.PumpRecordOrderByWithRelationInput[] = [{ dateTime: "asc" }, { eventIndex: "asc" }];
  const [records, previous, next] = await Promise.all([
    db().pumpRecord.findMany({ where: { ...where, dateTime: between(window) }, orderBy: order, select: pumpSelect }),
    db().pumpRecord.findFirst({
      where: { ...where, dateTime: { lt: new Date(window.start) }, NOT: { eventPort: 3, eventType: 0 } },
      orderBy: [{ dateTime: "desc" }, { eventIndex: "desc" }],
      select: pumpSelect,
    }),
    db().pumpRecord.findFirst({ where: { ...where, dateTime: { gte: new Date(window.end) } }, orderBy: order, select: pumpSelect }),
  ]);
  return { records: records.map(toPumpRecord), previous: previous && toPumpRecord(previous), next: next && toPumpRecord(next) };
}

/** The handheld firmware of the patient's newest pump settings upload (for the carbohydrate rules). */
export async function pumpVersion(viewer: Viewer, pid: number): Promise<string | null> {
  const setting = await db().pumpSetting.findFirst({
    where: { ...scoped(viewer, pid), pdaVersion: { not: null } },
    orderBy: { uploadedAt: "desc" },
    select: { pdaVersion: true },
  });
  return setting?.pdaVersion ?? null;
}

/** CGM readings (mg/dL) in a window, oldest first. */
export async function cgmReadings(viewer: Viewer, pid: number, span: Span): Promise<Reading[]> {
  const rows = await db().cgmRecord.findMany({
    where: { ...scoped(viewer, pid), dateTime: between(span) },
    orderBy: { dateTime: "asc" },
    select: { dateTime: true, eventData: true },
  });
  return rows.map((r) => ({ time: r.dateTime.getTime(), mgdl: r.eventData }));
}

/** Meter, finger-prick and manual blood readings (mg/dL) in a window, oldest first. */
export async function bgReadings(viewer: Viewer, pid: number, span: Span): Promise<BgReadingInput[]> {
  const rows = await db().bgRecord.findMany({
    where: { ...scoped(viewer, pid), dateTime: between(span) },
    orderBy: [{ dateTime: "asc" }, { id: "asc" }],
    select: { id: true, dateTime: true, mgdl: true, source: true },
  });
  return rows.map((r) => ({ id: r.id.toString(), time: r.dateTime.getTime(), mgdl: r.mgdl, source: r.source }));
}

type TimeWhere = { patientId: number; patient: Prisma.PatientWhereInput; dateTime?: Prisma.DateTimeFilter };

/** The newest (`max`) or oldest (`min`) instant of a kind of data matching `where`. */
async function boundOf(kind: DataKind, bound: "min" | "max", where: TimeWhere): Promise<number | null> {
  const args = { where, _min: { dateTime: true }, _max: { dateTime: true } } as const;
  const result =
    kind === "pump" ? await db().pumpRecord.aggregate(args) : kind === "cgm" ? await db().cgmRecord.aggregate(args) : await db().bgRecord.aggregate(args);
  const found = bound === "min" ? result._min : result._max;
  return found?.dateTime?.getTime() ?? null;
}

/** The local date of the patient's newest data of a kind, or null without data. */
export async function lastDayWithData(viewer: Viewer, pid: number, kind: DataKind, timeZone: string): Promise<IsoDate | null> {
  const last = await boundOf(kind, "max", scoped(viewer, pid));
  return last === null ? null : localDate(last, timeZone);
}

/**
 * The day with data of a kind nearest to a day without any (the empty state's offer): the newest
 * day before the window and the oldest after it, the nearer one (the earlier on a tie).
 */
export async function nearestDayWith(viewer: Viewer, pid: number, kind: DataKind, window: DayWindow): Promise<IsoDate | null> {
  const where = scoped(viewer, pid);
  const [before, after] = await Promise.all([
    boundOf(kind, "max", { ...where, dateTime: { lt: new Date(window.start) } }),
    boundOf(kind, "min", { ...where, dateTime: { gte: new Date(window.end) } }),
  ]);
  const days = [before, after].flatMap((t) => (t === null ? [] : [localDate(t, window.timeZone)]));
  return nearestDayWithData(days, window.date);
}

/** Spec 2 section 7 "Last-record fetch": origin 2 = AiDEX (CGM history), anything else = pump history. */
export async function findLastRecord(viewer: Viewer, pid: number, origin: number) {
  const where = scoped(viewer, pid);
  if (origin === 2) {
    const row = await db().cgmRecord.findFirst({
      where,
      orderBy: [{ dateTime: "desc" }, { eventIndex: "desc" }],
      select: { deviceSn: true, eventIndex: true, deviceTime: true, timeZone: true, dateTime: true },
    });
    return row && { origin: 2, deviceSn: row.deviceSn, index: row.eventIndex, deviceTime: row.deviceTime, timeZone: row.timeZone, dateTime: row.dateTime.toISOString() };
  }
  const row = await db().pumpRecord.findFirst({
    where,
    orderBy: [{ dateTime: "desc" }, { recordId: "desc" }],
    select: { pdaSn: true, recordId: true, deviceTime: true, recordTimeZone: true, dateTime: true },
  });
  return row && { origin: 0, deviceSn: row.pdaSn, index: row.recordId, deviceTime: row.deviceTime, timeZone: row.recordTimeZone, dateTime: row.dateTime.toISOString() };
}
