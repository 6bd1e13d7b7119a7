import type { NextFunction, Request, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Is this state-changing request from our own pages? Browsers send `Sec-Fetch-Site` (modern) or
 * `Origin` (older ones) with form posts; a cross-site value is refused. Requests with neither
 * header are not browser form posts (API clients authenticate with the `token` header).
 */
export function isSameOriginRequest(method: string, headers: Record<string, string | string[] | undefined>, host: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const site = headers["sec-fetch-site"];
  if (typeof site === "string") return site === "same-origin" || site === "none";
  const origin = headers["origin"];
  if (typeof origin !== "string" || origin === "") return true;
  if (origin === "null") return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** Express middleware: cross-site form posts get 403 before they reach a route. */
export function refuseCrossSite(req: Request, res: Response, next: NextFunction) {
  if (isSameOriginRequest(req.method, req.headers, req.headers.host ?? "")) return next();
  res.status(403).type("text/plain").send("Cross-site request refused");
}
