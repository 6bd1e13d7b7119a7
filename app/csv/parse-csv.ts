import { createClarityReader } from "./clarity";
import { decodeCsvBytes, detectDelimiter, type Delimiter } from "./decode";
import { createDiacareReader } from "./diacare";
import { DETECT_RECORDS, detectFormat, type Detection } from "./detect";
import { createGenericReader } from "./generic";
import { createLibreViewReader } from "./libreview";
import { shown, type FormatReader, type ReaderContext } from "./reader";
import { normalizeLineEnds, readCsvRecords } from "./records";
import {
  CSV_LIMITS,
  type CsvEntry,
  type CsvFileError,
  type CsvLineError,
  type CsvParseOptions,
  type CsvParseOutcome,
  type MessageValues,
} from "./types";

/**
 * Reads an uploaded glucose file: bytes -> text (decode.ts) -> format detected from the first
 * records (detect.ts) -> records from the header line on (records.ts, csv-parse streaming) -> one
 * reader per format -> normalised entries, in file order, with every bad line reported.
 *
 * Never throws for bad input: the answer is a result (`ok: true`) or a file-level error (`ok:
 * false`, a translation key of the `csv` namespace). File-level errors: `errors.empty` (no data),
 * `errors.encoding`, `errors.binary`, `errors.format` (not a known format), `errors.header` (a
 * chosen format's header is missing), `errors.tooManyLines` (more than 100,000 data lines: reading
 * stops there), `errors.unreadable` (anything unforeseen). Line errors: a field over 1,000
 * characters (`errors.fieldTooLong`), more than 200 fields (`errors.tooManyFields`), a quote never
 * closed (`errors.quote`), and the value checks of each format.
 */
export async function parseCsvFile(
  bytes: Uint8Array,
  options: CsvParseOptions = {},
): Promise<CsvParseOutcome> {
  const decoded = decodeCsvBytes(bytes);
  if (!decoded.ok) return decoded;
  return parseCsvText(decoded.text, options);
}

/** As `parseCsvFile`, for text already decoded (a leading BOM character is ignored). */
export async function parseCsvText(
  text: string,
  options: CsvParseOptions = {},
): Promise<CsvParseOutcome> {
  try {
    const body = normalizeLineEnds(text.startsWith("\uFEFF") ? text.slice(1) : text);
    const delimiter = detectDelimiter(body);
    const { head, bad } = await firstRecords(body, delimiter);
    if (head.length === 0) return { ok: false, key: bad ? "errors.format" : "errors.empty" };
    const detection = detectFormat(
      head.map((r) => r.fields),
      options.format,
      options.columns,
    );
    if ("ok" in detection) return detection;
    const first = head[detection.headerIndex ?? 0]!;
    const session = new ParseSession(detection, delimiter, options);
    await readCsvRecords(
      body,
      delimiter,
      first.line,
      (fields, line) => session.record(fields, line),
      (line) => session.badRecord(line),
    );
    return session.finish();
  } catch {
    return { ok: false, key: "errors.unreadable" };
  }
}

type HeadRecord = { fields: string[]; line: number };

/** Detection reads at most the first 50 lines, and of them at most 64 KiB. */
const HEAD_LINES = 50;
const HEAD_CHARS = 64 * 1024;

function headOf(body: string): string {
  let end = -1;
  for (let n = 0; n < HEAD_LINES && end < HEAD_CHARS; n++) {
    const next = body.indexOf("\n", end + 1);
    if (next < 0) return body.slice(0, HEAD_CHARS);
    end = next;
  }
  return body.slice(0, Math.min(end + 1, HEAD_CHARS));
}

/** The first non-blank records of the text, for detection, and whether a record could not be split. */
async function firstRecords(
  body: string,
  delimiter: Delimiter,
): Promise<{ head: HeadRecord[]; bad: boolean }> {
  const head: HeadRecord[] = [];
  let bad = false;
  await readCsvRecords(
    headOf(body),
    delimiter,
    1,
    (fields, line) => {
      if (!isBlank(fields)) head.push({ fields, line });
      return head.length < DETECT_RECORDS;
    },
    () => {
      bad = true;
    },
  );
  return { head, bad };
}

const isBlank = (fields: readonly string[]) => fields.every((f) => f.trim() === "");

/**
 * One file being read from its header line (or first data line) on: the header makes the reader,
 * each later non-blank record is a data line.
 */
class ParseSession {
  private readonly entries: CsvEntry[] = [];
  private readonly errors: CsvLineError[] = [];
  private reader: FormatReader | null = null;
  private dataLines = 0;
  private failure: CsvFileError | null = null;

  constructor(
    private readonly detection: Detection,
    private readonly delimiter: Delimiter,
    private readonly options: CsvParseOptions,
  ) {
    if (detection.headerIndex === null) this.reader = this.createReader(null);
  }

  /** A record from the file; false stops the reading. */
  record(fields: string[], line: number): boolean {
    if (isBlank(fields)) return true;
    if (!this.reader) {
      this.reader = this.createReader(fields);
      return true;
    }
    if (!this.countLine()) return false;
    const tooLong = fields.findIndex((f) => f.length > CSV_LIMITS.fieldChars);
    if (fields.length > CSV_LIMITS.fieldsPerLine)
      this.lineError(line, "errors.tooManyFields", {
        count: fields.length,
        limit: CSV_LIMITS.fieldsPerLine,
      });
    else if (tooLong >= 0)
      this.lineError(line, "errors.fieldTooLong", {
        field: tooLong + 1,
        // `limit` as the API has always answered it; `count` picks the message's plural form.
        limit: CSV_LIMITS.fieldChars,
        count: CSV_LIMITS.fieldChars,
      });
    else this.reader.row(fields, line);
    return true;
  }

  /** A record csv-parse could not split (a quote never closed). */
  badRecord(line: number): void {
    if (this.reader && this.failure === null && this.countLine())
      this.lineError(line, "errors.quote");
  }

  finish(): CsvParseOutcome {
    if (this.failure) return this.failure;
    if (!this.reader || (this.dataLines === 0 && this.errors.length === 0))
      return { ok: false, key: "errors.empty" };
    const summary = this.reader.finish();
    this.errors.sort((a, b) => a.line - b.line);
    return {
      ok: true,
      format: this.detection.format,
      ...summary,
      entries: this.entries,
      errors: this.errors,
      lines: this.dataLines,
    };
  }

  /** Counts a data line; past the limit the file is refused and reading stops. */
  private countLine(): boolean {
    this.dataLines++;
    if (this.dataLines <= CSV_LIMITS.dataLines) return true;
    this.failure = {
      ok: false,
      key: "errors.tooManyLines",
      values: { limit: CSV_LIMITS.dataLines, count: CSV_LIMITS.dataLines },
    };
    return false;
  }

  private lineError(line: number, key: string, values: MessageValues = {}): void {
    const shortened = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? shown(v) : v]),
    );
    this.errors.push({ line, key, values: { line, ...shortened } });
  }

  private createReader(header: readonly string[] | null): FormatReader {
    const ctx: ReaderContext = {
      decimalComma: this.delimiter !== ",",
      entries: this.entries,
      lineError: (line, key, values) => this.lineError(line, key, values),
    };
    switch (this.detection.format) {
      case "clarity":
        return createClarityReader(header ?? [], ctx);
      case "libreview":
        return createLibreViewReader(header ?? [], ctx, this.options.dateOrder);
      case "diacare":
        return createDiacareReader(header ?? [], ctx);
      case "generic":
        return createGenericReader(header, this.detection.columns ?? { time: 0, glucose: 1 }, ctx);
    }
  }
}
