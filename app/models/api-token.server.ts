import { createHash, randomBytes } from "node:crypto";
import { db } from "~/utils/db.server";
import type { Viewer } from "./access.server";
import { direct } from "./direct-sql.server";

export const API_TOKEN_TTL_DAYS = 7;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** API codes for token problems (docs/api.md). 806 (signed in elsewhere) is not enforced. */
export const TOKEN_CODES = {
  missing: 800,
  malformed: 801,
  expired: 802,
  revoked: 803,
  disabled: 804,
  deleted: 805,
  refreshRequired: 807,
} as const;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new opaque token for `/api/` calls; only its SHA-256 is stored. */
export async function createApiToken(userId: number, userAgent?: string | null): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db().apiToken.create({
    data: {
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + API_TOKEN_TTL_DAYS * 86_400_000),
      userAgent: userAgent?.slice(0, 200) ?? null,
    },
  });
  return token;
}

export type TokenCheck =
  | { ok: true; active: boolean; viewer: Viewer }
  | { ok: false; code: (typeof TOKEN_CODES)[keyof typeof TOKEN_CODES] };

/** `lastUsedAt` is kept to the minute: a write on every call would cost more than the call's read. */
const LAST_USED_PRECISION_SECONDS = 60;

/**
 * Checks the `token` header value and says which API code applies when it cannot be used. Runs on
 * every `/api/` call, so it is one raw query (docs/decisions/008-raw-sql-on-hot-paths.md).
 */
export async function checkApiToken(token: string | null): Promise<TokenCheck> {
  if (!token) return { ok: false, code: TOKEN_CODES.missing };
  if (!TOKEN_PATTERN.test(token)) return { ok: false, code: TOKEN_CODES.malformed };
  // Every API call asks this: straight to the driver, without Prisma's query layer
  // (docs/decisions/027-early-upload-writing.md).
  const rows = await direct().$queryRaw<
    {
      id: number;
      createdAt: Date;
      expiresAt: Date;
      revokedAt: Date | null;
      lastUsedAt: Date | null;
      userId: number;
      identity: number;
      isPass: number;
      role: string;
      active: boolean;
      disabled: boolean;
      deletedAt: Date | null;
      passwordChangedAt: Date | null;
    }[]
  >`
    SELECT t.id, t."createdAt", t."expiresAt", t."revokedAt", t."lastUsedAt", u.id AS "userId", u.identity, u."isPass", u.role::text AS role, u.active, u.disabled, u."deletedAt", u."passwordChangedAt"
      FROM "ApiToken" t JOIN "User" u ON u.id = t."userId"
     WHERE t."tokenHash" = ${hashToken(token)}`;
  const row = rows[0];
  if (!row || row.revokedAt) return { ok: false, code: TOKEN_CODES.revoked };
  const now = new Date();
  if (row.expiresAt < now) return { ok: false, code: TOKEN_CODES.expired };
  if (row.deletedAt) return { ok: false, code: TOKEN_CODES.deleted };
  if (row.disabled) return { ok: false, code: TOKEN_CODES.disabled };
  if (row.passwordChangedAt && row.passwordChangedAt > row.createdAt)
    return { ok: false, code: TOKEN_CODES.refreshRequired };
  if (
    !row.lastUsedAt ||
    now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_SECONDS * 1000
  ) {
    await direct().$executeRaw`UPDATE "ApiToken" SET "lastUsedAt" = ${now} WHERE id = ${row.id}`;
  }
  const viewer = { id: row.userId, identity: row.identity, isPass: row.isPass, role: row.role };
  return { ok: true, active: row.active, viewer };
}

export async function revokeApiToken(token: string) {
  await db().apiToken.updateMany({
    where: { tokenHash: hashToken(token), revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** Deletes tokens that can no longer be used (expired or revoked); for the periodic purge. */
export async function purgeDeadApiTokens(now = new Date()): Promise<number> {
  const { count } = await db().apiToken.deleteMany({
    where: { OR: [{ expiresAt: { lt: now } }, { revokedAt: { not: null } }] },
  });
  return count;
}
