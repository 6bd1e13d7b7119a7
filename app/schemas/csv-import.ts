import { z } from "zod";
import { CSV_FORMATS, type CsvFormat } from "~/csv";
import { blankToUndefined, INT4_MAX } from "./fields";
import { timeZoneField } from "./upload";

/**
 * The fields of a CSV import (the page's form and `POST /api/patient-data/importCsv`, both
 * multipart): the patient, the file, an optional format that overrides detection ("auto" or
 * empty: detect), the zone of the file's wall-clock times (empty: the patient's), the day/month
 * order of LibreView dates ("auto" or empty: detect) and whether only to preview. Message keys are
 * in the `import` namespace.
 */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === "auto" ? undefined : blankToUndefined(v)), schema.optional());

export const importOptionsSchema = z.object({
  format: optional(z.enum(CSV_FORMATS as [CsvFormat, ...CsvFormat[]], { errorMap: () => ({ message: "errors.format" }) })),
  timeZone: optional(timeZoneField),
  dateOrder: optional(z.enum(["DMY", "MDY"], { errorMap: () => ({ message: "errors.dateOrder" }) })),
});

/** A file field: an uploaded, non-empty file (not a text). */
export const fileField = z.instanceof(File, { message: "errors.file" }).refine((f) => f.size > 0, "errors.file");

const pid = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z
    .string({ required_error: "errors.pid", invalid_type_error: "errors.pid" })
    .regex(/^\d{1,10}$/, "errors.pid")
    .transform(Number)
    .pipe(z.number().int().min(1, "errors.pid").max(INT4_MAX, "errors.pid")),
);

export const importCsvApiSchema = importOptionsSchema.extend({
  pid,
  file: fileField,
  dryRun: z
    .preprocess(blankToUndefined, z.enum(["0", "1", "true", "false"], { errorMap: () => ({ message: "errors.dryRun" }) }).optional())
    .transform((v) => v === "1" || v === "true"),
});

/** GET /api/patient-data/exportCsv and the export page: the patient and the local days (YYYY-MM-DD). */
export const exportCsvQuery = z.object({
  pid,
  start: z.preprocess(blankToUndefined, z.string().max(10, "errors.date").optional()),
  end: z.preprocess(blankToUndefined, z.string().max(10, "errors.date").optional()),
});
