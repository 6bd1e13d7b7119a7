import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk } from "~/services/api.server";
import { createOriginToken } from "~/utils/origin-token.server";

/** GET /api/active/randomString: the activation form's origin prefix and its signed token. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { prefix, token } = createOriginToken();
  return apiOk(request, { randomString: prefix, origin: token });
}
