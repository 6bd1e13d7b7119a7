import type { LoaderFunctionArgs } from "@remix-run/node";
import { reportPdfResponse } from "~/services/report-pdf.server";

/**
 * `/{id}/bloodtestsprint.pdf?start&end`: the blood tests report (the meter logbook) printed by the
 * server's Chromium with the requester's cookies; 403 without access, 400 for a bad range
 * (app/services/report-pdf.server.ts).
 */
export function loader(args: LoaderFunctionArgs) {
  return reportPdfResponse(args, "bloodTests");
}
