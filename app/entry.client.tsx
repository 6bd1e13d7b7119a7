import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n";

declare global {
  interface Window {
    __i18n?: { lng?: string; resources?: Record<string, Record<string, unknown>> };
  }
}

// The page's language and its translations, set by the script that root.tsx puts before the
// app's: the browser hydrates with exactly the server's strings.
const embedded = window.__i18n ?? {};
const lng = embedded.lng ?? i18nConfig.fallbackLng;

void i18next
  .use(initReactI18next)
  .init({
    ...i18nConfig,
    lng,
    ns: Object.keys(embedded.resources ?? {}),
    resources: { [lng]: embedded.resources ?? {} },
  })
  .then(() => {
    startTransition(() => {
      hydrateRoot(
        document,
        <I18nextProvider i18n={i18next}>
          <StrictMode>
            <RemixBrowser />
          </StrictMode>
        </I18nextProvider>,
      );
    });
  });
