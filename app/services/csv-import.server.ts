import {
  parseCsvFile,
  summarizeCsv,
  type Clock,
  type CsvEntryKind,
  type CsvFormat,
  type CsvLineError,
  type CsvParseOptions,
  type CsvParseResult,
  type DateOrder,
  type GenericColumns,
  type GlucoseUnit,
} from "~/csv";
import type { Viewer } from "~/models/access.server";
import {
  createImportDraft,
  deleteImportDraft,
  findImportDraft,
} from "~/models/import-draft.server";
import { ingestFile, type FileDeviceSummary, type IngestResult } from "./ingest.server";

/** An imported file holds at most 2 MB; the page and the API refuse a larger one before reading it. */
export const CSV_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** What a preview (dryRun) or an import answers. */
export interface CsvImportAnswer {
  readonly dryRun: boolean;
  readonly format: CsvFormat;
  readonly unit: GlucoseUnit;
  readonly device: { readonly name: string | null; readonly serial: string | null };
  readonly dateOrder: DateOrder | null;
  readonly clock: Clock | null;
  /** The zone the file's wall-clock times were read in. */
  readonly timeZone: string;
  /** Entries read, by kind. */
  readonly counts: Readonly<Record<CsvEntryKind, number>>;
  /** The first and last instant of the entries (ISO 8601), null without any. */
  readonly firstDate: string | null;
  readonly lastDate: string | null;
  /** Preview: entries that would be added; import: entries added. */
  readonly inserted: number;
  readonly duplicates: number;
  readonly flagged: number;
  readonly dstAdjusted: number;
  readonly devices: readonly FileDeviceSummary[];
  /** The first bad lines (line number, key of the `csv` namespace, values) and how many more there are. */
  readonly errors: readonly CsvLineError[];
  readonly moreErrors: number;
  /** The upload history entries the import wrote (none in a preview). */
  readonly uploads: readonly number[];
}

export interface CsvImportRequest {
  readonly pid: number;
  readonly bytes: Uint8Array;
  readonly format?: CsvFormat | undefined;
  readonly timeZone?: string | undefined;
  readonly dateOrder?: "DMY" | "MDY" | undefined;
  /** A plain file's columns (0-based); found from the first data line when not given. */
  readonly columns?: GenericColumns | undefined;
  readonly dryRun: boolean;
}

/** A refusal of the file itself: a key of the `csv` namespace (the routes translate `csv:` keys). */
const fileRefusal = (key: string, values?: Record<string, string | number>) => ({
  ok: false as const,
  code: 400 as const,
  key: `csv:${key}`,
  ...(values ? { values } : {}),
});

/** Firmware of the pump records of our own export, by handheld serial (the carbohydrate rules depend on it). */
function pumpFirmware(parsed: CsvParseResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of parsed.entries)
    if (e.kind === "pump" && e.own?.deviceSerial && e.own.firmware)
      out.set(e.own.deviceSerial, e.own.firmware);
  return out;
}

/**
 * Reads an uploaded glucose file (Dexcom Clarity, LibreView, our own export or a plain two- or
 * three-column file) and imports it for the patient through the ingestion module, or only says what
 * the import would do (dryRun): format, unit, dates, counts by kind, duplicates of data already
 * stored, and the first bad lines with their numbers. A bad line never stops the file; a file
 * that cannot be read at all is refused with the reason.
 */
export async function importCsv(
  viewer: Viewer,
  request: CsvImportRequest,
): Promise<IngestResult<CsvImportAnswer>> {
  if (request.bytes.byteLength > CSV_FILE_MAX_BYTES)
    return { ok: false, code: 413, key: "csv:errors.tooLarge", values: { limit: "2 MB" } };
  const options: CsvParseOptions = {
    ...(request.format ? { format: request.format } : {}),
    ...(request.dateOrder ? { dateOrder: request.dateOrder } : {}),
    ...(request.columns ? { columns: request.columns } : {}),
  };
  const parsed = await parseCsvFile(request.bytes, options);
  if (!parsed.ok) return fileRefusal(parsed.key, parsed.values);
  const ingested = await ingestFile(viewer, {
    pid: request.pid,
    timeZone: request.timeZone,
    file: parsed,
    firmware: pumpFirmware(parsed),
    dryRun: request.dryRun,
  });
  if (!ingested.ok) return ingested;
  const summary = ingested.data;
  const lineErrors = [...parsed.errors, ...(ingested.lineErrors ?? [])].sort(
    (a, b) => a.line - b.line,
  );
  const read = summarizeCsv({ ...parsed, errors: lineErrors });
  return {
    ok: true,
    data: {
      dryRun: request.dryRun,
      format: parsed.format,
      unit: parsed.unit,
      device: parsed.device,
      dateOrder: parsed.dateOrder ?? null,
      clock: parsed.clock ?? null,
      timeZone: summary.timeZone,
      counts: read.counts,
      firstDate: summary.firstDate,
      lastDate: summary.lastDate,
      inserted: summary.inserted,
      duplicates: summary.duplicates,
      flagged: summary.flagged,
      dstAdjusted: summary.dstAdjusted,
      devices: summary.devices,
      errors: read.errors,
      moreErrors: read.moreErrors,
      uploads: summary.uploads,
    },
  };
}

/** The options a preview was read with, kept with its draft so that the import reads the file the same way. */
export type ImportOptions = Pick<CsvImportRequest, "format" | "timeZone" | "dateOrder" | "columns">;

/** A plain file's columns as a draft keeps them: 1-based, "time,glucose[,unit]". */
const columnsText = (c: GenericColumns) =>
  [c.time, c.glucose, ...(c.unit === undefined ? [] : [c.unit])].map((i) => i + 1).join(",");

function columnsOf(text: string | null): GenericColumns | undefined {
  const [time, glucose, unit] = (text ?? "").split(",").map((n) => Number(n) - 1);
  if (time === undefined || glucose === undefined || !(time >= 0) || !(glucose >= 0))
    return undefined;
  return unit === undefined ? { time, glucose } : { time, glucose, unit };
}

export type DraftPreview = {
  readonly token: string;
  readonly fileName: string;
  readonly preview: CsvImportAnswer;
};

/**
 * The page's first step: reads the file and previews its import (nothing written to the
 * patient's data) and keeps the file as a draft for an hour, named by a random token that the
 * confirm form carries, so that the confirmation works without sending the file again.
 */
export async function previewImport(
  viewer: Viewer,
  input: { pid: number; fileName: string; bytes: Uint8Array; options: ImportOptions },
): Promise<IngestResult<DraftPreview>> {
  const previewed = await importCsv(viewer, {
    pid: input.pid,
    bytes: input.bytes,
    ...input.options,
    dryRun: true,
  });
  if (!previewed.ok) return previewed;
  const token = await createImportDraft({
    patientId: input.pid,
    uploaderId: viewer.id,
    fileName: input.fileName.slice(0, 200),
    bytes: input.bytes,
    format: input.options.format ?? null,
    timeZone: previewed.data.timeZone,
    dateOrder: input.options.dateOrder ?? null,
    columns: input.options.columns ? columnsText(input.options.columns) : null,
  });
  return { ok: true, data: { token, fileName: input.fileName, preview: previewed.data } };
}

/** The page's confirmation: imports the draft's file as it was previewed, then drops the draft. */
export async function confirmImport(
  viewer: Viewer,
  input: { pid: number; token: string },
): Promise<IngestResult<CsvImportAnswer & { fileName: string }>> {
  const draft = await findImportDraft(input.token, viewer.id, input.pid);
  if (!draft) return { ok: false, code: 404, key: "import:errors.draftGone" };
  const imported = await importCsv(viewer, {
    pid: input.pid,
    bytes: draft.bytes,
    format: (draft.format as CsvFormat | null) ?? undefined,
    timeZone: draft.timeZone,
    dateOrder: (draft.dateOrder as "DMY" | "MDY" | null) ?? undefined,
    columns: columnsOf(draft.columns),
    dryRun: false,
  });
  await deleteImportDraft(input.token, viewer.id);
  return imported.ok
    ? { ok: true, data: { ...imported.data, fileName: draft.fileName } }
    : imported;
}

/** The page's cancellation: the draft goes, nothing was written. */
export async function cancelImport(viewer: Viewer, token: string): Promise<void> {
  await deleteImportDraft(token, viewer.id);
}
