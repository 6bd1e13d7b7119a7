import type { LoaderFunctionArgs } from "@remix-run/node";
import { languageAndUnits } from "~/models/setting.server";
import { apiOk, requireApiUserId } from "~/services/api.server";

/** GET /api/setting/findOne: the caller's language and units, { lang, unit, weightUnit, heightUnit }. */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request);
  return apiOk(request, await languageAndUnits(userId));
}
