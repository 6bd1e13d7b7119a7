import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

/**
 * Fixed-window rate limits kept in PostgreSQL (model RateLimit), so that they hold across every
 * app server. One atomic statement per hit: the first hit of a key (or the first after its
 * window ended) starts a window of `windowSeconds` with count 1; later hits in the window add
 * one. A hit is allowed while the count is within the limit. Times come from the database's
 * clock, so app servers with slightly different clocks agree.
 */

export type RateLimitRule = { limit: number; windowSeconds: number };
export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number };

/**
 * The product's limits. Keys name what is counted, e.g. `signin:account:<email>`. The per-IP
 * limits are configurable: a hospital network may put many clinicians behind one address.
 */
export const RATE_LIMITS = {
  /**
   * Failed sign-ins for one account from one client IP. Counting per account and IP means
   * someone guessing from one address locks only that address out of the account, never the
   * account's owner elsewhere.
   */
  signInFailuresPerAccountIp: { limit: 5, windowSeconds: 15 * 60 },
  /** Failed sign-ins for one account from all addresses together: the slower ceiling against guessing from many IPs. */
  signInFailuresPerAccount: { limit: 50, windowSeconds: 60 * 60 },
  /** Failed sign-ins from one client IP, any account (RATE_LIMIT_SIGNIN_PER_IP); successes do not count. */
  get signInFailuresPerIp() {
    return { limit: env().RATE_LIMIT_SIGNIN_PER_IP, windowSeconds: 15 * 60 };
  },
  /** Emailed codes sent to one address. */
  sendCodePerEmail: { limit: 5, windowSeconds: 60 * 60 },
  /** Emailed codes requested from one client IP (RATE_LIMIT_CODES_PER_IP). */
  get sendCodePerIp() {
    return { limit: env().RATE_LIMIT_CODES_PER_IP, windowSeconds: 60 * 60 };
  },
  /** Codes typed for one address. */
  checkCodePerEmail: { limit: 10, windowSeconds: 15 * 60 },
  /** Share and invitation searches by one account. */
  shareSearchPerAccount: { limit: 20, windowSeconds: 10 * 60 },
  /** Upload error reports sent by one account (each call may carry up to 250 reports). */
  uploadErrorReportsPerAccount: { limit: 20, windowSeconds: 10 * 60 },
  /** Nightscout calls refused for a wrong or unknown link or secret, from one client IP. */
  nightscoutFailuresPerIp: { limit: 30, windowSeconds: 15 * 60 },
  /** Calls on one Nightscout link (an uploader posts every minute or five; a backfill posts in batches). */
  nightscoutCallsPerLink: { limit: 600, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimitRule>;

/**
 * Counts one hit on `key`. `retryAfterSeconds` is 0 when allowed, otherwise the seconds until
 * the window ends (at least 1). The stored count stops at limit + 1, so it cannot overflow.
 */
export async function hitRateLimit(
  key: string,
  { limit, windowSeconds }: RateLimitRule,
): Promise<RateLimitResult> {
  if (!Number.isInteger(limit) || limit < 0)
    throw new Error("hitRateLimit: limit must be a whole number >= 0");
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new Error("hitRateLimit: windowSeconds must be a whole number >= 1");
  // "resetAt" is timestamp(3) without time zone holding UTC, as Prisma writes it.
  const rows = await db().$queryRaw<{ count: number; retryAfterSeconds: number }[]>`
    INSERT INTO "RateLimit" ("key", "count", "resetAt")
    VALUES (${key}, 1, (now() AT TIME ZONE 'UTC') + make_interval(secs => ${windowSeconds}::integer))
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."resetAt" <= (now() AT TIME ZONE 'UTC') THEN 1
                     ELSE LEAST("RateLimit"."count" + 1, ${limit}::integer + 1) END,
      "resetAt" = CASE WHEN "RateLimit"."resetAt" <= (now() AT TIME ZONE 'UTC') THEN EXCLUDED."resetAt"
                       ELSE "RateLimit"."resetAt" END
    RETURNING "count",
      CEIL(EXTRACT(EPOCH FROM ("resetAt" - (now() AT TIME ZONE 'UTC'))))::integer AS "retryAfterSeconds"`;
  const row = rows[0];
  if (!row) throw new Error("hitRateLimit: the database returned no row");
  const count = Number(row.count);
  const allowed = count <= limit;
  return {
    allowed,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Number(row.retryAfterSeconds)),
  };
}

/**
 * Takes back one hit of a key whose window is still open (an attempt that turned out not to
 * count, e.g. a successful sign-in). Counting first and refunding afterwards keeps parallel
 * attempts from passing a limit that a check-then-count would let through.
 */
export async function refundRateLimit(key: string): Promise<void> {
  await db().$executeRaw`
    UPDATE "RateLimit" SET "count" = GREATEST("count" - 1, 0)
     WHERE "key" = ${key} AND "resetAt" > (now() AT TIME ZONE 'UTC')`;
}

/** Forgets a key's counter (e.g. an account's sign-in failures after a successful sign-in). */
export async function clearRateLimit(key: string): Promise<void> {
  await db().rateLimit.deleteMany({ where: { key } });
}

/** Deletes counters whose window has ended (they would restart anyway); for a periodic job. */
export async function pruneRateLimits(now = new Date()): Promise<number> {
  const { count } = await db().rateLimit.deleteMany({ where: { resetAt: { lte: now } } });
  return count;
}

/**
 * The client's IP address for per-IP limits: the first entry of `X-Forwarded-For`, else
 * "unknown". This trusts the header, so the server in front of Remix must set it: a reverse
 * proxy that overwrites (not appends to) it, or the Express server (server/start.ts) replacing it
 * with the socket address (`req.ip`, with Express's `trust proxy` matching the deployment)
 * before the Remix handler runs. Without that, every direct client shares the key "unknown" and a
 * client can choose its own key by sending the header.
 */
export function clientIp(request: Request): string {
  const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return first ? first : "unknown";
}

/**
 * Whether `key` is over its limit now, without counting a hit: a client refused for too many
 * failures stays refused until the window ends, even when its next attempt would be right.
 */
export async function rateLimitExceeded(key: string, { limit }: RateLimitRule): Promise<boolean> {
  const rows = await db().$queryRaw<{ over: boolean }[]>`
    SELECT "count" > ${limit}::integer AS over FROM "RateLimit"
     WHERE "key" = ${key} AND "resetAt" > (now() AT TIME ZONE 'UTC')`;
  return rows[0]?.over ?? false;
}

/**
 * Concurrency places kept in PostgreSQL, for work that must not run more than `limit` times at
 * once per key across all app servers (an account's PDF renders). One atomic statement: the key's
 * count goes up by one unless it already holds `limit` places; each taken place pushes the key's
 * lease to `leaseSeconds` from now, and a lease that ended (a server died holding places) starts
 * the count afresh. Answers whether a place was taken.
 */
export async function takePlace(key: string, limit: number, leaseSeconds: number) {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error("takePlace: limit must be a whole number >= 1");
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < 1)
    throw new Error("takePlace: leaseSeconds must be a whole number >= 1");
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimit" ("key", "count", "resetAt")
    VALUES (${key}, 1, (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseSeconds}::integer))
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."resetAt" <= (now() AT TIME ZONE 'UTC') THEN 1
                     ELSE "RateLimit"."count" + 1 END,
      "resetAt" = EXCLUDED."resetAt"
    WHERE "RateLimit"."resetAt" <= (now() AT TIME ZONE 'UTC') OR "RateLimit"."count" < ${limit}::integer
    RETURNING "count"`;
  return rows.length === 1;
}

/** Gives back a place taken with `takePlace` (nothing when its lease has ended meanwhile). */
export async function givePlaceBack(key: string): Promise<void> {
  await db().$executeRaw`
    UPDATE "RateLimit" SET "count" = GREATEST("count" - 1, 0)
     WHERE "key" = ${key} AND "resetAt" > (now() AT TIME ZONE 'UTC')`;
}
