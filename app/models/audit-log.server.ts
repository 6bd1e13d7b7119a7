import type { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";
import { displayName } from "~/utils/names";

/**
 * Writes one entry of the access audit log: who read or changed which patient's data. Raw SQL:
 * it runs on every patient page view (docs/decisions/008-raw-sql-on-hot-paths.md).
 */
export async function logPatientAccess(entry: { actorId: number; patientId: number; action: string; detail?: Prisma.InputJsonValue }) {
  const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
  await db().$executeRaw`INSERT INTO "AuditLog" ("actorId", "patientId", action, detail) VALUES (${entry.actorId}, ${entry.patientId}, ${entry.action}, ${detail}::jsonb)`;
}

/**
 * "Who viewed my data": the entries of the access log for the viewer's own patient record,
 * by anyone but the viewer, newest first.
 */
export async function listAccessToMyData(userId: number, { page, pageSize }: { page: number; pageSize: number }) {
  const patient = await db().patient.findUnique({ where: { userId }, select: { id: true } });
  if (!patient) return { total: 0, items: [] };
  const where: Prisma.AuditLogWhereInput = { patientId: patient.id, NOT: { actorId: userId } };
  const [total, rows] = await Promise.all([
    db().auditLog.count({ where }),
    db().auditLog.findMany({
      where,
      orderBy: { at: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: { actor: { select: { email: true, firstName: true, lastName: true, identity: true } } },
    }),
  ]);
  return {
    total,
    items: rows.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      action: r.action,
      who: r.actor ? displayName(r.actor) : null,
      identity: r.actor?.identity ?? null,
    })),
  };
}
