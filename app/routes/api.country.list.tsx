import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk } from "~/services/api.server";
import { countryList } from "~/utils/countries";
import { getLocale } from "~/services/locale.server";

/** GET /api/country/list: countries with names in the caller's language. */
export async function loader({ request }: LoaderFunctionArgs) {
  return apiOk(request, countryList(await getLocale(request)));
}
