import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportCsvQuery } from "~/schemas/csv-import";
import { csvAttachment, exportCsv } from "~/services/csv-export.server";
import { apiFail, apiInvalid, API_CODES, requireApiViewer } from "~/services/api.server";

/**
 * GET /api/patient-data/exportCsv?pid&start&end: the patient's records of those local days (at
 * most a year; without dates the last 90 days) as a CSV file of our own format. Refusals answer
 * the `{ code, msg, data }` envelope.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiViewer(request);
  const parsed = exportCsvQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "import");
  const file = await exportCsv(viewer, { ...parsed.data, channel: "api" });
  if (file.ok) return csvAttachment(file);
  return file.refused === "range"
    ? apiFail(request, API_CODES.invalid, file.msgKey)
    : apiFail(request, API_CODES.notFound, "notFound");
}
