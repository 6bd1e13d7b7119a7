import { access, constants, readdir } from "node:fs/promises";
import { isDraining } from "./draining.server";
import { env } from "./env.server";

/**
 * Readiness for a load balancer: a server receives requests only while every check passes. The
 * checks are cheap (one query each, a file check) and their result is kept for `ttlMs`, so a
 * balancer polling every second and several balancers together cost a handful of queries a second.
 */

/** One check: resolves when the part works, throws (with a short reason) when it does not. */
export type ReadinessCheck = { name: string; run: () => Promise<void> };

export type Readiness = {
  ready: boolean;
  /** Each check's outcome: "ok" or why it failed. */
  checks: Record<string, string>;
};

/** A loaded server answers slowly but is still ready: only a check this late counts as failed. */
const CHECK_TIMEOUT_MS = 3_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs every check at once, each with its own time limit. */
export async function runChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const outcomes = await Promise.all(
    checks.map(async (check) => {
      try {
        await withTimeout(check.run(), timeoutMs);
        return [check.name, "ok"] as const;
      } catch (error) {
        return [check.name, error instanceof Error ? error.message : String(error)] as const;
      }
    }),
  );
  return {
    ready: outcomes.every(([, outcome]) => outcome === "ok"),
    checks: Object.fromEntries(outcomes),
  };
}

/**
 * `runChecks` behind a short cache: callers within `ttlMs` of the last run get its result, and
 * callers during a run share it. The draining flag is never cached: a stopping server says so at
 * once.
 */
export function cachedReadiness(
  checks: readonly ReadinessCheck[],
  { ttlMs = 1_500, now = () => Date.now(), draining = isDraining } = {},
) {
  let last: { at: number; result: Promise<Readiness> } | undefined;
  return async (): Promise<Readiness> => {
    if (draining()) return { ready: false, checks: { server: "draining" } };
    const at = now();
    if (!last || at - last.at >= ttlMs) {
      const result = runChecks(checks);
      last = { at, result };
    }
    return last.result;
  };
}

/** The names of the migrations in `dir` (one folder each, holding its migration.sql). */
export async function migrationNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The migrations that `expected` names but the database has not finished (oldest first). */
export function missingMigrations(expected: readonly string[], applied: readonly string[]) {
  const done = new Set(applied);
  return expected.filter((name) => !done.has(name));
}

/** PDF rendering is possible: the Chromium executable is there. */
export const chromiumCheck: ReadinessCheck = {
  name: "pdf",
  async run() {
    const chromium = env().CHROMIUM_PATH;
    await access(chromium, constants.X_OK).catch(() => {
      throw new Error(`Chromium not found at ${chromium}`);
    });
  },
};

/** A PDF worker whose last heartbeat is older than this counts as gone (it beats every 5 s). */
export const PDF_WORKER_STALE_SECONDS = 20;

/**
 * PDF rendering is possible with PDF_RENDERER=queue: a PDF worker has been seen within
 * `staleSeconds`, `secondsSinceBeat` being the age of the most recent heartbeat (null: none).
 */
export function pdfWorkerCheck(
  secondsSinceBeat: () => Promise<number | null>,
  staleSeconds = PDF_WORKER_STALE_SECONDS,
): ReadinessCheck {
  return {
    name: "pdf",
    async run() {
      const age = await secondsSinceBeat();
      if (age === null) throw new Error("no PDF worker has been seen");
      if (age > staleSeconds)
        throw new Error(`no PDF worker seen for ${Math.round(age)} s (PDF_RENDERER=queue)`);
    },
  };
}

declare global {
  // One cache per process (the route module may be loaded more than once in development).

  var __diacareReadiness: (() => Promise<Readiness>) | undefined;
}

/** `cachedReadiness(checks)`, made once per process. */
export function processReadiness(checks: () => readonly ReadinessCheck[]): Promise<Readiness> {
  globalThis.__diacareReadiness ??= cachedReadiness(checks());
  return globalThis.__diacareReadiness();
}
