import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { nsCallOf } from "~/schemas/nightscout";
import { nightscoutCall } from "~/services/nightscout.server";

/**
 * The Nightscout API on a patient's link: `/ns/<link id>/api/v1/<call>` (entries, treatments,
 * profile, status, devicestatus, verifyauth, with or without `.json`). JSON in Nightscout's
 * shapes, without the app's envelope; the service authenticates the link, logs the call through
 * the access gateway and answers (docs/nightscout-api.md).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return nightscoutCall(request, params.linkId ?? "", nsCallOf(params["*"] ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return nightscoutCall(request, params.linkId ?? "", nsCallOf(params["*"] ?? ""));
}
