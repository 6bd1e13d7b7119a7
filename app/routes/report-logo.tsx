import type { LoaderFunctionArgs } from "@remix-run/node";
import { reportLogo } from "~/models/setting.server";
import { isRasterImageType } from "~/utils/image-type";
import { requireUser } from "~/services/session.server";

/** `/report-logo`: the signed-in user's report logo (Setting.reportLogo) for the print reports' header. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const logo = await reportLogo(user.id);
  if (!logo || !isRasterImageType(logo.type)) return new Response("Not Found", { status: 404 });
  return new Response(logo.bytes, {
    headers: {
      "Content-Type": logo.type,
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
