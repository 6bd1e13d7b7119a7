import { Prisma } from "@prisma/client";
import { Identity } from "~/domain/codes";
import { findVisiblePatient, mayReadSharedData, type Viewer } from "~/models/access.server";
import { TAGS_PER_CLINIC, type TagForm } from "~/schemas/clinic-tags";
import { db } from "~/utils/db.server";

/**
 * A clinic's own tags for its patients: defined, renamed and deleted by the clinic (an approved
 * one), attached to and removed from the patients who share with it. A tag belongs to the clinic
 * alone: every call finds the tag by its id and the clinic's, so another account's tag is "not
 * found", and no page shows one clinic's tags to anyone else. Names are unique per clinic
 * ignoring case; a clinic has at most 20. A tag is attached only to a patient the access rule
 * lets the clinic see (an accepted share), never to the clinic's own record.
 */

export type ClinicTag = { id: number; name: string; patients: number };

export type TagResult =
  { ok: true; message: string } | { ok: false; error: string; status: 400 | 403 | 404 | 409 };

/** An approved clinic: the only account with tags. */
export function mayTag(viewer: Viewer): boolean {
  return viewer.identity === Identity.Clinic && mayReadSharedData(viewer);
}

/** The clinic's tags by name (ignoring case), with how many of its visible patients carry each. */
export async function clinicTags(viewer: Viewer): Promise<ClinicTag[]> {
  if (!mayTag(viewer)) return [];
  const tags = await db().clinicTag.findMany({
    where: { clinicId: viewer.id },
    select: { id: true, name: true, _count: { select: { patients: true } } },
  });
  return tags
    .map((t) => ({ id: t.id, name: t.name, patients: t._count.patients }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.id - b.id);
}

const fail = (error: string, status: 400 | 403 | 404 | 409): TagResult => ({
  ok: false,
  error,
  status,
});

/** Another of the clinic's tags already has this name, ignoring case. */
async function nameTaken(
  tx: Prisma.TransactionClient,
  clinicId: number,
  name: string,
  except: number | null,
): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM "ClinicTag" WHERE "clinicId" = ${clinicId} AND lower(name) = lower(${name})
       AND id <> ${except ?? 0} LIMIT 1`;
  return rows.length > 0;
}

/**
 * Carries out one validated tag form for `viewer`. Defining and renaming run in a transaction
 * that first locks the clinic's account row, so that two requests at once cannot pass the limit
 * or the unique name between them.
 */
export async function applyTagForm(viewer: Viewer, form: TagForm): Promise<TagResult> {
  if (!mayTag(viewer)) return fail("tags.errors.notAllowed", 403);
  switch (form.intent) {
    case "create":
    case "rename":
      return db().$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${viewer.id} FOR UPDATE`;
        const except = form.intent === "rename" ? form.tagId : null;
        if (except !== null) {
          const own = await tx.clinicTag.findFirst({ where: { id: except, clinicId: viewer.id } });
          if (!own) return fail("tags.errors.tagNotFound", 404);
        }
        if (await nameTaken(tx, viewer.id, form.name, except))
          return fail("tags.errors.nameTaken", 409);
        if (form.intent === "create") {
          const count = await tx.clinicTag.count({ where: { clinicId: viewer.id } });
          if (count >= TAGS_PER_CLINIC) return fail("tags.errors.tooMany", 409);
          await tx.clinicTag.create({ data: { clinicId: viewer.id, name: form.name } });
          return { ok: true, message: "tags.done.created" };
        }
        await tx.clinicTag.update({ where: { id: form.tagId }, data: { name: form.name } });
        return { ok: true, message: "tags.done.renamed" };
      });
    case "delete": {
      // The tag and its links to patients go together (the links cascade in the database).
      const { count } = await db().clinicTag.deleteMany({
        where: { id: form.tagId, clinicId: viewer.id },
      });
      return count
        ? { ok: true, message: "tags.done.deleted" }
        : fail("tags.errors.tagNotFound", 404);
    }
    case "attach": {
      const tag = await db().clinicTag.findFirst({
        where: { id: form.tagId, clinicId: viewer.id },
      });
      if (!tag) return fail("tags.errors.tagNotFound", 404);
      const patient = await findVisiblePatient(viewer, form.patientId);
      if (!patient || patient.userId === viewer.id) return fail("tags.errors.patientNotFound", 404);
      await db().$executeRaw`
        INSERT INTO "PatientTag" ("tagId", "patientId") VALUES (${tag.id}, ${patient.id})
        ON CONFLICT DO NOTHING`;
      return { ok: true, message: "tags.done.attached" };
    }
    case "detach": {
      const tag = await db().clinicTag.findFirst({
        where: { id: form.tagId, clinicId: viewer.id },
      });
      if (!tag) return fail("tags.errors.tagNotFound", 404);
      await db().patientTag.deleteMany({ where: { tagId: tag.id, patientId: form.patientId } });
      return { ok: true, message: "tags.done.detached" };
    }
  }
}
