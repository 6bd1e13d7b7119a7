import type { NextFunction, Request, Response } from "express";
import { withReadRouting } from "../app/utils/db.server";

/**
 * Read-your-writes across app servers: a request that writes (any method but GET, HEAD, OPTIONS,
 * apart from the report calls that read with POST) answers with a short-lived cookie, and for as long as the browser sends it back, whichever app
 * server takes the request reads from the primary (app/utils/db.server.ts `readDb`). Lag-tolerant
 * reads of everyone else go to the standby.
 */
export const PRIMARY_COOKIE = "dc_primary";
/** Longer than the standby's lag ever is in normal operation (well under a second). */
export const PRIMARY_SECONDS = 10;

const READING_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Calls that read with POST (the report calls of the `/api/` contract, which send their range in
 * a body): they neither write nor need the primary, so they count as reads.
 */
export const READING_POSTS: ReadonlySet<string> = new Set([
  "/api/patient-data/pdf",
  "/api/patient-data/sugarDevicePdf",
  "/api/cgms/cgm-record/agp",
]);

/** Whether the request may change data (its method writes and it is not a reading call). */
export function writes(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  if (READING_METHODS.has(upper)) return false;
  return !(upper === "POST" && READING_POSTS.has(path));
}

/** Whether the request carries the read-from-primary cookie. */
export function hasPrimaryCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => part.trim().split("=", 1)[0] === PRIMARY_COOKIE);
}

/** Whether this request's lag-tolerant reads must come from the primary. */
export function readsFromPrimary(
  method: string,
  path: string,
  cookieHeader: string | undefined,
): boolean {
  return writes(method, path) || hasPrimaryCookie(cookieHeader);
}

/** The cookie a writing request answers with. */
export function primaryCookie(secure: boolean): string {
  return `${PRIMARY_COOKIE}=1; Max-Age=${PRIMARY_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * Express middleware. `replica`: whether a standby is configured (DATABASE_READ_URL); without one
 * every read is from the primary and no cookie is set.
 */
export function readRouting({ replica, secure }: { replica: boolean; secure: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!replica) return next();
    const writing = writes(req.method, req.path);
    if (writing) res.append("Set-Cookie", primaryCookie(secure));
    withReadRouting({ primary: writing || hasPrimaryCookie(req.headers.cookie) }, next);
  };
}
