import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n";
import { I18N_SCRIPT_ID } from "./components/i18n-script";

// The server embeds the page's language and its translations in the document (root.tsx), so
// the browser needs no extra request and hydrates with exactly the server's strings.
const embedded = JSON.parse(document.getElementById(I18N_SCRIPT_ID)?.textContent ?? "{}") as {
  lng?: string;
  resources?: Record<string, Record<string, unknown>>;
};
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
