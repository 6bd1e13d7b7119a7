import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/schemas/fields";
import { cgmSummaryDownloadQuery } from "~/schemas/fhir";
import { cgmSummaryExport, fhirBundleResponse, plainMessage } from "~/services/fhir-export.server";
import { pdfFailureResponse } from "~/services/report-pdf.server";
import { requireUser } from "~/services/session.server";
import { errorPageAnswer } from "~/utils/error-page";
import { PdfRenderError } from "~/utils/pdf.server";

/**
 * `/{id}/cgm-summary.json?start&end[&pdf=0]`: the AGP page's download of the HL7 FHIR CGM
 * summary (the same Bundle as `GET /api/fhir/cgm-summary`, with the AGP page embedded as a PDF
 * unless `pdf=0`), as the file `cgm-summary-<last day>.json`, with the page session. A patient
 * the viewer may not see is 403 with the app's error page (as for the PDFs); a bad range or too
 * few full days of data is 400 with a translated plain-text message.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const pid = idParam.safeParse(params.id);
  if (!pid.success) return errorPageAnswer(403);
  const search = new URL(request.url).searchParams;
  const parsed = cgmSummaryDownloadQuery.safeParse({
    start: search.get("start") ?? "",
    end: search.get("end") ?? "",
    ...(search.has("pdf") ? { pdf: search.get("pdf") } : {}),
  });
  if (!parsed.success)
    return plainMessage(
      request,
      400,
      `reports:${parsed.error.issues[0]?.message ?? "common.selectDate"}`,
    );
  const { start, end, pdf } = parsed.data;
  try {
    const answer = await cgmSummaryExport({
      request,
      viewer,
      pid: pid.data,
      range: { start, end },
      pdf: pdf === "1" ? { cookieHeader: request.headers.get("Cookie") } : null,
    });
    if (answer.ok) return fhirBundleResponse(answer.bundle, answer.fileName);
    if (answer.refused === "notVisible") return errorPageAnswer(403);
    return plainMessage(request, 400, answer.msgKey, answer.values);
  } catch (error) {
    if (!(error instanceof PdfRenderError)) throw error;
    return pdfFailureResponse(request, "cgm-summary.json", error);
  }
}
