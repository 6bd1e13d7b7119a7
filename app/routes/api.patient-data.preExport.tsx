import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportApiAnswer } from "~/services/excel-export.server";

/**
 * GET /api/patient-data/preExport (the query of exportReport): what the export would hold, the
 * records of each kind per patient, without writing the file (docs/api.md "Excel export").
 */
export const loader = ({ request }: LoaderFunctionArgs) => exportApiAnswer(request, "preview");
