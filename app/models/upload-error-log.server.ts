import type { UploadErrorReport } from "~/schemas/upload-error-log";
import { db } from "~/utils/db.server";
import { hitRateLimit, RATE_LIMITS } from "./rate-limit.server";

/**
 * The upload wizard's error reports: what went wrong in the browser while reading or sending a
 * device's data. Stored as sent, read by staff only.
 */

export type ReportUploadErrorsResult =
  | { ok: true; count: number }
  | { ok: false; status: 403; error: string }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number };

/**
 * Stores the reports of `operatorId` in one statement. Every report must name the caller as its
 * operator (403 otherwise, nothing stored); each accepted call counts against the account's
 * limit (429 with the seconds to wait once it is spent).
 */
export async function reportUploadErrors(
  operatorId: number,
  list: readonly UploadErrorReport[],
): Promise<ReportUploadErrorsResult> {
  if (list.some((report) => report.operatorUserId !== operatorId))
    return { ok: false, status: 403, error: "uploadErrLog.notOperator" };
  const limit = await hitRateLimit(
    `upload-errors:${operatorId}`,
    RATE_LIMITS.uploadErrorReportsPerAccount,
  );
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      error: "uploadErrLog.throttled",
      retryAfterSeconds: limit.retryAfterSeconds,
    };
  const { count } = await db().uploadErrorLog.createMany({
    data: list.map((report) => ({
      operatorUserId: operatorId,
      patientUserId: report.patientUserId ?? null,
      content: report.content,
    })),
  });
  return { ok: true, count };
}

export type UploadErrorEntry = {
  id: number;
  at: string;
  operatorEmail: string | null;
  patientUserId: number | null;
  patientEmail: string | null;
  content: string;
};

/**
 * One page of the reports, newest first, with the email of the operator and of the patient (null
 * for an account that no longer exists). A page past the last is the last.
 */
export async function listUploadErrors({
  page,
  pageSize,
}: {
  page: number;
  pageSize: number;
}): Promise<{ total: number; page: number; pages: number; items: UploadErrorEntry[] }> {
  const total = await db().uploadErrorLog.count();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const shown = Math.min(page, pages);
  const rows = await db().uploadErrorLog.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (shown - 1) * pageSize,
    take: pageSize,
  });
  const ids = [
    ...new Set(
      rows.flatMap((r) =>
        r.patientUserId === null ? [r.operatorUserId] : [r.operatorUserId, r.patientUserId],
      ),
    ),
  ];
  const users = ids.length
    ? await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })
    : [];
  const email = new Map(users.map((u) => [u.id, u.email]));
  return {
    total,
    page: shown,
    pages,
    items: rows.map((r) => ({
      id: r.id,
      at: r.createdAt.toISOString(),
      operatorEmail: email.get(r.operatorUserId) ?? null,
      patientUserId: r.patientUserId,
      patientEmail: r.patientUserId === null ? null : (email.get(r.patientUserId) ?? null),
      content: r.content,
    })),
  };
}
