import { z } from "zod";
import { CSV_FORMATS, CSV_LIMITS, type CsvFormat } from "~/csv";
import { blankToUndefined, INT4_MAX } from "./fields";
import { timeZoneField } from "./upload";

/**
 * The fields of a CSV import (the page's form and `POST /api/patient-data/importCsv`, both
 * multipart): the patient, the file, an optional format that overrides detection ("auto" or
 * empty: detect), the zone of the file's wall-clock times (empty: the patient's), the day/month
 * order of LibreView dates ("auto" or empty: detect), the columns of a plain file (time and
 * glucose, and the unit if there is one; empty: found from the first data line) and whether only
 * to preview. Message keys are in the `import` namespace.
 */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === "auto" ? undefined : blankToUndefined(v)), schema.optional());

/** A column of a plain file, counted from 1 as a spreadsheet shows them. */
const column = optional(
  z
    .string({ invalid_type_error: "errors.column" })
    .regex(/^\d{1,3}$/, "errors.column")
    .transform(Number)
    .pipe(z.number().int().min(1, "errors.column").max(CSV_LIMITS.fieldsPerLine, "errors.column")),
);

export const importOptionsSchema = z
  .object({
    format: optional(
      z.enum(CSV_FORMATS as [CsvFormat, ...CsvFormat[]], {
        errorMap: () => ({ message: "errors.format" }),
      }),
    ),
    timeZone: optional(timeZoneField),
    dateOrder: optional(
      z.enum(["DMY", "MDY"], { errorMap: () => ({ message: "errors.dateOrder" }) }),
    ),
    timeColumn: column,
    glucoseColumn: column,
    unitColumn: column,
  })
  .superRefine((o, ctx) => {
    const chosen = [o.timeColumn, o.glucoseColumn, o.unitColumn].filter((c) => c !== undefined);
    if (chosen.length > 0 && (o.timeColumn === undefined || o.glucoseColumn === undefined))
      ctx.addIssue({ code: "custom", message: "errors.columnsBoth", path: ["timeColumn"] });
    else if (new Set(chosen).size !== chosen.length)
      ctx.addIssue({ code: "custom", message: "errors.columnsDiffer", path: ["timeColumn"] });
  })
  .transform(({ timeColumn, glucoseColumn, unitColumn, ...rest }) => ({
    ...rest,
    columns:
      timeColumn !== undefined && glucoseColumn !== undefined
        ? {
            time: timeColumn - 1,
            glucose: glucoseColumn - 1,
            ...(unitColumn === undefined ? {} : { unit: unitColumn - 1 }),
          }
        : undefined,
  }));

/** A file field: an uploaded, non-empty file (not a text). */
export const fileField = z
  .instanceof(File, { message: "errors.file" })
  .refine((f) => f.size > 0, "errors.file");

const pid = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z
    .string({ required_error: "errors.pid", invalid_type_error: "errors.pid" })
    .regex(/^\d{1,10}$/, "errors.pid")
    .transform(Number)
    .pipe(z.number().int().min(1, "errors.pid").max(INT4_MAX, "errors.pid")),
);

export const importCsvApiSchema = z
  .object({
    pid,
    file: fileField,
    dryRun: z
      .preprocess(
        blankToUndefined,
        z
          .enum(["0", "1", "true", "false"], { errorMap: () => ({ message: "errors.dryRun" }) })
          .optional(),
      )
      .transform((v) => v === "1" || v === "true"),
  })
  .passthrough()
  .transform((fields, ctx) => {
    const { pid: p, file, dryRun, ...rest } = fields;
    const options = importOptionsSchema.safeParse(rest);
    if (!options.success) {
      options.error.issues.forEach((issue) => ctx.addIssue(issue));
      return z.NEVER;
    }
    return { pid: p, file, dryRun, ...options.data };
  });

/** GET /api/patient-data/exportCsv and the export page: the patient and the local days (YYYY-MM-DD). */
export const exportCsvQuery = z.object({
  pid,
  start: z.preprocess(blankToUndefined, z.string().max(10, "errors.date").optional()),
  end: z.preprocess(blankToUndefined, z.string().max(10, "errors.date").optional()),
});
