import type { NextFunction, Request, Response } from "express";
import { closeWithoutReading } from "./body-limit";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

type Headers = Record<string, string | string[] | undefined>;

function isOurs(url: string, host: string): boolean {
  if (url === "null") return false;
  const parsed = URL.parse(url);
  return (
    parsed !== null &&
    (parsed.protocol === "https:" || parsed.protocol === "http:") &&
    parsed.host === host
  );
}

/**
 * Is this state-changing request from our own pages? Every sign a browser gives must point to
 * this site: `Sec-Fetch-Site` (same-origin, or none for a typed address), the `Origin`, and the
 * `Referer`'s origin; one foreign or malformed value refuses the request. A request with none of
 * them is not a browser form post (API clients authenticate with the `token` header); the session
 * cookie stays SameSite=Lax, so a cross-site post carries no session either.
 */
export function isSameOriginRequest(method: string, headers: Headers, host: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const site = headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return false;
  for (const name of ["origin", "referer"] as const) {
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || !isOurs(value, host)) return false;
  }
  return true;
}

/** Express middleware: cross-site state-changing requests get 403 before they reach a route. */
export function refuseCrossSite(req: Request, res: Response, next: NextFunction) {
  if (isSameOriginRequest(req.method, req.headers, req.headers.host ?? "")) return next();
  closeWithoutReading(req, res);
  if (req.path.startsWith("/api/")) {
    res.status(403).json({ code: 403, msg: "Cross-site request refused", data: null });
    return;
  }
  res.status(403).type("text/plain").send("Cross-site request refused");
}
