import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import pLimit from "p-limit";
import { bodyLimitFor, closeWithoutReading, readBodyWithin } from "./body-limit";
import { foregroundRequest, giveWay } from "../app/utils/foreground.server";
import { errorForLog } from "../app/utils/logger.server";
import { errorPageRequest } from "./error-page";
import { guardRoutes } from "./route-guards";
import { routeHandlers } from "./route-handlers";
import { sendAnswer } from "./send-answer";

const BODYLESS = new Set(["GET", "HEAD"]);

/**
 * Calls whose work on the server's one thread is heavy but not urgent: a slice of 1,000 device
 * records is parsed, checked and stored in some milliseconds. Once their body is read (so that a
 * slow sender holds no turn) they are answered one at a time on this server: ten operators
 * uploading together queue behind each other rather than ahead of every page request.
 */
const ONE_AT_A_TIME = new Set(["/api/patient-data/sliceSave"]);
const heavyTurns = pLimit(1);
/** The upload calls, which nobody watches: a slice gives way to the other requests (`giveWay`). */
const BACKGROUND = new Set([
  "/api/patient-data/sliceSave",
  "/api/patient-data/checkSave",
  "/api/patient-data/getSliceId",
  "/api/patient-data/completeSliceTask",
]);

/** Answers a request as its kind: a slice in its turn, another upload call, or a foreground request. */
async function asItsKind(path: string, answer: () => Promise<void>): Promise<void> {
  if (ONE_AT_A_TIME.has(path))
    return heavyTurns(async () => {
      await giveWay();
      await answer();
    });
  if (BACKGROUND.has(path)) return answer();
  const ended = foregroundRequest();
  try {
    await answer();
  } finally {
    ended();
  }
}

function fetchHeaders(incoming: ExpressRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  return headers;
}

/**
 * Serves the Remix app. Unlike Remix's Express adapter, which streams the whole socket into the
 * Fetch request, the body is first read within its route class's cap (server/body-limit.ts): the
 * routes see only a complete body that fits, and a larger one is refused with 413 before any
 * route code runs, its rest unread and its connection closed.
 * Every answer is `no-store` unless its route declares its own caching: pages and data are
 * private (patient data must stay out of shared caches and the back-forward cache).
 */
export function remixHandler(build: ServerBuild, mode: string) {
  const handlers = routeHandlers(guardRoutes(build), mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const read = await readBodyWithin(req, bodyLimitFor(req.path).bytes);
      if (!read.ok) closeWithoutReading(req, res);
      if (!read.ok && BODYLESS.has(req.method)) {
        res.status(413).type("text/plain").send("Request body too large");
        return;
      }
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const init: RequestInit & { duplex?: "half" } = {
        method: req.method,
        headers: fetchHeaders(req.headers),
        signal: controller.signal,
      };
      if (read.ok && read.body && !BODYLESS.has(req.method)) {
        init.body = new Uint8Array(read.body);
        init.duplex = "half";
      }
      const url = URL.parse(
        `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`,
      );
      if (!url) {
        res.status(400).type("text/plain").send("Bad request");
        return;
      }
      const context: AppLoadContext = {
        requestId: String(req.id),
        cspNonce: String(res.locals.cspNonce ?? ""),
        log: req.log,
        ...(read.ok ? {} : { bodyTooLarge: { limit: read.limit } }),
      };
      const request = new Request(url, init);
      const answer = async () => {
        let response = await handlers.for(url)(request, context);
        // A file route's refusal is shown as the app's error page; that document carries no scripts,
        // because the browser's address is the file route's, not the error page's.
        const errorPage = errorPageRequest(request, response);
        if (errorPage) response = await handlers.whole(errorPage, { ...context, scriptless: true });
        if (!response.headers.has("Cache-Control")) res.setHeader("Cache-Control", "no-store");
        await sendAnswer(res, response);
      };
      await asItsKind(req.path, answer);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The last resort for a failure outside the routes (reading the body, writing the answer): logged
 * with the request id and answered 500 with it, as the envelope under `/api/`.
 */
export function lastResort(
  error: unknown,
  req: ExpressRequest,
  res: ExpressResponse,
  _next: NextFunction,
) {
  req.log.error({ err: errorForLog(error) }, "request failed outside the routes");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  if (req.path.startsWith("/api/"))
    res
      .status(500)
      .json({ code: 500, msg: "Internal server error", data: { requestId: String(req.id) } });
  else
    res
      .status(500)
      .type("text/plain")
      .send(`Internal server error (request ${String(req.id)})`);
}
