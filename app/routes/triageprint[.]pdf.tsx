import type { LoaderFunctionArgs } from "@remix-run/node";
import { mayTag } from "~/models/clinic-tags.server";
import { paperSizeOf } from "~/models/setting.server";
import { pdfFailureResponse, renderOrigin } from "~/services/report-pdf.server";
import { requireUser } from "~/services/session.server";
import { parseSummaryQuery, summaryClaim, summaryParams } from "~/services/triage-print.server";
import { errorPageAnswer } from "~/utils/error-page";
import { PdfRenderError, renderPdf } from "~/utils/pdf.server";
import { createRenderToken } from "~/utils/render-token.server";

/**
 * `/triageprint.pdf?period&cat&tag&all`: the printable triage summary printed by the server's Chromium
 * with the requester's cookies (docs/decisions/007-pdf-rendering.md). The page's address carries a
 * render token, so the summary's access-log rows are written once, by that page, as `pdf` reads.
 * Anyone but an approved clinic: 403 with the app's error page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  if (!mayTag(viewer)) return errorPageAnswer(403);
  const query = parseSummaryQuery(new URL(request.url).searchParams);
  const params = summaryParams(query);
  params.set("print", "1");
  params.set("render", createRenderToken(summaryClaim(viewer, query)));
  try {
    const pdf = await renderPdf({
      url: `${renderOrigin(request)}/triageprint?${params}`,
      account: viewer.id,
      cookieHeader: request.headers.get("Cookie"),
      paper: await paperSizeOf(viewer.id),
    });
    const day = new Date().toISOString().slice(0, 10);
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="triage-${query.period}d-${day}.pdf"`,
        "Content-Length": String(pdf.byteLength),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof PdfRenderError)) throw error;
    return pdfFailureResponse(request, "triageprint.pdf", error);
  }
}
