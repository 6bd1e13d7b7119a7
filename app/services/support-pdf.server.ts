import type { LoaderFunctionArgs } from "@remix-run/node";
import type { Locale } from "~/i18n";
import { getLocale } from "~/services/locale.server";
import { localeCookie } from "~/utils/i18n.server";
import { parseCookieHeader, PdfRenderError, renderPdf } from "~/utils/pdf.server";
import { appVersion } from "~/utils/version.server";
import { pdfFailureResponse, renderOrigin } from "./report-pdf.server";

/** The support documents offered as PDFs: the page each is printed from and its file name. */
const DOCUMENTS = {
  guide: { page: "/supports/guide", file: "diacare-user-guide" },
  terms: { page: "/supports/terms", file: "diacare-terms" },
} as const;

export type SupportDocument = keyof typeof DOCUMENTS;

/**
 * Rendered PDFs by document and language. A document depends only on them and on the version,
 * which cannot change while the server runs: each is printed once, and concurrent requests share
 * the render. A failed render is forgotten, so the next request tries again.
 */
const rendered = new Map<string, Promise<Uint8Array>>();

/** The `lng` cookie that makes a visitor's page come out in `locale`. */
async function languageCookie(locale: Locale) {
  return parseCookieHeader((await localeCookie.serialize(locale)).split(";")[0]!);
}

async function documentPdf(request: Request, document: SupportDocument, locale: Locale) {
  const key = `${document}:${locale}`;
  let pdf = rendered.get(key);
  if (!pdf) {
    // Rendered as a visitor with the language cookie: the page is public and the same for all.
    pdf = languageCookie(locale).then((cookies) =>
      renderPdf({ url: `${renderOrigin(request)}${DOCUMENTS[document].page}?print=1`, cookies }),
    );
    rendered.set(key, pdf);
    pdf.catch(() => rendered.delete(key));
  }
  return pdf;
}

/**
 * `/supports/{guide,terms}.pdf`: the document's page in the requester's language, printed by the
 * server's Chromium, as an attachment named after the document, version and language.
 */
export async function supportPdfResponse(
  { request }: LoaderFunctionArgs,
  document: SupportDocument,
): Promise<Response> {
  const locale = await getLocale(request);
  try {
    const pdf = await documentPdf(request, document, locale);
    const fileName = `${DOCUMENTS[document].file}-${appVersion()}-${locale}.pdf`;
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Content-Length": String(pdf.byteLength),
        "Cache-Control": "private, no-cache",
        Vary: "Cookie, Accept-Language",
      },
    });
  } catch (error) {
    if (!(error instanceof PdfRenderError)) throw error;
    return pdfFailureResponse(request, `${DOCUMENTS[document].page}.pdf`, error);
  }
}
