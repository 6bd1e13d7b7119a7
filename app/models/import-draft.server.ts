import { randomBytes } from "node:crypto";
import { db } from "~/utils/db.server";

/**
 * Files read for an import's preview, kept until the operator confirms or cancels: the confirm
 * form (which works without JavaScript) names the draft by a random token instead of sending the
 * file again. A draft belongs to one operator and one patient and lives at most an hour.
 */

export const IMPORT_DRAFT_TTL_MS = 60 * 60_000;

export type ImportDraftInput = {
  patientId: number;
  uploaderId: number;
  fileName: string;
  bytes: Uint8Array;
  format: string | null;
  timeZone: string;
  dateOrder: string | null;
  columns: string | null;
};
export type ImportDraft = ImportDraftInput & { token: string };

export async function createImportDraft(input: ImportDraftInput): Promise<string> {
  const token = randomBytes(18).toString("base64url");
  await db().importDraft.create({ data: { ...input, bytes: Buffer.from(input.bytes), token } });
  return token;
}

/** The operator's draft for this patient, or null (unknown, someone else's, or older than an hour). */
export async function findImportDraft(
  token: string,
  uploaderId: number,
  patientId: number,
  now = new Date(),
): Promise<ImportDraft | null> {
  const row = await db().importDraft.findFirst({
    where: {
      token,
      uploaderId,
      patientId,
      createdAt: { gt: new Date(now.getTime() - IMPORT_DRAFT_TTL_MS) },
    },
  });
  return row
    ? {
        token: row.token,
        patientId: row.patientId,
        uploaderId: row.uploaderId,
        fileName: row.fileName,
        bytes: new Uint8Array(row.bytes),
        format: row.format,
        timeZone: row.timeZone,
        dateOrder: row.dateOrder,
        columns: row.columns,
      }
    : null;
}

export async function deleteImportDraft(token: string, uploaderId: number): Promise<void> {
  await db().importDraft.deleteMany({ where: { token, uploaderId } });
}

/** Deletes drafts older than an hour; for the periodic purge. */
export async function purgeImportDrafts(now = new Date()): Promise<number> {
  const { count } = await db().importDraft.deleteMany({
    where: { createdAt: { lte: new Date(now.getTime() - IMPORT_DRAFT_TTL_MS) } },
  });
  return count;
}
