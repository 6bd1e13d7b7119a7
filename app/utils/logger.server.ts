import { pino, type Logger } from "pino";

/**
 * Header and field paths that hold secrets: they are replaced before a line is written, wherever
 * a logged object carries them (request logs keep only a few harmless headers in the first place).
 */
export const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  "req.headers.token",
  "req.headers.referer",
  'res.headers["set-cookie"]',
  "headers.cookie",
  "headers.authorization",
  "headers.token",
  "password",
  "*.password",
  "token",
  "*.token",
];

declare global {
  // One logger per process, shared by the server and the app build (which bundles its own copy
  // of this module).

  var __diacareLogger: Logger | undefined;
}

/** The process's structured logger: JSON lines on stdout, level from LOG_LEVEL (default info). */
export function logger(): Logger {
  globalThis.__diacareLogger ??= pino({
    level: process.env.LOG_LEVEL || "info",
    base: { service: "diacare" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  });
  return globalThis.__diacareLogger;
}

/**
 * An error as a log field without the data it may quote: its class, code, the first line of its
 * message and its stack frames. (Database client errors repeat the query's arguments, which may be
 * patient data, after their first line.)
 */
export function errorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "));
  return {
    type: error.name,
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    message: error.message.split("\n", 1)[0]!.slice(0, 200),
    stack: frames.slice(0, 12).join("\n"),
  };
}
