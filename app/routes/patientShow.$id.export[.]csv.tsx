import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idParam } from "~/schemas/fields";
import { QUICK_DAYS, QUICK_RANGE_PARAM, quickDaysOf } from "~/report/quick-ranges";
import { exportCsvQuery } from "~/schemas/csv-import";
import { csvAttachment, exportCsv } from "~/services/csv-export.server";
import { errorPageAnswer } from "~/utils/error-page";
import { requireUser } from "~/services/session.server";

const params = z.object({ id: idParam });

/**
 * `/patientShow/{pid}/export.csv?start&end` (or `?days=N`, a quick range: the last N days ending
 * today in the patient's zone): the patient's records of those local days as a CSV file of our
 * own format, for the patient and the readers the patient shares with (anyone else gets the app's
 * 404 page, as on the import page). A refused range goes back to the import page, which says why and keeps the dates.
 */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) return errorPageAnswer(404);
  const url = new URL(request.url);
  const query = exportCsvQuery.safeParse({
    pid: String(parsed.data.id),
    start: url.searchParams.get("start") ?? undefined,
    end: url.searchParams.get("end") ?? undefined,
  });
  const back = (key: string) =>
    redirect(
      `/patientShow/${parsed.data.id}/import?${new URLSearchParams({ start: url.searchParams.get("start") ?? "", end: url.searchParams.get("end") ?? "", exportError: key })}#export-heading`,
    );
  if (!query.success) return back("reports:common.invalidDate");
  const days = quickDaysOf(url.searchParams.get(QUICK_RANGE_PARAM), QUICK_DAYS.export);
  const file = await exportCsv(
    viewer,
    days === null
      ? { ...query.data, channel: "page" }
      : { pid: query.data.pid, days, channel: "page" },
  );
  if (file.ok) return csvAttachment(file);
  if (file.refused === "range") return back(file.msgKey);
  return errorPageAnswer(404);
}
