import { expect } from "vitest";
import { PdfRenderError } from "~/utils/pdf.server";

/** The PdfRenderError a render was refused with; fails the test when it resolved or threw anything else. */
export async function rejection(promise: Promise<unknown>): Promise<PdfRenderError> {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PdfRenderError);
  return error as PdfRenderError;
}
