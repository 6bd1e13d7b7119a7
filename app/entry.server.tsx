import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance, type i18n as I18n } from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { NonceProvider } from "./components/nonce";
import { fallbackLng, i18nConfig, type Locale } from "./i18n";
import { errorForLog, logger } from "./utils/logger.server";
import { getLocale } from "./services/locale.server";
import { namespaces, translations } from "./utils/i18n.server";

const ABORT_DELAY = 10_000;

export const streamTimeout = ABORT_DELAY;

const instances = new Map<Locale, Promise<I18n>>();

/**
 * The server's i18next instance of a language, made once: rendering only reads it (the language
 * of an instance never changes), so requests in the same language share it.
 */
function i18nFor(lng: Locale): Promise<I18n> {
  let instance = instances.get(lng);
  if (!instance) {
    const i18n = createInstance();
    instance = i18n
      .use(initReactI18next)
      .init({ ...i18nConfig, lng, ns: namespaces(), resources: { [lng]: translations()[lng]! } })
      .then(() => i18n);
    instances.set(lng, instance);
  }
  return instance;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The error page of a failure (the database gone, say) still renders, in the default language.
  const lng = await getLocale(request).catch(() => fallbackLng);
  const i18n = await i18nFor(lng);

  // The pages defer nothing, so streaming gains nothing: the whole document is rendered, then sent
  // as one body (far fewer writes through the stream layers and compression than React's chunks).
  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={loadContext.cspNonce ?? ""}>
        <I18nextProvider i18n={i18n}>
          <RemixServer
            context={remixContext}
            url={request.url}
            abortDelay={ABORT_DELAY}
            nonce={loadContext.cspNonce}
          />
        </I18nextProvider>
      </NonceProvider>,
      {
        onAllReady() {
          rendered = true;
          const chunks: Buffer[] = [];
          const document = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              responseHeaders.set("Content-Language", lng);
              resolve(
                new Response(Buffer.concat(chunks), {
                  headers: responseHeaders,
                  status: responseStatusCode,
                }),
              );
              done();
            },
          });
          pipe(document);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (rendered)
            (loadContext.log ?? logger()).error({ err: errorForLog(error) }, "render failed");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}

/** Failures Remix catches itself (rendering, a route it cannot match): logged with the request id. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  (context.log ?? logger()).error({ err: errorForLog(error) }, "request failed");
};
