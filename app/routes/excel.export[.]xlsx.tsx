import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { exportAskOf } from "~/schemas/excel-export";
import {
  exportWorkbook,
  isStaff,
  planExport,
  xlsxAttachment,
} from "~/services/excel-export.server";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { errorPageAnswer } from "~/utils/error-page";
import { getFixedT } from "~/utils/i18n.server";

/**
 * `/excel/export.xlsx?...` (the fields of the `/excel/export` form): the staff Excel export as a
 * workbook download, streamed as it is made. Anyone but an admin or editor gets the app's 403
 * page. A query the export refuses (no patient, a patient who does not share with the reader,
 * dates outside the rule) goes back to the form, which says why and keeps what was chosen.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!isStaff(user)) return errorPageAnswer(403);
  const search = new URL(request.url).searchParams;
  const back = redirect(`/excel/export?${search.toString()}`);
  const parsed = exportAskOf(search);
  if (!parsed.success) return back;
  const planned = await planExport(user, parsed.data, toGlucoseUnit(user.setting?.unit));
  if (!planned.ok) return back;
  const t = await getFixedT(await getLocale(request), "excel");
  const file = await exportWorkbook(user, planned.plan, "page", t);
  return file.ok ? xlsxAttachment(file) : errorPageAnswer(404);
}
