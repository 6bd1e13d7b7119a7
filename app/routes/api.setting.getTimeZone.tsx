import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUserId } from "~/services/api.server";
import { pumpTimeZones } from "~/ingest/upload-time-zones";
import { timeZoneList } from "~/utils/time-zones";

/** GET /api/setting/getTimeZone: the upload wizard's zones with their offsets now, and the pump handheld's 26 zones. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUserId(request);
  return apiOk(request, { zones: timeZoneList(), pumpZones: pumpTimeZones() });
}
