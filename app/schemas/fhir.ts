import { z } from "zod";
import { reportApiSchema, reportRangeSchema } from "./report";

/**
 * Whether the CGM summary Bundle embeds the AGP page as a PDF: `1` (the default of the page's
 * download) or `0`. Messages are keys of the `reports` namespace.
 */
const pdfFlag = z.enum(["0", "1"], {
  errorMap: () => ({ message: "fhir.pdfFlag" }),
});

/** `GET /api/fhir/cgm-summary`: pid, start, end (the AGP report's 3-14 days), pdf (default 0). */
export const cgmSummaryApiQuery = reportApiSchema.extend({ pdf: pdfFlag.default("0") });

/** `/{pid}/cgm-summary.json`: start, end, pdf (default 1). */
export const cgmSummaryDownloadQuery = reportRangeSchema.extend({ pdf: pdfFlag.default("1") });
