import { once } from "node:events";
import { parse, type CsvError } from "csv-parse";
import type { Delimiter } from "./decode";

/**
 * Splits a decoded CSV text into records with csv-parse's stream API, in chunks, handing each
 * record from line `fromLine` on to `onRecord` with the 1-based line it starts on.
 *
 * - Line ends: the text must have LF line ends only (`normalizeLineEnds`), so a line break inside
 *   a quoted field reads as "\n".
 * - Starting at the header line matters for speed: csv-parse builds an error object for every
 *   record whose width differs from the first record's, which a title line above the header (5
 *   fields against 19 in LibreView) would make of every line.
 * - Quoted fields may hold the delimiter, quotes (doubled) and line breaks. A quote inside an
 *   unquoted field, or text after a closing quote, is kept as written (the value check of the
 *   format then refuses the line if it matters); a quote that is never closed makes the rest of
 *   the file one bad record, reported on the line where it starts.
 * - Lines may have different numbers of fields (vendor files do); blank lines are skipped.
 * - `onRecord` returns false to stop reading (the rest of the text is not parsed).
 */
export type RecordHandler = (fields: string[], line: number) => boolean;
export type BadRecordHandler = (line: number) => void;

const CHUNK_CHARS = 64 * 1024;

/** CRLF and lone CR made LF: every line end the reader accepts. */
export function normalizeLineEnds(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

export async function readCsvRecords(
  normal: string,
  delimiter: Delimiter,
  fromLine: number,
  onRecord: RecordHandler,
  onBadRecord: BadRecordHandler,
): Promise<void> {
  // Lines are counted here rather than from csv-parse's per-record context (which costs an object
  // per record): blank lines come through as records of blank fields, and a record spans one line
  // plus the line breaks inside its quoted fields.
  let line = fromLine;
  let stopped = false;
  const parser = parse({
    delimiter,
    from_line: fromLine,
    record_delimiter: "\n",
    relax_column_count: true,
    relax_quotes: true,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      if (stopped) return undefined;
      onBadRecord(firstNonBlankLineAfter(normal, line - 1));
      line = (typeof err?.lines === "number" ? err.lines : line) + 1;
      return undefined;
    },
  });
  parser.on("data", (record: string[]) => {
    if (stopped) return;
    const start = line;
    line += 1 + newlinesIn(record);
    if (!onRecord(record, start)) stopped = true;
  });
  const ended = once(parser, "end");
  // Not awaited when reading stops early; a parser error also rejects the write loop below.
  ended.catch(() => undefined);
  for (let start = 0; start < normal.length && !stopped;) {
    const end = chunkEnd(normal, start);
    if (!parser.write(normal.slice(start, end))) await once(parser, "drain");
    start = end;
  }
  if (stopped) {
    parser.destroy();
    return;
  }
  parser.end();
  await ended;
}

/** The end of the chunk from `start`, never between the two halves of a surrogate pair. */
function chunkEnd(text: string, start: number): number {
  const end = Math.min(text.length, start + CHUNK_CHARS);
  const code = text.charCodeAt(end - 1);
  return end < text.length && code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function newlinesIn(record: readonly string[]): number {
  let n = 0;
  for (const field of record) {
    for (let i = field.indexOf("\n"); i >= 0; i = field.indexOf("\n", i + 1)) n++;
  }
  return n;
}

/** The number of the first non-blank line after line `after` (1-based), in a text with LF line ends. */
function firstNonBlankLineAfter(text: string, after: number): number {
  const lines = text.split("\n");
  for (let i = after; i < lines.length; i++) if (lines[i]!.trim() !== "") return i + 1;
  return after + 1;
}
