import type { Bundle } from "@medplum/fhirtypes";
import { randomUUID } from "node:crypto";
import type { Viewer } from "~/models/access.server";
import { cgmDevicesIn, patientGender, type CgmDeviceRow } from "~/models/fhir-data.server";
import { insufficientMessageValues } from "~/report/agp-report";
import { dayWindow } from "~/report/day";
import {
  buildCgmSummaryBundle,
  cgmSummaryFileName,
  type FhirCgmDevice,
} from "~/report/fhir-cgm-summary";
import {
  rangeProblemKey,
  REPORT_KINDS,
  reportPageHref,
  reportPurpose,
} from "~/report/report-kinds";
import { RANGE_RULES } from "~/report/report-range";
import type { ReportRange } from "~/schemas/report";
import { env } from "~/utils/env.server";
import { getFixedT } from "~/utils/i18n.server";
import { getLocale } from "./locale.server";
import { renderPdf } from "~/utils/pdf.server";
import { createRenderToken } from "~/utils/render-token.server";
import { readPatient } from "./patient-read.server";
import { renderOrigin } from "./report-pdf.server";
import { agpReportFor, reportContext } from "./report.server";

/** Media type of a FHIR resource in JSON. */
export const FHIR_JSON = "application/fhir+json; charset=utf-8";

export type CgmSummaryExport =
  | { readonly ok: true; readonly bundle: Bundle; readonly fileName: string }
  | { readonly ok: false; readonly refused: "notVisible" }
  /** Dates outside the AGP rule, or too few full days of data: a translated message (code 400). */
  | {
      readonly ok: false;
      readonly refused: "range" | "insufficient";
      readonly msgKey: string;
      readonly values?: Record<string, unknown>;
    };

/** The device name the guide's CGM Device carries (maker and model where the app knows them). */
function deviceName(row: CgmDeviceRow): string {
  if (row.model) return row.model;
  if (row.kind === "aidex") return "MicroTech Medical AiDEX CGM";
  if (row.kind === "imported") return "CGM (imported file)";
  return "CGM";
}

/**
 * The HL7 FHIR CGM summary of a patient's AGP report over `range` (the AGP's 3-14 days): asked
 * through the access gateway (purpose `cgmSummary`, channel `fhir`, one access-log row), then
 * the AGP report model, the CGM devices of the range and, with `pdf`, the AGP page printed by
 * the server's Chromium with the caller's page session (`pdf.cookieHeader`), built into the
 * Bundle by app/report/fhir-cgm-summary.ts. The PDF's page load carries a render token, so the
 * export stays one read in the log. A failed print throws `PdfRenderError`.
 */
export async function cgmSummaryExport(ask: {
  readonly request: Request;
  readonly viewer: Viewer;
  readonly pid: number;
  readonly range: ReportRange;
  readonly pdf: { readonly cookieHeader: string | null } | null;
}): Promise<CgmSummaryExport> {
  const { viewer } = ask;
  const rule = RANGE_RULES[REPORT_KINDS.agp.rangeKind];
  const read = await readPatient({
    viewer,
    pid: ask.pid,
    purpose: "cgmSummary",
    channel: "fhir",
    range: { rule, dates: ask.range },
  });
  if (!read.ok)
    return read.refused === "range"
      ? { ok: false, refused: "range", msgKey: rangeProblemKey(read.problem, read.rule) }
      : { ok: false, refused: "notVisible" };
  const { patient, now } = read;
  const range = read.range ?? ask.range;
  const result = await agpReportFor(viewer, patient, range, now);
  if (result.status === "invalidRange")
    return { ok: false, refused: "range", msgKey: rangeProblemKey(result.problem, result) };
  if (result.status === "insufficient")
    return {
      ok: false,
      refused: "insufficient",
      msgKey: "reports:agp.insufficient",
      values: insufficientMessageValues(result),
    };
  const { report } = result;
  const span = {
    start: dayWindow(report.from, patient.timeZone).start,
    end: dayWindow(report.to, patient.timeZone).end,
  };
  const [deviceRows, gender] = await Promise.all([
    cgmDevicesIn(viewer, patient.id, span),
    patientGender(viewer, patient.id),
  ]);
  const devices: FhirCgmDevice[] = deviceRows.map((row) => ({
    serial: row.serial,
    name: deviceName(row),
  }));

  let pdfBase64: string | null = null;
  if (ask.pdf) {
    const purpose = reportPurpose("agp");
    const render = createRenderToken({
      viewerId: viewer.id,
      pid: patient.id,
      purpose,
      start: report.from,
      end: report.to,
    });
    const context = await reportContext(viewer.id, patient);
    const url = `${renderOrigin(ask.request)}${reportPageHref("agp", patient.id)}?${new URLSearchParams({ start: report.from, end: report.to, print: "1", render })}`;
    const pdf = await renderPdf({
      url,
      account: viewer.id,
      cookieHeader: ask.pdf.cookieHeader,
      landscape: context.orientation === "landscape",
      paper: context.paperSize,
    });
    pdfBase64 = Buffer.from(pdf).toString("base64");
  }

  const origin = env().APP_URL.replace(/\/+$/, "");
  const bundle = buildCgmSummaryBundle({
    report,
    patient: {
      pid: patient.id,
      firstName: patient.user.firstName,
      lastName: patient.user.lastName,
      birthDate: patient.user.birthDate ? patient.user.birthDate.toISOString().slice(0, 10) : null,
      gender,
    },
    devices,
    pdfBase64,
    systems: { patient: `${origin}/fhir/patient-id`, device: `${origin}/fhir/device-serial` },
    now,
    uuid: randomUUID,
  });
  return { ok: true, bundle, fileName: cgmSummaryFileName(report) };
}

/** The Bundle as the answer's body: FHIR JSON, never cached, optionally as a download. */
export function fhirBundleResponse(bundle: Bundle, fileName: string | null): Response {
  return new Response(JSON.stringify(bundle, null, 2), {
    headers: {
      "Content-Type": FHIR_JSON,
      "Cache-Control": "private, no-store",
      ...(fileName ? { "Content-Disposition": `attachment; filename="${fileName}"` } : {}),
    },
  });
}

/** A refusal of the download: the translated message as plain text with its status. */
export async function plainMessage(
  request: Request,
  status: number,
  key: string,
  values?: Record<string, unknown>,
): Promise<Response> {
  const t = await getFixedT(await getLocale(request), "reports");
  return new Response(t(key, values), {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
