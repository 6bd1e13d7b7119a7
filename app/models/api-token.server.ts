import { createHash, randomBytes } from "node:crypto";
import { db } from "~/utils/db.server";

export const API_TOKEN_TTL_DAYS = 7;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** API codes for token problems (DESIGN.md 2). 806 (signed in elsewhere) is not enforced. */
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

export type TokenCheck = { ok: true; userId: number; active: boolean } | { ok: false; code: (typeof TOKEN_CODES)[keyof typeof TOKEN_CODES] };

/** Checks the `token` header value and says which API code applies when it cannot be used. */
export async function checkApiToken(token: string | null): Promise<TokenCheck> {
  if (!token) return { ok: false, code: TOKEN_CODES.missing };
  if (!TOKEN_PATTERN.test(token)) return { ok: false, code: TOKEN_CODES.malformed };
  const row = await db().apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { user: { select: { id: true, active: true, disabled: true, deletedAt: true, passwordChangedAt: true } } },
  });
  if (!row || row.revokedAt) return { ok: false, code: TOKEN_CODES.revoked };
  if (row.expiresAt < new Date()) return { ok: false, code: TOKEN_CODES.expired };
  if (row.user.deletedAt) return { ok: false, code: TOKEN_CODES.deleted };
  if (row.user.disabled) return { ok: false, code: TOKEN_CODES.disabled };
  if (row.user.passwordChangedAt && row.user.passwordChangedAt > row.createdAt) return { ok: false, code: TOKEN_CODES.refreshRequired };
  await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return { ok: true, userId: row.user.id, active: row.user.active };
}

export async function revokeApiToken(token: string) {
  await db().apiToken.updateMany({ where: { tokenHash: hashToken(token), revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Deletes tokens that can no longer be used (expired or revoked); for the periodic purge. */
export async function purgeDeadApiTokens(now = new Date()): Promise<number> {
  const { count } = await db().apiToken.deleteMany({ where: { OR: [{ expiresAt: { lt: now } }, { revokedAt: { not: null } }] } });
  return count;
}
