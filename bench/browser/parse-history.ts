/**
 * Bundled into the benchmark's page: 90 days of the simulated handheld's history as one reply
 * body, and `window.__parseHistory()`, which times parsePumpHistory on it in the browser.
 */
import { parsePumpHistory } from "../../app/device/records";
import { encodeHistory, simulateDays } from "../../app/device/simulator/days";

const body = encodeHistory(
  simulateDays({ seed: 3, start: "2026-03-01", days: 90, serial: "EQ004711" }),
);

(window as unknown as { __parseHistory: () => { ms: number; records: number } }).__parseHistory =
  () => {
    const t0 = performance.now();
    const parsed = parsePumpHistory(body);
    const ms = performance.now() - t0;
    if (!parsed.ok) throw new Error(parsed.error.kind);
    return { ms, records: parsed.value.length };
  };
