import { EventEmitter } from "node:events";

/**
 * Tells the requests waiting on this server for an upload task that its processing has ended
 * (done or failed), so that checkSave answers the moment the job finishes rather than at the
 * operator's next poll. A job that ran on another server sends no signal here: waiters also
 * look at the task again every {@link RECHECK_MS}.
 */

declare global {
  // The job (started by the server's own import) and the routes (the app build's copy of this
  // module) must share one emitter.

  var __diacareUploadSettled: EventEmitter | undefined;
}

/** How often a waiter reads the task again when no signal came (its job ran elsewhere). */
export const RECHECK_MS = 250;

function settled(): EventEmitter {
  globalThis.__diacareUploadSettled ??= new EventEmitter().setMaxListeners(0);
  return globalThis.__diacareUploadSettled;
}

/** Called once a task's processing has committed (done or failed). */
export function announceSettled(taskId: number): void {
  settled().emit(String(taskId));
}

/** Resolves when the task is announced settled, or after `ms`, whichever comes first. */
export function settledOrAfter(taskId: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const key = String(taskId);
    const done = () => {
      clearTimeout(timer);
      settled().off(key, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    settled().on(key, done);
  });
}
