import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { findVisiblePatient } from "~/models/access.server";
import { reportContext } from "~/models/report.server";
import { REPORT_KINDS, reportPageHref, reportPdfFileName, type ReportKind } from "~/report/report-kinds";
import { checkReportRange } from "~/report/report-range";
import { reportRangeSchema } from "~/schemas/report";
import { env } from "~/utils/env.server";
import { getFixedT, getLocale } from "~/utils/i18n.server";
import { appOrigins, pdfFailureAnswer, PdfRenderError, renderPdf } from "~/utils/pdf.server";
import { requireUser } from "~/utils/session.server";

const pidParam = z.coerce.number().int().positive().max(2_147_483_647);

async function plain(request: Request, status: number, key: string, headers: Record<string, string> = {}) {
  const t = await getFixedT(await getLocale(request), "reports");
  return new Response(t(key), { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });
}

/** The origin Chromium renders: the request's own when it is one of this app's, else APP_URL's. */
function renderOrigin(request: Request): string {
  const own = new URL(request.url).origin;
  const origins = appOrigins(env().APP_URL, env().PORT);
  return origins.includes(own) ? own : origins[0]!;
}

/**
 * A report page's PDF route (`/{id}/<page>.pdf?start&end`): the page printed by the server's
 * Chromium with the requester's cookies (docs/decisions/007-pdf-rendering.md). The viewer and the
 * range are checked here first (no browser work for a refused request): a patient the viewer may
 * not see, or one that does not exist, is 403 (issue 7; docs/decisions/009-report-pages.md), a bad
 * range 400 with a translated plain-text message.
 */
export async function reportPdfResponse({ request, params }: LoaderFunctionArgs, kind: ReportKind): Promise<Response> {
  const spec = REPORT_KINDS[kind];
  const viewer = await requireUser(request);
  const pid = pidParam.safeParse(params.id);
  const patient = pid.success ? await findVisiblePatient(viewer, pid.data) : null;
  if (!patient) return plain(request, 403, "common:errors.403");
  const search = new URL(request.url).searchParams;
  const parsed = reportRangeSchema.safeParse({ start: search.get("start") ?? "", end: search.get("end") ?? "" });
  if (!parsed.success) return plain(request, 400, `reports:${parsed.error.issues[0]?.message ?? "common.selectDate"}`);
  const range = parsed.data;
  const checked = checkReportRange(range.start, range.end, spec.rangeKind, { timeZone: patient.timeZone, now: Date.now() });
  if (!checked.ok) return plain(request, 400, spec.problemKeys[checked.invalid.problem]);

  const context = await reportContext(viewer.id, patient);
  const url = `${renderOrigin(request)}${reportPageHref(kind, patient.id)}?${new URLSearchParams({ start: range.start, end: range.end, print: "1" })}`;
  try {
    const pdf = await renderPdf({ url, account: viewer.id, cookieHeader: request.headers.get("Cookie"), landscape: context.orientation === "landscape" });
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${reportPdfFileName(kind, patient.id, range)}"`,
        "Content-Length": String(pdf.byteLength),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof PdfRenderError)) throw error;
    console.error(`${spec.page}.pdf: ${error.code}: ${error.message}`);
    const answer = pdfFailureAnswer(error);
    const retryAfter: Record<string, string> = answer.retryAfterSeconds ? { "Retry-After": String(answer.retryAfterSeconds) } : {};
    return plain(request, answer.status, answer.messageKey, retryAfter);
  }
}
