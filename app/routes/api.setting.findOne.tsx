import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUserId } from "~/services/api.server";
import { settingsForApi } from "~/services/settings-api.server";

/** GET /api/setting/findOne: the caller's language, units and print settings. */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request);
  return apiOk(request, await settingsForApi(userId));
}
