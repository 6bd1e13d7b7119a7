declare global {
  // Set by the server's stop signal handler (server/shutdown.ts); read by the readiness route,
  // which runs from the app build (another copy of this module), so the flag lives on globalThis.

  var __diacareDraining: boolean | undefined;
}

/** Marks this server as stopping: it finishes what it has but should receive nothing new. */
export function markDraining(draining = true) {
  globalThis.__diacareDraining = draining;
}

/** Whether this server is stopping (a load balancer must stop sending it requests). */
export function isDraining(): boolean {
  return globalThis.__diacareDraining === true;
}
