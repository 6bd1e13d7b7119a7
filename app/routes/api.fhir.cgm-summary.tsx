import type { LoaderFunctionArgs } from "@remix-run/node";
import { cgmSummaryApiQuery } from "~/schemas/fhir";
import { apiFail, apiInvalid, API_CODES, requireApiViewer } from "~/services/api.server";
import { cgmSummaryExport, fhirBundleResponse } from "~/services/fhir-export.server";
import { pdfFailureResponse } from "~/services/report-pdf.server";
import { PdfRenderError } from "~/utils/pdf.server";

/**
 * GET /api/fhir/cgm-summary?pid&start&end[&pdf=1]: the AGP report of those 3-14 local days as an
 * HL7 FHIR CGM summary Bundle (`application/fhir+json`, app/report/fhir-cgm-summary.ts).
 * `pdf=1` embeds the AGP page as a PDF, printed with the caller's page session, so only a call
 * made with that session (no `token` header) may ask for it. Refusals answer the
 * `{ code, msg, data }` envelope: 400 for input, dates and too few full days, 404 for a patient
 * the caller may not see.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiViewer(request);
  const parsed = cgmSummaryApiQuery.safeParse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  if (!parsed.success) return apiInvalid(request, parsed.error, "reports");
  const { pid, start, end, pdf } = parsed.data;
  const withPdf = pdf === "1";
  if (withPdf && request.headers.get("token"))
    return apiFail(request, API_CODES.invalid, "reports:fhir.pdfNeedsSession");
  try {
    const answer = await cgmSummaryExport({
      request,
      viewer,
      pid,
      range: { start, end },
      pdf: withPdf ? { cookieHeader: request.headers.get("Cookie") } : null,
    });
    if (answer.ok) return fhirBundleResponse(answer.bundle, null);
    return answer.refused === "notVisible"
      ? apiFail(request, API_CODES.notFound, "notFound")
      : apiFail(request, API_CODES.invalid, answer.msgKey, answer.values);
  } catch (error) {
    if (!(error instanceof PdfRenderError)) throw error;
    return pdfFailureResponse(request, "fhir/cgm-summary", error);
  }
}
