import type { Prisma } from "@prisma/client";
import { ShareState } from "~/domain/codes";
import type { UpdateShareInput } from "~/schemas/read-power";
import { db } from "~/utils/db.server";
import { mayReadSharedData, type Viewer } from "./access.server";
import {
  errorKey,
  FORBIDDEN,
  partyOf,
  recipientOf,
  rowInclude,
  runShare,
  ShareError,
  toListItem,
  writeAudit,
  type PatientListItem,
  type ShareResult,
} from "./read-power.server";

/**
 * Changing and removing shares: either side deletes a row, the reader's nickname and the
 * "new" dots (isNew for the recipient, uploadIsNew for the reader).
 */

/**
 * POST delete: either side removes the row (the patient stops sharing, the reader gives it up,
 * a pending request is withdrawn or declined). Access ends at once; the row's links die with it.
 */
export async function deleteShare(
  viewer: Viewer,
  { readPowerId }: { readPowerId: number },
): Promise<ShareResult<{ readPowerId: number }>> {
  return runShare(() =>
    db().$transaction(async (tx) => {
      const row = await tx.readPower.findFirst({
        where: { id: readPowerId, ...partyOf(viewer) },
        include: rowInclude,
      });
      if (!row) throw new ShareError(403, FORBIDDEN);
      const gone = await tx.readPower.deleteMany({ where: { id: row.id } });
      if (gone.count !== 1) throw new ShareError(403, FORBIDDEN);
      await writeAudit(tx, viewer, row, "share:delete");
      return { readPowerId: row.id };
    }),
  );
}

/**
 * POST update: the reader sets the nickname ("" clears it) and uploadIsNew; the recipient sets
 * isNew. A clinic whose organisation is not approved changes nothing here.
 */
export async function updateShare(
  viewer: Viewer,
  input: UpdateShareInput,
): Promise<ShareResult<PatientListItem>> {
  if (!mayReadSharedData(viewer))
    return { ok: false, status: 403, error: errorKey("auditRequired") };
  return runShare(() =>
    db().$transaction(async (tx) => {
      const row = await tx.readPower.findFirst({
        where: { id: input.readPowerId, ...partyOf(viewer) },
      });
      if (!row) throw new ShareError(403, FORBIDDEN);
      if (
        (input.nickName !== undefined || input.uploadIsNew !== undefined) &&
        row.readerId !== viewer.id
      )
        throw new ShareError(403, FORBIDDEN);
      if (input.isNew !== undefined && recipientOf(row) !== viewer.id)
        throw new ShareError(403, FORBIDDEN);
      const data: Prisma.ReadPowerUpdateInput = {};
      if (input.nickName !== undefined) data.nickName = input.nickName || null;
      if (input.isNew !== undefined) data.isNew = input.isNew;
      if (input.uploadIsNew !== undefined) data.uploadIsNew = input.uploadIsNew;
      const updated = await tx.readPower.update({
        where: { id: row.id },
        data,
        include: rowInclude,
      });
      const changed: Record<string, string | number | null> = {};
      for (const key of ["nickName", "isNew", "uploadIsNew"] as const)
        if (input[key] !== undefined) changed[key] = updated[key];
      await writeAudit(tx, viewer, updated, "share:update", changed);
      return toListItem(updated, row.readerId === viewer.id ? "provider" : "reader");
    }),
  );
}

/** Opening a patient's entry clears the reader's "new uploads" dot (uploadIsNew 1). */
export async function markUploadsSeen(viewer: Viewer, providerUserId: number): Promise<void> {
  // Raw SQL: it runs on every patient page view (docs/decisions/008-raw-sql-on-hot-paths.md).
  await db().$executeRaw`
    UPDATE "ReadPower" SET "uploadIsNew" = 1, "updatedAt" = now()
     WHERE "readerId" = ${viewer.id} AND "providerId" = ${providerUserId} AND state = ${ShareState.Accepted} AND "uploadIsNew" = 0`;
}
