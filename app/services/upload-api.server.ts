import type { Viewer } from "~/models/access.server";
import { apiMessage, apiOk, apiResponse, requireApiViewer } from "~/services/api.server";
import type { IngestResult } from "./ingest.server";

/** The caller of an upload call, from its `token` header. */
export async function uploadCaller(request: Request): Promise<Viewer> {
  return requireApiViewer(request);
}

/**
 * The envelope of an ingestion answer: `data` on success; on a refusal its code, the translated
 * message (a key of the `upload` namespace, or a key that names its namespace), and the values it names (the record's position, the limit)
 * in `data`, so that a client can show or act on them.
 */
export async function ingestAnswer<T>(
  request: Request,
  result: IngestResult<T>,
  okKey = "upload:ok",
): Promise<Response> {
  if (result.ok) return apiOk(request, result.data, okKey);
  const key = result.key.includes(":") ? result.key : `upload:${result.key}`;
  return apiResponse(
    result.code,
    await apiMessage(request, key, result.values),
    result.values ?? null,
  );
}
