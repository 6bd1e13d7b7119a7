/**
 * CSV input of the metrics CLI: header with the columns `id`, `time`, `gl` (any order, other
 * columns ignored), one reading per record. Fields may be double-quoted (RFC 4180: `""` is a
 * quote inside a quoted field), as in iglu's example_cgm.csv. `time` is ISO 8601: with `Z` or an
 * offset it is that instant; without one it is a wall-clock time in the given IANA zone
 * (ambiguous or skipped DST times resolved like Temporal's "compatible": the earlier instant of a
 * repeated hour, the later clock time of a skipped one). `gl` is a decimal number in mg/dL.
 * Errors carry the 1-based line number where the offending record starts.
 */
import { Temporal } from "temporal-polyfill";
import type { Reading } from "./types";

export class CsvInputError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "CsvInputError";
  }
}

export interface CsvSubject {
  readonly id: string;
  readonly readings: Reading[];
}

interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

/** Splits CSV text into records (handles quotes, CRLF, quoted newlines; skips blank lines). */
export function parseCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let field = "";
    let quotedRecord = false;
    for (;;) {
      if (i < n && text[i] === '"') {
        quotedRecord = true;
        i++;
        for (;;) {
          if (i >= n) throw new CsvInputError(startLine, "unterminated quoted field");
          const ch = text[i]!;
          if (ch === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === "\n") line++;
          field += ch;
          i++;
        }
        // Anything between the closing quote and the next separator is kept verbatim.
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") field += text[i++];
      } else {
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") field += text[i++];
      }
      fields.push(field);
      field = "";
      if (i < n && text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    if (i < n && text[i] === "\r") i++;
    if (i < n && text[i] === "\n") i++;
    line++;
    const blank = !quotedRecord && fields.length === 1 && fields[0]!.trim() === "";
    if (!blank) records.push({ line: startLine, fields });
  }
  return records;
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/**
 * Parses an ISO 8601 date-time into epoch ms; NaN when it is not one. Times without an offset
 * are read in `timeZone`.
 */
export function parseIsoTime(s: string, timeZone: string): number {
  const m = ISO_RE.exec(s.trim());
  if (m === null) return Number.NaN;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const sec = m[6] === undefined ? 0 : Number(m[6]);
  const frac = m[7] === undefined ? 0 : Number(`0.${m[7]}`);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || sec > 59)
    return Number.NaN;
  const zone = m[8];
  if (zone === undefined) {
    const pdt = new Temporal.PlainDateTime(y, mo, d, h, mi, sec);
    return (
      pdt.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds +
      frac * 1000
    );
  }
  let offsetMin = 0;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return Number.NaN;
    offsetMin = sign * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, sec, 0);
  return date.getTime() - offsetMin * 60_000 + frac * 1000;
}

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses a decimal number; NaN when the text is not one. */
export function parseNumber(s: string): number {
  const t = s.trim();
  return NUMBER_RE.test(t) ? Number(t) : Number.NaN;
}

/**
 * Parses a CGM CSV into subjects in order of first appearance. Throws CsvInputError for a
 * missing column, a short record, or a time or glucose value that cannot be parsed.
 */
export function parseCgmCsv(text: string, timeZone = "UTC"): CsvSubject[] {
  const records = parseCsvRecords(text);
  const header = records[0];
  if (header === undefined)
    throw new CsvInputError(1, "empty file: expected a header with the columns id,time,gl");
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const col = { id: names.indexOf("id"), time: names.indexOf("time"), gl: names.indexOf("gl") };
  const missing = (["id", "time", "gl"] as const).filter((k) => col[k] < 0);
  if (missing.length > 0) {
    throw new CsvInputError(
      header.line,
      `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (the header must name id, time and gl)`,
    );
  }
  const need = Math.max(col.id, col.time, col.gl) + 1;
  const subjects = new Map<string, Reading[]>();
  for (let r = 1; r < records.length; r++) {
    const { line, fields } = records[r]!;
    if (fields.length < need)
      throw new CsvInputError(line, `expected at least ${need} fields, found ${fields.length}`);
    const id = fields[col.id]!;
    const timeText = fields[col.time]!;
    const glText = fields[col.gl]!;
    const time = parseIsoTime(timeText, timeZone);
    if (!Number.isFinite(time))
      throw new CsvInputError(
        line,
        `cannot parse time ${JSON.stringify(timeText)} (expected ISO 8601, e.g. 2015-06-06T21:50:27Z)`,
      );
    const mgdl = parseNumber(glText);
    if (!Number.isFinite(mgdl))
      throw new CsvInputError(
        line,
        `cannot parse glucose ${JSON.stringify(glText)} (expected a number in mg/dL)`,
      );
    let list = subjects.get(id);
    if (list === undefined) {
      list = [];
      subjects.set(id, list);
    }
    list.push({ time, mgdl });
  }
  return Array.from(subjects, ([id, readings]) => ({ id, readings }));
}
