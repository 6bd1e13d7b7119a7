import { Prisma } from "@prisma/client";
import type { ExportRow, PumpRecordFields } from "~/csv";
import { ZoneOffsets } from "~/metrics/timezone";
import type { Reading } from "~/metrics/types";
import type { BgReadingInput } from "~/report/bg-range";
import { localDate, nearestDayWithData, type DayWindow, type IsoDate } from "~/report/day";
import type { PumpHistoryRecord } from "~/report/pump-records";
import { db, readDb } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";

/**
 * Reads of a patient's device data for the data views and the data API. Every query carries the
 * access rule (`visiblePatientSql`) in its WHERE, so a caller that skipped the patient look-up
 * still reads nothing it may not see. They are raw SQL through Prisma because they run on every
 * page view (docs/decisions/008-raw-sql-on-hot-paths.md).
 */

/** Which table a view reads: pump history (DAILY), CGM (CGMS) or meter readings (BG). */
export type DataKind = "pump" | "cgm" | "bg";

/** An instant window [start, end) in epoch ms. */
export type Span = { start: number; end: number };

const TABLES: Record<DataKind, Prisma.Sql> = {
  pump: Prisma.raw(`"PumpRecord"`),
  cgm: Prisma.raw(`"CgmRecord"`),
  bg: Prisma.raw(`"BgRecord"`),
};

/** `d."patientId" = pid` and the viewer may see that patient (`d` is the data table's alias). */
function scoped(viewer: Viewer, pid: number): Prisma.Sql {
  return Prisma.sql`d."patientId" = ${pid} AND EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = d."patientId" AND ${visiblePatientSql(viewer, Prisma.sql`p`)})`;
}

const at = (ms: number) => new Date(ms);

type PumpRow = Omit<PumpHistoryRecord, "dateTime" | "id"> & {
  id: bigint;
  dateTime: Date;
  part: "day" | "previous" | "next";
};

const PUMP_COLUMNS = Prisma.sql`d.id, d."dateTime", d."eventIndex", d."eventPort", d."eventType", d."eventUrgency", d."eventValue", d."statusShort0" AS "basalRateRaw", d."statusShort1" AS "bolusRateRaw", d."statusByte0" AS battery, d."statusByte1" AS reservoir, d."bolusCheckFailed" AS flagged`;

function toPumpRecord({ part: _part, ...r }: PumpRow): PumpHistoryRecord {
  return { ...r, id: r.id.toString(), dateTime: r.dateTime.getTime() };
}

/** A window's pump rows, the last rate-carrying row before it and the first after it (one round trip). */
async function pumpRowsAround(viewer: Viewer, pid: number, span: Span): Promise<PumpRow[]> {
  const where = scoped(viewer, pid);
  return readDb().$queryRaw<PumpRow[]>`
    (SELECT ${PUMP_COLUMNS}, 'day' AS part FROM "PumpRecord" d
      WHERE ${where} AND d."dateTime" >= ${at(span.start)} AND d."dateTime" < ${at(span.end)})
    UNION ALL
    (SELECT ${PUMP_COLUMNS}, 'previous' AS part FROM "PumpRecord" d
      WHERE ${where} AND d."dateTime" < ${at(span.start)} AND d."eventPort" NOT IN (0, 3)
      ORDER BY d."dateTime" DESC, d."eventIndex" DESC LIMIT 1)
    UNION ALL
    (SELECT ${PUMP_COLUMNS}, 'next' AS part FROM "PumpRecord" d
      WHERE ${where} AND d."dateTime" >= ${at(span.end)}
      ORDER BY d."dateTime", d."eventIndex" LIMIT 1)`;
}

const byTime = (a: PumpHistoryRecord, b: PumpHistoryRecord) =>
  a.dateTime - b.dateTime || (a.eventIndex ?? 0) - (b.eventIndex ?? 0);

/**
 * The inputs of `buildPumpDay` for one day window: the day's records, the last record before it
 * that carries a basal rate (every record but a BG entry, port 3 type 0) and the first after it.
 */
export async function pumpDayRecords(viewer: Viewer, pid: number, window: Span) {
  const rows = await pumpRowsAround(viewer, pid, window);
  const previous = rows.find((r) => r.part === "previous");
  const next = rows.find((r) => r.part === "next");
  return {
    records: rows
      .filter((r) => r.part === "day")
      .map(toPumpRecord)
      .sort(byTime),
    previous: previous ? toPumpRecord(previous) : null,
    next: next ? toPumpRecord(next) : null,
  };
}

/** The inputs of `buildPumpReport` for a range of days: the same rows as {@link pumpDayRecords}, in time order. */
export async function pumpRangeRecords(
  viewer: Viewer,
  pid: number,
  span: Span,
): Promise<PumpHistoryRecord[]> {
  return (await pumpRowsAround(viewer, pid, span)).map(toPumpRecord).sort(byTime);
}

/** The handheld firmware of the patient's newest pump settings upload (for the carbohydrate rules). */
export async function pumpVersion(viewer: Viewer, pid: number): Promise<string | null> {
  const rows = await readDb().$queryRaw<{ pdaVersion: string }[]>`
    SELECT d."pdaVersion" FROM "PumpSetting" d
     WHERE ${scoped(viewer, pid)} AND d."pdaVersion" IS NOT NULL
     ORDER BY d."uploadedAt" DESC LIMIT 1`;
  return rows[0]?.pdaVersion ?? null;
}

/** CGM readings (mg/dL) in a window, oldest first. */
export async function cgmReadings(viewer: Viewer, pid: number, span: Span): Promise<Reading[]> {
  const rows = await readDb().$queryRaw<{ dateTime: Date; mgdl: number }[]>`
    SELECT d."dateTime", d."eventData" AS mgdl FROM "CgmRecord" d
     WHERE ${scoped(viewer, pid)} AND d."dateTime" >= ${at(span.start)} AND d."dateTime" < ${at(span.end)}
     ORDER BY d."dateTime"`;
  return rows.map((r) => ({ time: r.dateTime.getTime(), mgdl: r.mgdl }));
}

/**
 * Of each of these patients the viewer may see, the newest CGM reading and the readings of the
 * `windowMinutes` before it (for its trend arrow), oldest first; a patient without CGM data has no
 * entry. One statement for the whole list (an index look-up per patient).
 */
export async function latestCgmReadings(
  viewer: Viewer,
  pids: readonly number[],
  windowMinutes: number,
): Promise<Map<number, Reading[]>> {
  const found = new Map<number, Reading[]>();
  if (pids.length === 0) return found;
  const rows = await readDb().$queryRaw<{ pid: number; dateTime: Date; mgdl: number }[]>`
    SELECT p.id AS pid, r."dateTime", r.mgdl FROM "Patient" p
     CROSS JOIN LATERAL (SELECT max(x."dateTime") AS last FROM "CgmRecord" x WHERE x."patientId" = p.id) l
     CROSS JOIN LATERAL (
       SELECT d."dateTime", d."eventData" AS mgdl FROM "CgmRecord" d
        WHERE d."patientId" = p.id AND d."dateTime" <= l.last
          AND d."dateTime" >= l.last - make_interval(mins => ${windowMinutes}::int)) r
     WHERE p.id IN (${Prisma.join([...pids])}) AND ${visiblePatientSql(viewer, Prisma.sql`p`)}
     ORDER BY p.id, r."dateTime"`;
  for (const row of rows) {
    const list = found.get(row.pid) ?? [];
    list.push({ time: row.dateTime.getTime(), mgdl: row.mgdl });
    found.set(row.pid, list);
  }
  return found;
}

/**
 * The patient's newest blood-glucose value (meter, finger prick, manual or pump entry) and the
 * time of their newest pump history record, each null without one (one round trip).
 */
export async function latestBgAndPump(
  viewer: Viewer,
  pid: number,
): Promise<{ bg: { time: number; mgdl: number } | null; pumpAt: number | null }> {
  const where = scoped(viewer, pid);
  const rows = await readDb().$queryRaw<
    { bgAt: Date | null; bgMgdl: number | null; pumpAt: Date | null }[]
  >`
    SELECT b."dateTime" AS "bgAt", b.mgdl AS "bgMgdl",
           (SELECT max(d."dateTime") FROM "PumpRecord" d WHERE ${where}) AS "pumpAt"
      FROM (SELECT 1) one
      LEFT JOIN LATERAL (SELECT d."dateTime", d.mgdl FROM "BgRecord" d WHERE ${where}
                          ORDER BY d."dateTime" DESC, d.id DESC LIMIT 1) b ON TRUE`;
  const row = rows[0];
  return {
    bg: row?.bgAt && row.bgMgdl !== null ? { time: row.bgAt.getTime(), mgdl: row.bgMgdl } : null,
    pumpAt: row?.pumpAt ? row.pumpAt.getTime() : null,
  };
}

/** Meter, finger-prick and manual blood readings (mg/dL) in a window, oldest first. */
export async function bgReadings(
  viewer: Viewer,
  pid: number,
  span: Span,
): Promise<BgReadingInput[]> {
  const rows = await readDb().$queryRaw<
    { id: bigint; dateTime: Date; mgdl: number; source: string }[]
  >`
    SELECT d.id, d."dateTime", d.mgdl, d.source::text AS source FROM "BgRecord" d
     WHERE ${scoped(viewer, pid)} AND d."dateTime" >= ${at(span.start)} AND d."dateTime" < ${at(span.end)}
     ORDER BY d."dateTime", d.id`;
  return rows.map((r) => ({
    id: r.id.toString(),
    time: r.dateTime.getTime(),
    mgdl: r.mgdl,
    source: r.source,
  }));
}

/** The local date of the patient's newest data of a kind, or null without data. */
export async function lastDayWithData(
  viewer: Viewer,
  pid: number,
  kind: DataKind,
  timeZone: string,
): Promise<IsoDate | null> {
  const rows = await readDb().$queryRaw<
    { last: Date | null }[]
  >`SELECT max(d."dateTime") AS last FROM ${TABLES[kind]} d WHERE ${scoped(viewer, pid)}`;
  const last = rows[0]?.last;
  return last ? localDate(last.getTime(), timeZone) : null;
}

/**
 * The day with data of a kind nearest to a day without any (the empty state's offer): the newest
 * day before the window and the oldest after it, the nearer one (the earlier on a tie).
 */
export async function nearestDayWith(
  viewer: Viewer,
  pid: number,
  kind: DataKind,
  window: DayWindow,
): Promise<IsoDate | null> {
  const where = scoped(viewer, pid);
  const table = TABLES[kind];
  const rows = await readDb().$queryRaw<{ before: Date | null; after: Date | null }[]>`
    SELECT (SELECT max(d."dateTime") FROM ${table} d WHERE ${where} AND d."dateTime" < ${at(window.start)}) AS before,
           (SELECT min(d."dateTime") FROM ${table} d WHERE ${where} AND d."dateTime" >= ${at(window.end)}) AS after`;
  const days = [rows[0]?.before, rows[0]?.after].flatMap((t) =>
    t ? [localDate(t.getTime(), window.timeZone)] : [],
  );
  return nearestDayWithData(days, window.date);
}

/**
 * The newest stored record, for an uploader that sends only what is new: origin 2 = AiDEX (CGM
 * history), anything else = pump history.
 */
export async function findLastRecord(viewer: Viewer, pid: number, origin: number) {
  const where = scoped(viewer, pid);
  type Row = {
    deviceSn: string;
    index: number;
    deviceTime: string;
    timeZone: string;
    dateTime: Date;
  };
  const rows =
    origin === 2
      ? await db().$queryRaw<Row[]>`
          SELECT d."deviceSn", d."eventIndex" AS index, d."deviceTime", d."timeZone", d."dateTime" FROM "CgmRecord" d
           WHERE ${where} ORDER BY d."dateTime" DESC, d."eventIndex" DESC LIMIT 1`
      : await db().$queryRaw<Row[]>`
          SELECT d."pdaSn" AS "deviceSn", d."recordId" AS index, d."deviceTime", d."recordTimeZone" AS "timeZone", d."dateTime" FROM "PumpRecord" d
           WHERE ${where} ORDER BY d."dateTime" DESC, d."recordId" DESC LIMIT 1`;
  const row = rows[0];
  return row
    ? { origin: origin === 2 ? 2 : 0, ...row, dateTime: row.dateTime.toISOString() }
    : null;
}

/**
 * The time zone of the patient's newest pump upload: the newer of the newest basal settings that
 * name the handheld's zone and the newest insulin pump (equil) with a zone, as the device stored
 * it (`pdaSn` the handheld's serial number); on a tie the basal settings. null without either.
 */
export async function pumpUploadTimeZone(
  viewer: Viewer,
  pid: number,
): Promise<{ pdaSn: string; timeZone: string } | null> {
  const where = scoped(viewer, pid);
  const rows = await db().$queryRaw<{ pdaSn: string; timeZone: string }[]>`
    SELECT u."pdaSn", u."timeZone" FROM (
      (SELECT d."pdaSn", d."pdaTimeZone" AS "timeZone", d."uploadedAt" AS at, 0 AS rank FROM "BasalSetting" d
        WHERE ${where} AND d."pdaTimeZone" <> ''
        ORDER BY d."uploadedAt" DESC, d.id DESC LIMIT 1)
      UNION ALL
      (SELECT d.serial, d."timeZone", COALESCE(d."lastUploadAt", d."firstSeenAt"), 1 FROM "Device" d
        WHERE ${where} AND d.kind = 'equil' AND d."timeZone" <> ''
        ORDER BY COALESCE(d."lastUploadAt", d."firstSeenAt") DESC, d.id DESC LIMIT 1)
    ) u ORDER BY u.at DESC, u.rank LIMIT 1`;
  return rows[0] ?? null;
}

/** The export's rows of one table, a page at a time (keyset pagination on the row id). */
const EXPORT_PAGE = 5000;

/** Where a page of an export's rows starts: after this row, in the order (instant, row id). */
type ExportCursor = { dateTime: Date; id: bigint } | null;

type ExportSource = {
  kind: ExportRow["kind"];
  /**
   * One page of rows after `after`, oldest first (the access rule and the span in its WHERE);
   * keyset on (instant, row id), which the (patient, instant) index serves page by page.
   */
  page: (after: ExportCursor) => Promise<(ExportRow & { id: bigint; dateTime: Date })[]>;
};

/**
 * A page asked for ahead: its failure is kept for the `await` that reads it, and is not an
 * unhandled rejection when the reader stops before it (a download broken off).
 */
function readAhead<T>(page: Promise<T>): Promise<T> {
  page.catch(() => {});
  return page;
}

/** The rows after a cursor, in the order (instant, row id); everything without one. */
function afterCursor(after: ExportCursor): Prisma.Sql {
  return after
    ? Prisma.sql`AND (d."dateTime", d.id) > (${after.dateTime}, ${after.id})`
    : Prisma.empty;
}

/** The local wall clock of an instant in a zone, "YYYY-MM-DD HH:mm:ss". */
function wallClockOf(ms: number, zone: string): string {
  return new Date(ms + new ZoneOffsets(zone, ms, ms).offsetAt(ms))
    .toISOString()
    .slice(0, 19)
    .replace("T", " ");
}

/**
 * Every record of a patient in a window, for the CSV export, one at a time (see
 * {@link exportRecordPages}).
 */
export async function* exportRecords(
  viewer: Viewer,
  pid: number,
  span: Span,
  kinds?: readonly ExportRow["kind"][],
): AsyncGenerator<ExportRow> {
  for await (const page of exportRecordPages(viewer, pid, span, kinds)) yield* page;
}

/**
 * Every record of a patient in a window, for the CSV and Excel exports, kind after kind (CGM
 * readings, blood values, carbohydrate entries and insulin doses of imported files, pump history
 * records), each kind oldest first, a page of up to 5,000 at a time so that a long export is
 * never held whole. Pump records come in the handheld's own order (record number), which the
 * import needs to place repeated autumn hours the same way. Carbohydrate entries derived from
 * pump records are not exported: importing the pump records derives them again. `kinds` limits
 * the export to those kinds (the Excel export reads one kind at a time, a sheet each).
 */
export async function* exportRecordPages(
  viewer: Viewer,
  pid: number,
  span: Span,
  kinds: readonly ExportRow["kind"][] = ["cgm", "bg", "carbs", "insulin", "pump"],
): AsyncGenerator<ExportRow[]> {
  const where = scoped(viewer, pid);
  const within = Prisma.sql`d."dateTime" >= ${at(span.start)} AND d."dateTime" < ${at(span.end)}`;
  type Task = { kind: string | null; zone: string | null; firmware: string | null };
  const TASK = Prisma.sql`LEFT JOIN "UploadTask" t ON t.id = d."uploadId"`;
  const sources: ExportSource[] = [
    {
      kind: "cgm",
      page: async (after) => {
        const rows = await db().$queryRaw<
          ({
            id: bigint;
            dateTime: Date;
            mgdl: number;
            deviceTime: string;
            timeZone: string;
            deviceSn: string;
            eventIndex: number;
          } & Task)[]
        >`
          SELECT d.id, d."dateTime", d."eventData" AS mgdl, d."deviceTime", d."timeZone", d."deviceSn", d."eventIndex", t."deviceKind"::text AS kind
            FROM "CgmRecord" d ${TASK} WHERE ${where} AND ${within} ${afterCursor(after)} ORDER BY d."dateTime", d.id LIMIT ${EXPORT_PAGE}`;
        return rows.map((r) => ({
          id: r.id,
          dateTime: r.dateTime,
          kind: "cgm",
          utc: r.dateTime.getTime(),
          localTime: r.deviceTime,
          timeZone: r.timeZone,
          deviceKind: r.kind ?? "aidex",
          deviceSerial: r.deviceSn,
          source: null,
          recordKey: String(r.eventIndex),
          firmware: null,
          mgdl: r.mgdl,
        }));
      },
    },
    {
      kind: "bg",
      page: async (after) => {
        const rows = await db().$queryRaw<
          ({
            id: bigint;
            dateTime: Date;
            mgdl: number;
            deviceTime: string;
            timeZone: string;
            deviceSn: string;
            recordKey: string;
            source: string;
          } & Task)[]
        >`
          SELECT d.id, d."dateTime", d.mgdl, d."deviceTime", d."timeZone", d."deviceSn", d."recordKey", d.source::text AS source, t."deviceKind"::text AS kind
            FROM "BgRecord" d ${TASK} WHERE ${where} AND ${within} ${afterCursor(after)} ORDER BY d."dateTime", d.id LIMIT ${EXPORT_PAGE}`;
        return rows.map((r) => ({
          id: r.id,
          dateTime: r.dateTime,
          kind: "bg",
          utc: r.dateTime.getTime(),
          localTime: r.deviceTime,
          timeZone: r.timeZone,
          deviceKind: r.kind ?? (r.source === "meter" ? "gocheck" : "aidex"),
          deviceSerial: r.deviceSn,
          source: r.source,
          recordKey: r.recordKey,
          firmware: null,
          mgdl: r.mgdl,
        }));
      },
    },
    {
      kind: "carbs",
      page: async (after) => {
        const rows = await db().$queryRaw<
          ({
            id: bigint;
            dateTime: Date;
            grams: number;
            deviceSn: string;
            recordKey: string;
            patientZone: string;
          } & Task)[]
        >`
          SELECT d.id, d."dateTime", d.grams, d."deviceSn", d."recordKey", t."timeZone" AS zone, t."deviceKind"::text AS kind, p."timeZone" AS "patientZone"
            FROM "CarbEntry" d ${TASK} JOIN "Patient" p ON p.id = d."patientId"
           WHERE ${where} AND ${within} AND d."pumpRecordId" IS NULL AND d."recordKey" IS NOT NULL ${afterCursor(after)} ORDER BY d."dateTime", d.id LIMIT ${EXPORT_PAGE}`;
        return rows.map((r) => {
          const zone = r.zone ?? r.patientZone;
          const utc = r.dateTime.getTime();
          return {
            id: r.id,
            dateTime: r.dateTime,
            kind: "carbs",
            utc,
            localTime: wallClockOf(utc, zone),
            timeZone: zone,
            deviceKind: r.kind ?? "imported",
            deviceSerial: r.deviceSn,
            source: null,
            recordKey: r.recordKey,
            firmware: null,
            grams: r.grams,
          };
        });
      },
    },
    {
      kind: "insulin",
      page: async (after) => {
        const rows = await db().$queryRaw<
          ({
            id: bigint;
            dateTime: Date;
            units: number;
            insulin: "rapid" | "long";
            deviceSn: string;
            recordKey: string;
            patientZone: string;
          } & Task)[]
        >`
          SELECT d.id, d."dateTime", d.units, d.kind::text AS insulin, d."deviceSn", d."recordKey", t."timeZone" AS zone, t."deviceKind"::text AS kind, p."timeZone" AS "patientZone"
            FROM "InsulinEntry" d ${TASK} JOIN "Patient" p ON p.id = d."patientId"
           WHERE ${where} AND ${within} ${afterCursor(after)} ORDER BY d."dateTime", d.id LIMIT ${EXPORT_PAGE}`;
        return rows.map((r) => {
          const zone = r.zone ?? r.patientZone;
          const utc = r.dateTime.getTime();
          return {
            id: r.id,
            dateTime: r.dateTime,
            kind: "insulin",
            utc,
            localTime: wallClockOf(utc, zone),
            timeZone: zone,
            deviceKind: r.kind ?? "imported",
            deviceSerial: r.deviceSn,
            source: null,
            recordKey: r.recordKey,
            firmware: null,
            units: r.units,
            insulin: r.insulin,
          };
        });
      },
    },
  ];
  for (const source of sources) {
    if (!kinds.includes(source.kind)) continue;
    // The next page is asked for before this one's rows are handed on, so that the database
    // reads it while the caller writes these.
    let next: ReturnType<ExportSource["page"]> | null = source.page(null);
    while (next) {
      const rows: Awaited<ReturnType<ExportSource["page"]>> = await next;
      const last = rows.length === EXPORT_PAGE ? rows[rows.length - 1]! : null;
      next = last ? readAhead(source.page({ dateTime: last.dateTime, id: last.id })) : null;
      yield rows.map(({ id: _id, dateTime: _at, ...row }) => row as ExportRow);
    }
  }
  if (kinds.includes("pump")) yield* exportPumpRecords(where, within);
}

/** Pump history records in the handheld's order (serial, record number), with the firmware of their upload. */
async function* exportPumpRecords(
  where: Prisma.Sql,
  within: Prisma.Sql,
): AsyncGenerator<ExportRow[]> {
  type Row = PumpRecordFields & {
    dateTime: Date;
    deviceTime: string;
    recordTimeZone: string;
    pdaSn: string;
    firmware: string | null;
  };
  const page = (after: { sn: string; id: number } | null) => {
    const from: Prisma.Sql = after
      ? Prisma.sql`AND (d."pdaSn", d."recordId") > (${after.sn}, ${after.id})`
      : Prisma.empty;
    return db().$queryRaw<Row[]>`
      SELECT d."recordId", d."eventIndex", d."eventPort", d."eventType", d."eventUrgency", d."eventValue", d."statusByte0" AS battery, d."statusByte1" AS reservoir, d."statusShort0" AS "basalRateRaw", d."statusShort1" AS "bolusRateRaw",
             d."dateTime", d."deviceTime", d."recordTimeZone", d."pdaSn", t."pdaVersion" AS firmware
        FROM "PumpRecord" d LEFT JOIN "UploadTask" t ON t.id = d."uploadId"
       WHERE ${where} AND ${within} ${from} ORDER BY d."pdaSn", d."recordId" LIMIT ${EXPORT_PAGE}`;
  };
  let next: Promise<Row[]> | null = page(null);
  while (next) {
    const rows: Row[] = await next;
    const last = rows.length === EXPORT_PAGE ? rows[rows.length - 1]! : null;
    next = last ? readAhead(page({ sn: last.pdaSn, id: last.recordId })) : null;
    yield rows.map(({ dateTime, deviceTime, recordTimeZone, pdaSn, firmware, ...record }) => ({
      kind: "pump",
      utc: dateTime.getTime(),
      localTime: deviceTime,
      timeZone: recordTimeZone,
      deviceKind: "equil",
      deviceSerial: pdaSn,
      source: null,
      recordKey: String(record.recordId),
      firmware,
      record,
    }));
  }
}
