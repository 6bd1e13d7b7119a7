import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUserId, userInfo } from "~/services/api.server";
import { findAccountWithSetting } from "~/models/account.server";

/** GET /api/user/getUserInfo: the caller's own info (never anyone else's: the id comes from the token). */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request);
  return apiOk(request, userInfo(await findAccountWithSetting(userId)));
}
