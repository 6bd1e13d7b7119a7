import {
  CSV_ENTRY_KINDS,
  type CsvEntryKind,
  type CsvLineError,
  type CsvParseResult,
} from "./types";

/** How many line errors a preview shows; the rest are only counted. */
export const PREVIEW_ERRORS = 20;

/** What the import preview shows of a read file. */
export interface CsvSummary {
  counts: Record<CsvEntryKind, number>;
  /** Earliest and latest wall-clock time of the entries, null when there are none. */
  first: string | null;
  last: string | null;
  /** The first `PREVIEW_ERRORS` line errors, and how many more there are. */
  errors: CsvLineError[];
  moreErrors: number;
}

/**
 * The preview of a read file: entries counted by kind, the earliest and latest wall clock (the
 * "YYYY-MM-DD HH:mm:ss" texts sort as times) and the first line errors.
 */
export function summarizeCsv(result: CsvParseResult, maxErrors = PREVIEW_ERRORS): CsvSummary {
  const counts = Object.fromEntries(CSV_ENTRY_KINDS.map((k) => [k, 0])) as Record<
    CsvEntryKind,
    number
  >;
  let first: string | null = null;
  let last: string | null = null;
  for (const e of result.entries) {
    counts[e.kind]++;
    if (first === null || e.wall < first) first = e.wall;
    if (last === null || e.wall > last) last = e.wall;
  }
  return {
    counts,
    first,
    last,
    errors: result.errors.slice(0, maxErrors),
    moreErrors: Math.max(0, result.errors.length - maxErrors),
  };
}
