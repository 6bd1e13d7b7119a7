import type { ActionFunctionArgs } from "@remix-run/node";
import { importCsvApiSchema } from "~/schemas/csv-import";
import { importCsv } from "~/services/csv-import.server";
import { ingestAnswer } from "~/services/upload-api.server";
import {
  apiInvalid,
  apiMessage,
  postOnly,
  readBody,
  requireApiViewer,
} from "~/services/api.server";

/**
 * POST /api/patient-data/importCsv (multipart: pid, file, format, timeZone, dateOrder, dryRun):
 * reads a glucose file and imports it for the patient, or with dryRun=1 only previews it.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireApiViewer(request);
  const parsed = importCsvApiSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "import");
  const { file, ...fields } = parsed.data;
  const result = await importCsv(viewer, {
    ...fields,
    bytes: new Uint8Array(await file.arrayBuffer()),
  });
  // Each bad line also carries its message in the caller's language.
  const answer = result.ok
    ? {
        ok: true as const,
        data: {
          ...result.data,
          errors: await Promise.all(
            result.data.errors.map(async (e) => ({
              ...e,
              message: await apiMessage(request, `csv:${e.key}`, { ...e.values, line: e.line }),
            })),
          ),
        },
      }
    : result;
  return ingestAnswer(request, answer, fields.dryRun ? "import:previewed" : "import:imported");
}

export const loader = postOnly();
