import { Prisma, type AccessChannel } from "@prisma/client";
import { db } from "~/utils/db.server";
import { displayName } from "~/utils/names";
import { formatDateTime } from "~/report/locale-format";
import { cursorText, pageRead, type Cursor, type PageRead } from "~/domain/keyset";
import { accessActionKeys, accessLogPage, accessRoleKey } from "./access-log";

/**
 * Writes one read of a patient's data to the access log: who, which patient, what, through which
 * channel. Only the access gateway (app/services/patient-read.server.ts) calls it. Raw SQL: it
 * runs on every read (docs/decisions/008-raw-sql-on-hot-paths.md).
 */
export async function logPatientRead(entry: {
  actorId: number | null;
  patientId: number;
  action: string;
  channel: AccessChannel;
  detail?: Prisma.InputJsonValue;
}) {
  const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
  await db()
    .$executeRaw`INSERT INTO "AuditLog" ("actorId", "patientId", action, channel, detail) VALUES (${entry.actorId}, ${entry.patientId}, ${entry.action}, ${entry.channel}::"AccessChannel", ${detail}::jsonb)`;
}

/**
 * Writes reads of several patients' data at once (a list that shows each one's data): one row a
 * patient, in one statement. Only the access gateway calls it.
 */
export async function logPatientReads(entries: readonly Parameters<typeof logPatientRead>[0][]) {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => {
    const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
    return Prisma.sql`(${entry.actorId}, ${entry.patientId}, ${entry.action}, ${entry.channel}::"AccessChannel", ${detail}::jsonb)`;
  });
  await db()
    .$executeRaw`INSERT INTO "AuditLog" ("actorId", "patientId", action, channel, detail) VALUES ${Prisma.join(rows)}`;
}

/** The dates a logged read covered, when it named any. */
function loggedRange(detail: Prisma.JsonValue): { start: string; end: string } | null {
  if (!detail || typeof detail !== "object" || Array.isArray(detail)) return null;
  const { start, end } = detail as Record<string, unknown>;
  return typeof start === "string" && typeof end === "string" ? { start, end } : null;
}

/**
 * "Who viewed my data": the entries of the access log for the viewer's own patient record, by
 * anyone but the viewer, newest first (entries of the same instant: the later written first),
 * `pageSize` a page (a page past the end is the last page). A link from a neighbouring page
 * carries that page's edge entry (`after`, `before`: app/domain/keyset.ts) and the page is read
 * from it; a page named by number alone is read by its offset. Each entry carries its time on the
 * clock of the patient's time zone in the reader's language, the reader's name and role, and the translation keys of what
 * happened (app/models/access-log.ts); `first` and `last` are the page's edge keys.
 */
export async function listAccessToMyData(
  userId: number,
  {
    page: asked,
    pageSize,
    locale,
    after,
    before,
  }: { page: number; pageSize: number; locale: string; after?: Cursor; before?: Cursor },
) {
  const patient = await db().patient.findUnique({
    where: { userId },
    select: { id: true, timeZone: true },
  });
  if (!patient)
    return { total: 0, page: 1, pages: 1, timeZone: null, items: [], first: null, last: null };
  const where: Prisma.AuditLogWhereInput = { patientId: patient.id, NOT: { actorId: userId } };
  const total = await db().auditLog.count({ where });
  const { page, pages } = accessLogPage(asked, total, pageSize);
  const read = pageRead(page, pageSize, { after, before });
  let rows = await readAccessPage(where, read, pageSize);
  // A cursor past either end of the list (its entries gone) reads the page by its number.
  if (rows.length === 0 && read.by !== "offset")
    rows = await readAccessPage(where, pageRead(page, pageSize, {}), pageSize);
  const edge = (row: (typeof rows)[number] | undefined) =>
    row ? cursorText(row.at, row.id) : null;
  return {
    total,
    page,
    pages,
    first: edge(rows[0]),
    last: edge(rows.at(-1)),
    timeZone: patient.timeZone,
    items: rows.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      when: formatDateTime(r.at.getTime(), patient.timeZone, locale),
      what: accessActionKeys(r.action, r.channel),
      channel: r.channel,
      range: loggedRange(r.detail),
      who: r.actor ? displayName(r.actor) : null,
      role: accessRoleKey(r.actor),
    })),
  };
}

/** The entries of one page of the access log, newest first, read as `read` says. */
async function readAccessPage(where: Prisma.AuditLogWhereInput, read: PageRead, pageSize: number) {
  const include = {
    actor: {
      select: { email: true, firstName: true, lastName: true, identity: true, role: true },
    },
  } as const;
  const newestFirst = [{ at: "desc" }, { id: "desc" }] as const;
  if (read.by === "offset")
    return db().auditLog.findMany({
      where,
      orderBy: [...newestFirst],
      skip: read.skip,
      take: pageSize,
      include,
    });
  const { at, id } = read.cursor;
  const older = read.by === "after";
  const beyond: Prisma.AuditLogWhereInput = older
    ? { OR: [{ at: { lt: at } }, { at, id: { lt: id } }] }
    : { OR: [{ at: { gt: at } }, { at, id: { gt: id } }] };
  const rows = await db().auditLog.findMany({
    where: { AND: [where, beyond] },
    orderBy: older ? [...newestFirst] : [{ at: "asc" }, { id: "asc" }],
    take: pageSize,
    include,
  });
  return older ? rows : rows.reverse();
}
