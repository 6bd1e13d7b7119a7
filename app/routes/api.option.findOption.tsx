import type { LoaderFunctionArgs } from "@remix-run/node";
import { listOptions } from "~/models/option.server";
import { apiOk, requireApiUserId } from "~/services/api.server";
import { getLocale } from "~/services/locale.server";
import { getFixedT } from "~/utils/i18n.server";

/** GET /api/option/findOption: the disease options with names in the caller's language. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUserId(request);
  const t = await getFixedT(await getLocale(request), "options");
  const options = await listOptions();
  return apiOk(
    request,
    options.map((o) => ({ id: o.id, type: o.type, code: o.code, name: t(`names.${o.code}`) })),
  );
}
