import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/schemas/fields";
import { reportContext } from "~/services/report.server";
import {
  rangeProblemKey,
  REPORT_KINDS,
  reportPageHref,
  reportPdfFileName,
  reportPurpose,
  type ReportKind,
} from "~/report/report-kinds";
import { RANGE_RULES } from "~/report/report-range";
import { reportRangeSchema } from "~/schemas/report";
import { env } from "~/utils/env.server";
import { errorPageAnswer } from "~/utils/error-page";
import { getLocale } from "~/services/locale.server";
import { getFixedT } from "~/utils/i18n.server";
import { appOrigins, pdfFailureAnswer, PdfRenderError, renderPdf } from "~/utils/pdf.server";
import { createRenderToken } from "~/utils/render-token.server";
import { requireUser } from "~/services/session.server";
import { readPatient } from "./patient-read.server";

async function plain(
  request: Request,
  status: number,
  key: string,
  headers: Record<string, string> = {},
) {
  const t = await getFixedT(await getLocale(request), "reports");
  return new Response(t(key), {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

/** The origin Chromium renders: the request's own when it is one of this app's, else APP_URL's. */
export function renderOrigin(request: Request): string {
  const own = new URL(request.url).origin;
  const origins = appOrigins(env().APP_URL, env().PORT);
  return origins.includes(own) ? own : origins[0]!;
}

/**
 * A report page's PDF route (`/{id}/<page>.pdf?start&end`): the page printed by the server's
 * Chromium with the requester's cookies (docs/decisions/007-pdf-rendering.md). The read goes
 * through the access gateway first (no browser work for a refused request): a missing or
 * malformed date is 400 and a range outside the report's rule 400, each with a translated
 * plain-text message; a patient the viewer may not see, one that does not exist, or a malformed
 * id is 403 with the app's error page (app/utils/error-page.ts). The page address carries a
 * render token, so that the page's own load is not logged a second time.
 */
export async function reportPdfResponse(
  { request, params }: LoaderFunctionArgs,
  kind: ReportKind,
): Promise<Response> {
  const spec = REPORT_KINDS[kind];
  const viewer = await requireUser(request);
  const pid = idParam.safeParse(params.id);
  if (!pid.success) return errorPageAnswer(403);
  const search = new URL(request.url).searchParams;
  const parsed = reportRangeSchema.safeParse({
    start: search.get("start") ?? "",
    end: search.get("end") ?? "",
  });
  if (!parsed.success)
    return plain(request, 400, `reports:${parsed.error.issues[0]?.message ?? "common.selectDate"}`);
  const purpose = reportPurpose(kind);
  const read = await readPatient({
    viewer,
    pid: pid.data,
    purpose,
    channel: "pdf",
    range: { rule: RANGE_RULES[spec.rangeKind], dates: parsed.data },
  });
  if (!read.ok)
    return read.refused === "range"
      ? plain(request, 400, rangeProblemKey(read.problem, read.rule))
      : errorPageAnswer(403);
  const { patient } = read;
  const range = read.range ?? parsed.data;
  const context = await reportContext(viewer.id, patient);
  const render = createRenderToken({
    viewerId: viewer.id,
    pid: patient.id,
    purpose,
    start: range.start,
    end: range.end,
  });
  const url = `${renderOrigin(request)}${reportPageHref(kind, patient.id)}?${new URLSearchParams({ start: range.start, end: range.end, print: "1", render })}`;
  try {
    const pdf = await renderPdf({
      url,
      account: viewer.id,
      cookieHeader: request.headers.get("Cookie"),
      landscape: context.orientation === "landscape",
      paper: context.paperSize,
    });
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
    return pdfFailureResponse(request, `${spec.page}.pdf`, error);
  }
}

/** A failed render's answer: logged, then a translated plain-text message with its status. */
export function pdfFailureResponse(
  request: Request,
  label: string,
  error: PdfRenderError,
): Promise<Response> {
  console.error(`${label}: ${error.code}: ${error.message}`);
  const answer = pdfFailureAnswer(error);
  const retryAfter: Record<string, string> = answer.retryAfterSeconds
    ? { "Retry-After": String(answer.retryAfterSeconds) }
    : {};
  return plain(request, answer.status, answer.messageKey, retryAfter);
}
