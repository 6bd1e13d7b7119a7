import type { Server } from "node:http";
import type { Logger } from "pino";
import { markDraining } from "../app/utils/draining.server";

/** How long requests already being answered may take to finish after a stop signal. */
export const DRAIN_TIMEOUT_MS = 10_000;

type StopHook = { name: string; stop: () => Promise<unknown> | unknown };

const hooks: StopHook[] = [];

/**
 * Registers something to stop after the HTTP server has drained (the PDF browser, the database, a
 * job queue, ...). Hooks run in reverse order of registration, so what started last stops first.
 */
export function onShutdown(name: string, stop: StopHook["stop"]) {
  hooks.push({ name, stop });
}

/**
 * Graceful stop: the readiness route answers 503 from now on (a load balancer takes the server
 * out), the server stops accepting connections and closes idle keep-alive ones, requests
 * in flight get up to `drainMs` to finish (then their connections are cut), then the stop hooks
 * run. Resolves with the exit code: 0 when everything stopped cleanly.
 */
export async function shutdown(
  server: Server,
  log: Logger,
  drainMs = DRAIN_TIMEOUT_MS,
): Promise<number> {
  let code = 0;
  markDraining();
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A keep-alive connection that becomes idle after its answer is closed too.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), drainMs);
  });
  if ((await Promise.race([drained, timedOut])) === "timeout") {
    log.warn(
      { drainMs },
      "requests still running after the drain timeout: closing their connections",
    );
    server.closeAllConnections();
    code = 1;
  }
  clearInterval(idleSweep);
  clearTimeout(timer);
  for (const hook of [...hooks].reverse()) {
    try {
      await hook.stop();
    } catch (error) {
      code = 1;
      log.error(
        { hook: hook.name, err: error instanceof Error ? error.message : String(error) },
        "stop hook failed",
      );
    }
  }
  log.info({ code }, "stopped");
  return code;
}
