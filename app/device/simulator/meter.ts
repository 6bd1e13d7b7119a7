import { createRng } from "~/utils/seeded-random";
import type { MeterLink } from "../meter-upload";

/** The meal times at which the simulated meter has a reading, local "HH:mm". */
const TEST_TIMES = ["07:30", "12:15", "18:40", "22:05"];

/**
 * A simulated blood-glucose meter for the demo: the memory text of the `days` days before
 * `today` (YYYY-MM-DD), four readings a day at meal times, 70-220 mg/dL from a seeded sequence,
 * in the GoChek text layout (docs/device-protocols.md), after `delayMs` of "reading".
 */
export function simulatedMeterLink(options: {
  serial: string;
  today: string;
  days?: number;
  seed?: number;
  delayMs?: number;
}): MeterLink {
  return {
    async readMemory() {
      const rng = createRng(options.seed ?? 7);
      const lines = [`SN:${options.serial}`];
      const [year, month, day] = options.today.split("-").map(Number) as [number, number, number];
      for (let back = options.days ?? 14; back >= 1; back--) {
        const date = new Date(Date.UTC(year, month - 1, day - back)).toISOString().slice(0, 10);
        for (const time of TEST_TIMES)
          lines.push(`${date} ${time}:00,${70 + Math.floor(rng() * 150)},0`);
      }
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      return new TextEncoder().encode(lines.join("\r\n"));
    },
  };
}
