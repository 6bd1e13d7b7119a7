import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

/** A fresh nonce per response: only inline scripts that carry it run (Remix's and the app's own). */
export function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
}

/**
 * Security headers on every response (helmet).
 * - Scripts: same-origin files and inline scripts with this response's nonce; no inline event
 *   handlers, no eval.
 * - Styles: same-origin files plus inline styles. Charts are rendered on the server to SVG and
 *   each carries its own `<style>` element, the print reports set their page size in one, and
 *   React and react-aria write `style` attributes; styles cannot run code, so allowing them inline
 *   keeps these working while scripts stay locked down.
 * - Nobody may frame the app; forms post only to it; no plugins; no `<base>` elsewhere.
 * - HSTS and upgrade-insecure-requests only when the public URL is https (on plain http they would
 *   lock browsers out of a local or test deployment).
 * - Referrer-Policy same-origin: URLs (which name patients) never leave the site, and our own
 *   requests keep the Referer that the cross-site check reads.
 */
export function securityHeaders({ https }: { https: boolean }) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${(res as Response).locals.cspNonce as string}'`,
        ],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https
      ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true }
      : false,
    xFrameOptions: { action: "deny" },
    referrerPolicy: { policy: "same-origin" },
    xContentTypeOptions: true,
  });
}
