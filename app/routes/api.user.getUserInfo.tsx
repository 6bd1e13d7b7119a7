import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUserId, userInfo } from "~/utils/api.server";
import { db } from "~/utils/db.server";

/** GET /api/user/getUserInfo: the caller's own info (never anyone else's: the id comes from the token). */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request);
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    include: { patient: { select: { id: true } }, setting: true },
  });
  return apiOk(request, userInfo(user));
}
