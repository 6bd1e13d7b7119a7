import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";

/** An incoming X-Request-Id is kept only when it is a short token of safe characters. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Headers worth logging; everything else (cookies, tokens, referers with query strings) is left out. */
const LOGGED_HEADERS = ["user-agent", "content-type", "content-length", "accept-language"];

/**
 * One structured line per request, with its id (also sent back as X-Request-Id). A request is
 * logged as method, path (no query string: it may hold emails or tokens) and a few headers; a
 * response as its status. Bodies are never logged.
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const id = requestIdFor(req.headers["x-request-id"]);
      res.setHeader("X-Request-Id", id);
      return id;
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return "error";
      if (res.statusCode >= 400) return "warn";
      return "info";
    },
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, string> }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split("?", 1)[0],
        headers: Object.fromEntries(
          LOGGED_HEADERS.filter((name) => req.headers[name] !== undefined).map((name) => [
            name,
            req.headers[name],
          ]),
        ),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
