import type { LoaderFunctionArgs } from "@remix-run/node";
import { API_CODES, apiFail } from "~/services/api.server";

/** Unknown `/api/` paths answer the envelope with 404, never an HTML page. */
export async function loader({ request }: LoaderFunctionArgs) {
  return apiFail(request, API_CODES.notFound, "notFound");
}

export const action = loader;
