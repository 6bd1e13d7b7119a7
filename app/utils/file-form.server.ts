import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";

/**
 * A posted page form that may carry one file. The file is read into memory only up to
 * `maxFileBytes`: a larger one is "tooLarge", told by the Content-Length (with `overheadBytes` of
 * room for the boundaries and the other fields) or while it is read. A body that is not a form
 * throws a 400.
 */
export async function readFileForm(
  request: Request,
  { maxFileBytes, overheadBytes }: { maxFileBytes: number; overheadBytes: number },
): Promise<FormData | "tooLarge"> {
  const multipart = request.headers.get("Content-Type")?.startsWith("multipart/form-data");
  if (multipart && Number(request.headers.get("Content-Length")) > maxFileBytes + overheadBytes)
    return "tooLarge";
  try {
    if (!multipart) return await request.formData();
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: maxFileBytes }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return "tooLarge";
    throw new Response("Bad Request", { status: 400 });
  }
}
