import type { LoaderFunctionArgs } from "@remix-run/node";
import { supportPdfResponse } from "~/services/support-pdf.server";

/** `/supports/guide.pdf`: the user guide page printed by the server's Chromium, in the visitor's language. */
export function loader(args: LoaderFunctionArgs) {
  return supportPdfResponse(args, "guide");
}
