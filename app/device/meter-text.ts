import type { MeterRecordInput } from "~/ingest/records";
import { failed, ok, type Result } from "./errors";

/**
 * The GoChek meter's memory as it answers "h" on the serial port (our definition, not yet
 * confirmed on hardware). Text, one line per reading, lines ending in LF or CR LF:
 *
 *   2026-07-01 08:15:00,123,0
 *
 * the meter's clock "YYYY-MM-DD HH:mm:ss" (a "T" may stand for the space), the glucose in mg/dL
 * and an optional flags byte (0 when absent), separated by commas, semicolons, spaces or tabs.
 * A line "SN:<serial>" (or "SN <serial>") names the meter. Other lines (a title, the echoed "h",
 * an end mark) are skipped, but a line that starts with a date and is not a reading is an error,
 * so that no reading is lost unnoticed. A read with no reading at all is not this meter.
 */

const METER_READING =
  /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})[,;\s]+(\d{1,5})(?:[,;\s]+(\d{1,3}))?$/;
const STARTS_WITH_DATE = /^\d{4}-\d{2}-\d{2}/;
const METER_SERIAL = /^SN[:\s]\s*([A-Za-z0-9_-]{1,32})$/i;
const U16_MAX = 65_535;
const BYTE_MAX = 255;

export interface MeterRead {
  /** The serial number the meter sent, or null. */
  readonly deviceSn: string | null;
  readonly records: MeterRecordInput[];
}

/** One line's reading; null when the line is not a reading, "bad" when it starts like one but is not. */
function readingOf(line: string): MeterRecordInput | null | "bad" {
  const m = METER_READING.exec(line);
  if (!m) return STARTS_WITH_DATE.test(line) ? "bad" : null;
  const mgdl = Number(m[3]);
  const flags = m[4] === undefined ? 0 : Number(m[4]);
  if (mgdl > U16_MAX || flags > BYTE_MAX) return "bad";
  return { deviceTime: `${m[1]} ${m[2]}`, mgdl, flags };
}

/** The readings (and serial number) of the meter's answer to "h". */
export function parseMeterText(bytes: Uint8Array): Result<MeterRead> {
  const lines = new TextDecoder("utf-8").decode(bytes).split(/\r?\n/);
  const records: MeterRecordInput[] = [];
  let deviceSn: string | null = null;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const serial = METER_SERIAL.exec(line);
    if (serial) {
      deviceSn = serial[1]!;
      continue;
    }
    const reading = readingOf(line);
    if (reading === "bad") return failed({ kind: "badMeterLine", detail: { line: i + 1 } });
    if (reading) records.push(reading);
  }
  return records.length === 0 ? failed({ kind: "sureSameDevice" }) : ok({ deviceSn, records });
}
