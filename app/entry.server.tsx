import { Writable } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance, type i18n as I18n } from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig, type Locale } from "./i18n";
import { getLocale, namespaces, translations } from "./utils/i18n.server";

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
) {
  const lng = await getLocale(request);
  const i18n = await i18nFor(lng);

  // The pages defer nothing, so streaming gains nothing: the whole document is rendered, then sent
  // as one body (far fewer writes through the stream layers and compression than React's chunks).
  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
      </I18nextProvider>,
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
              responseHeaders.set("X-Content-Type-Options", "nosniff");
              responseHeaders.set("Referrer-Policy", "same-origin");
              responseHeaders.set("X-Frame-Options", "DENY");
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
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
          if (rendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}
