/**
 * The browser's device code on the upload path, in process: decoding 90 days of pump history
 * (the simulator's days, about 30,000 28-byte records) from one reply frame, and the whole
 * simulated 90-day pump read (frames over the simulated transport, every command of the upload,
 * no simulated delays) up to the records the upload sends. Target: parsing < 150 ms.
 */
import { encodeFrame, FrameReader } from "../app/device/frame";
import { createEquilLink } from "../app/device/equil-link";
import { parsePumpHistory } from "../app/device/records";
import { createHandheld, SimulatedTransport } from "../app/device/simulator/equil";
import { encodeHistory, simulateDays } from "../app/device/simulator/days";
import { median, type BenchResult } from "./timing";

export async function benchDeviceParse(): Promise<BenchResult[]> {
  const days = simulateDays({ seed: 3, start: "2026-03-01", days: 90, serial: "EQ004711" });
  const history = encodeHistory(days);
  const frame = encodeFrame({ port: 0x05, parameter: 0x01, operation: 0x02, body: history });
  const parse: number[] = [];
  const decode: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const reader = new FrameReader();
    let body: Uint8Array | null = null;
    for (let at = 0; at < frame.length && !body; at += 1024) {
      const read = reader.push(frame.subarray(at, at + 1024));
      if (read.error) throw new Error(read.error.kind);
      body = read.frames[0]?.body ?? null;
    }
    const t1 = performance.now();
    const records = parsePumpHistory(body!);
    if (!records.ok || records.value.length !== days.length) throw new Error("history not decoded");
    if (i > 0) {
      decode.push(t1 - t0);
      parse.push(performance.now() - t1);
    }
  }
  const handheld = createHandheld({ start: "2026-03-01", days: 90, seed: 3 });
  const link = createEquilLink(new SimulatedTransport(handheld));
  const t0 = performance.now();
  await link.open();
  await link.readVersion();
  for (let i = 0; i < 7; i++) await link.readBasalProgram(i);
  await link.readSettings();
  const read = await link.readHistory();
  await link.close();
  const whole = performance.now() - t0;
  return [
    {
      name: "device: 90 days of pump history, frame from 1 KiB reads",
      ms: median(decode),
      detail: `${days.length} records, ${(history.length / 1024).toFixed(0)} KiB; median of 5`,
    },
    {
      name: "device: 90 days of pump history, records parsed",
      ms: median(parse),
      detail: `target < 150 ms; median of 5`,
    },
    {
      name: "device: simulated 90-day handheld read (no delays)",
      ms: whole,
      detail: `version, 7 programs, settings, ${read.length} history records`,
    },
  ];
}
