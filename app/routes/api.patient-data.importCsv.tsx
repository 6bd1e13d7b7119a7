import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { importCsvApiSchema } from "~/schemas/csv-import";
import { importCsv } from "~/services/csv-import.server";
import { ingestAnswer } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody, requireApiUserId } from "~/utils/api.server";

/**
 * POST /api/patient-data/importCsv (multipart: pid, file, format, timeZone, dateOrder, dryRun):
 * reads a glucose file and imports it for the patient, or with dryRun=1 only previews it.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = importCsvApiSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "import");
  const { file, ...fields } = parsed.data;
  return ingestAnswer(request, await importCsv(viewer, { ...fields, bytes: new Uint8Array(await file.arrayBuffer()) }), fields.dryRun ? "import:previewed" : "import:imported");
}

export const loader = postOnly();
