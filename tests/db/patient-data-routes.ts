/**
 * Every route that reads one patient's data, with a call of each as a signed-in page session or
 * an `/api/` token (tests/db/access-gateway.test.ts checks that the list names every such route
 * file; tests/db/patient-index-plans.test.ts runs them to collect their statements).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Temporal } from "temporal-polyfill";
import { expectDocumented } from "../support/api-contract";
import { loader as agpPdf } from "~/routes/$id.agpprint[.]pdf";
import { loader as agpPage } from "~/routes/$id.agpprint";
import { loader as cgmPdf } from "~/routes/$id.cgmsprint[.]pdf";
import { loader as cgmPage } from "~/routes/$id.cgmsprint";
import { loader as pumpPdf } from "~/routes/$id.print[.]pdf";
import { loader as pumpPage } from "~/routes/$id.print";
import { loader as statisticsPdf } from "~/routes/$id.statisticsprint[.]pdf";
import { loader as statisticsPage } from "~/routes/$id.statisticsprint";
import { loader as bloodTestsPdf } from "~/routes/$id.bloodtestsprint[.]pdf";
import { loader as bloodTestsPage } from "~/routes/$id.bloodtestsprint";
import { action as agpApi } from "~/routes/api.cgms.cgm-record.agp";
import { loader as cgmSummaryApi } from "~/routes/api.fhir.cgm-summary";
import { loader as cgmSummaryFile } from "~/routes/$id.cgm-summary[.]json";
import { loader as cgmFindList } from "~/routes/api.cgms.cgm-record.findList";
import { loader as findLastRecord } from "~/routes/api.patient-data.findLastRecord";
import { loader as findPatientData } from "~/routes/api.patient-data.findPatientData";
import { loader as getPdaTimeZone } from "~/routes/api.patient-data.getPdaTimeZone";
import { loader as latestDates } from "~/routes/api.patient-data.getLatestDateFromReportAndAidex";
import { action as daysWithData } from "~/routes/api.patient-data.listExistInDateFromReport";
import { action as pumpApi } from "~/routes/api.patient-data.pdf";
import { loader as sugarData } from "~/routes/api.patient-data.sugarData";
import { action as cgmApi } from "~/routes/api.patient-data.sugarDevicePdf";
import { loader as findOne } from "~/routes/api.patient.findOne";
import { loader as recordPage } from "~/routes/patient";
import { loader as patientHome } from "~/routes/patientShow.$id.$userid.patientHome";
import { loader as uploadsPage } from "~/routes/patientShow.$id.$userid.uploads";
import { loader as exportPage } from "~/routes/patientShow.$id.export[.]csv";
import { loader as importPage } from "~/routes/patientShow.$id.import";
import { loader as uploadCentre } from "~/routes/patientShow.$id.upload";
import { loader as exportApi } from "~/routes/api.patient-data.exportCsv";
import { loader as caringDetailPage } from "~/routes/$userId.caringdetail";
import { statusOf } from "./report-support";

export type Route = (args: LoaderFunctionArgs) => Promise<unknown> | unknown;

export const ZONE = "Europe/Warsaw";
export const today = Temporal.Now.plainDateISO(ZONE);
export const FROM = today.subtract({ days: 6 }).toString();
export const TO = today.subtract({ days: 1 }).toString();

export type Kind = "page" | "api" | "pdf" | "fhirApi" | "fhirFile";
/** The access-log channel of each kind of route: the FHIR export has its own. */
export const CHANNEL: Record<Kind, string> = {
  page: "page",
  api: "api",
  pdf: "pdf",
  fhirApi: "fhir",
  fhirFile: "fhir",
};
export interface Caller {
  cookie: string | null;
  token: string | null;
}
export interface RouteCase {
  readonly file: string;
  readonly kind: Kind;
  readonly purpose: string;
  call(
    who: Caller,
    pid: number,
    userId: number,
    dates?: { start: string; end: string },
  ): Promise<number>;
}

export const page =
  (
    route: Route,
    path: (pid: number, userId: number) => string,
    params: (pid: number, userId: number) => Record<string, string>,
  ) =>
  (who: Caller, pid: number, userId: number) =>
    statusOf(() =>
      route({
        request: new Request(`http://localhost${path(pid, userId)}`, {
          headers: who.cookie ? { Cookie: who.cookie } : {},
        }),
        params: params(pid, userId),
        context: {},
      }),
    );

export const apiGet =
  (
    route: Route,
    path: string,
    query: (pid: number, dates: { start: string; end: string }) => Record<string, string>,
  ) =>
  async (who: Caller, pid: number, _userId: number, dates = { start: FROM, end: TO }) => {
    const request = new Request(
      `http://localhost/api/${path}?${new URLSearchParams(query(pid, dates))}`,
      { headers: who.token ? { token: who.token } : {} },
    );
    return envelopeStatus(() => route({ request, params: {}, context: {} }), request);
  };

export const apiPost =
  (route: Route, path: string) =>
  async (who: Caller, pid: number, _userId: number, dates = { start: FROM, end: TO }) => {
    const request = new Request(`http://localhost/api/${path}`, {
      method: "POST",
      body: JSON.stringify({ pid, ...dates }),
      headers: { "Content-Type": "application/json", ...(who.token ? { token: who.token } : {}) },
    });
    return envelopeStatus(() => route({ request, params: {}, context: {} }), request);
  };

/** An `/api/` answer's application code (the envelope's `code`), or the HTTP status of a file it answers. */
export async function envelopeStatus(
  run: () => Promise<unknown> | unknown,
  request?: Request,
): Promise<number> {
  let response: unknown;
  try {
    response = await run();
  } catch (thrown) {
    response = thrown;
  }
  if (!(response instanceof Response))
    throw new Error("an /api/ route answered something else than a Response");
  if (!response.headers.get("Content-Type")?.startsWith("application/json")) return response.status;
  const body = (await response.json()) as { code: number };
  // An /api/ answer must be as the API document describes it.
  if (request) expectDocumented(request.method, request.url, response.status, body);
  return body.code;
}

export const reportPage =
  (route: Route, name: string) =>
  (who: Caller, pid: number, userId: number, dates = { start: FROM, end: TO }) =>
    page(
      route,
      (p) => `/${p}/${name}?${new URLSearchParams(dates)}`,
      (p) => ({ id: String(p) }),
    )(who, pid, userId);

export const pdf =
  (route: Route, name: string) =>
  (who: Caller, pid: number, _userId: number, dates = { start: FROM, end: TO }) =>
    statusOf(() =>
      route({
        request: new Request(`http://localhost/${pid}/${name}.pdf?${new URLSearchParams(dates)}`, {
          headers: who.cookie ? { Cookie: who.cookie } : {},
        }),
        params: { id: String(pid) },
        context: {},
      }),
    );

/** Every route that reads patient data, by file. PDFs render in Chromium: their granted reads are walked end to end (tests/e2e/access-log.spec.ts). */
export const ROUTES: readonly RouteCase[] = [
  {
    file: "patientShow.$id.$userid.patientHome.tsx",
    kind: "page",
    purpose: "patientHome",
    call: page(
      patientHome,
      (p, u) => `/patientShow/${p}/${u}/patientHome`,
      (p, u) => ({ id: String(p), userid: String(u) }),
    ),
  },
  {
    file: "patientShow.$id.$userid.uploads.tsx",
    kind: "page",
    purpose: "uploads",
    call: page(
      uploadsPage,
      (p, u) => `/patientShow/${p}/${u}/uploads`,
      (p, u) => ({ id: String(p), userid: String(u) }),
    ),
  },
  {
    file: "patientShow.$id.upload.tsx",
    kind: "page",
    purpose: "uploadCentre",
    call: page(
      uploadCentre,
      (p) => `/patientShow/${p}/upload`,
      (p) => ({ id: String(p) }),
    ),
  },
  {
    file: "patientShow.$id.import.tsx",
    kind: "page",
    purpose: "import",
    call: page(
      importPage,
      (p) => `/patientShow/${p}/import`,
      (p) => ({ id: String(p) }),
    ),
  },
  {
    file: "patientShow.$id.export[.]csv.tsx",
    kind: "page",
    purpose: "export",
    call: page(
      exportPage,
      (p) => `/patientShow/${p}/export.csv`,
      (p) => ({ id: String(p) }),
    ),
  },
  {
    file: "api.patient-data.exportCsv.tsx",
    kind: "api",
    purpose: "export",
    call: apiGet(exportApi, "patient-data/exportCsv", (pid, d) => ({ pid: String(pid), ...d })),
  },
  {
    file: "patient.tsx",
    kind: "page",
    purpose: "record",
    call: page(
      recordPage,
      (p) => `/patient?pid=${p}`,
      () => ({}),
    ),
  },
  {
    file: "$id.print.tsx",
    kind: "page",
    purpose: "pumpReport",
    call: reportPage(pumpPage, "print"),
  },
  {
    file: "$id.cgmsprint.tsx",
    kind: "page",
    purpose: "cgmReport",
    call: reportPage(cgmPage, "cgmsprint"),
  },
  {
    file: "$id.agpprint.tsx",
    kind: "page",
    purpose: "agpReport",
    call: reportPage(agpPage, "agpprint"),
  },
  {
    file: "$id.statisticsprint.tsx",
    kind: "page",
    purpose: "statisticsReport",
    call: reportPage(statisticsPage, "statisticsprint"),
  },
  {
    file: "$id.bloodtestsprint.tsx",
    kind: "page",
    purpose: "bloodTestsReport",
    call: reportPage(bloodTestsPage, "bloodtestsprint"),
  },
  {
    file: "api.patient-data.findPatientData.tsx",
    kind: "api",
    purpose: "dayData",
    call: apiGet(findPatientData, "patient-data/findPatientData", (pid, d) => ({
      pid: String(pid),
      date: d.end,
    })),
  },
  {
    file: "api.patient-data.findLastRecord.tsx",
    kind: "api",
    purpose: "lastRecord",
    call: apiGet(findLastRecord, "patient-data/findLastRecord", (pid) => ({
      pid: String(pid),
      origin: "2",
    })),
  },
  {
    file: "api.patient-data.getPdaTimeZone.tsx",
    kind: "api",
    purpose: "pdaTimeZone",
    call: apiGet(getPdaTimeZone, "patient-data/getPdaTimeZone", (pid) => ({ pid: String(pid) })),
  },
  {
    file: "api.patient-data.getLatestDateFromReportAndAidex.tsx",
    kind: "api",
    purpose: "dataDays",
    call: apiGet(latestDates, "patient-data/getLatestDateFromReportAndAidex", (pid) => ({
      pid: String(pid),
    })),
  },
  {
    file: "api.patient-data.listExistInDateFromReport.tsx",
    kind: "api",
    purpose: "dataDays",
    call: apiPost(daysWithData, "patient-data/listExistInDateFromReport"),
  },
  {
    file: "api.patient-data.sugarData.tsx",
    kind: "api",
    purpose: "meterReadings",
    call: apiGet(sugarData, "patient-data/sugarData", (pid, d) => ({ pid: String(pid), ...d })),
  },
  {
    file: "api.cgms.cgm-record.findList.tsx",
    kind: "api",
    purpose: "cgmReadings",
    call: apiGet(cgmFindList, "cgms/cgm-record/findList", (pid, d) => ({ pid: String(pid), ...d })),
  },
  {
    file: "api.patient.findOne.tsx",
    kind: "api",
    purpose: "record",
    call: apiGet(findOne, "patient/findOne", (pid) => ({ pid: String(pid) })),
  },
  {
    file: "api.patient-data.pdf.tsx",
    kind: "api",
    purpose: "pumpReport",
    call: apiPost(pumpApi, "patient-data/pdf"),
  },
  {
    file: "api.patient-data.sugarDevicePdf.tsx",
    kind: "api",
    purpose: "cgmReport",
    call: apiPost(cgmApi, "patient-data/sugarDevicePdf"),
  },
  {
    file: "api.cgms.cgm-record.agp.tsx",
    kind: "api",
    purpose: "agpReport",
    call: apiPost(agpApi, "cgms/cgm-record/agp"),
  },
  {
    file: "api.fhir.cgm-summary.tsx",
    kind: "fhirApi",
    purpose: "cgmSummary",
    call: apiGet(cgmSummaryApi, "fhir/cgm-summary", (pid, d) => ({ pid: String(pid), ...d })),
  },
  {
    // Without the embedded PDF (pdf=0), which needs Chromium.
    file: "$id.cgm-summary[.]json.tsx",
    kind: "fhirFile",
    purpose: "cgmSummary",
    call: (who, pid, _userId, dates = { start: FROM, end: TO }) =>
      statusOf(() =>
        cgmSummaryFile({
          request: new Request(
            `http://localhost/${pid}/cgm-summary.json?${new URLSearchParams({ ...dates, pdf: "0" })}`,
            { headers: who.cookie ? { Cookie: who.cookie } : {} },
          ),
          params: { id: String(pid) },
          context: {},
        }),
      ),
  },
  {
    file: "$userId.caringdetail.tsx",
    kind: "page",
    purpose: "caringDetail",
    call: page(
      caringDetailPage,
      (_p, u) => `/${u}/caringdetail`,
      (_p, u) => ({ userId: String(u) }),
    ),
  },
  { file: "$id.print[.]pdf.tsx", kind: "pdf", purpose: "pumpReport", call: pdf(pumpPdf, "print") },
  {
    file: "$id.cgmsprint[.]pdf.tsx",
    kind: "pdf",
    purpose: "cgmReport",
    call: pdf(cgmPdf, "cgmsprint"),
  },
  {
    file: "$id.agpprint[.]pdf.tsx",
    kind: "pdf",
    purpose: "agpReport",
    call: pdf(agpPdf, "agpprint"),
  },
  {
    file: "$id.statisticsprint[.]pdf.tsx",
    kind: "pdf",
    purpose: "statisticsReport",
    call: pdf(statisticsPdf, "statisticsprint"),
  },
  {
    file: "$id.bloodtestsprint[.]pdf.tsx",
    kind: "pdf",
    purpose: "bloodTestsReport",
    call: pdf(bloodTestsPdf, "bloodtestsprint"),
  },
];
