import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportApiAnswer } from "~/services/excel-export.server";

/**
 * GET /api/patient-data/exportReport?pids=1,2&start&end&unit (or `all=1`, or `days=N`): the staff
 * Excel export as an .xlsx file, streamed (docs/api.md "Excel export"). Refusals answer the envelope.
 */
export const loader = ({ request }: LoaderFunctionArgs) => exportApiAnswer(request, "file");
