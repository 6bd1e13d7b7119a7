import { useTranslation } from "react-i18next";

export const I18N_SCRIPT_ID = "__i18n";

/** JSON for a <script> element: `<` is escaped so that no string can close the element. */
function scriptSafeJson(value: unknown) {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Embeds the active language's translations for the browser's i18next (entry.client.tsx). */
export function I18nScript({ nonce }: { nonce?: string }) {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  return (
    <script
      id={I18N_SCRIPT_ID}
      nonce={nonce}
      type="application/json"
      dangerouslySetInnerHTML={{
        __html: scriptSafeJson({ lng, resources: i18n.getDataByLanguage(lng) ?? {} }),
      }}
    />
  );
}
