import { RemixI18Next } from "remix-i18next/server";
import { fallbackLng, i18nConfig, isLocale, supportedLngs, type Locale } from "~/i18n";
import { localeCookie, translations } from "~/utils/i18n.server";
import { getSessionUser } from "./session.server";

/**
 * Language detection order : the signed-in user's setting, then the `lng` cookie, then
 * `Accept-Language`, then English.
 */
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLngs],
    fallbackLanguage: fallbackLng,
    cookie: localeCookie,
    order: ["custom", "cookie", "header"],
    findLocale: async (request) => (await getSessionUser(request))?.setting?.lang ?? null,
  },
  i18next: { ...i18nConfig, ns: undefined, resources: translations() },
});

export async function getLocale(request: Request): Promise<Locale> {
  const locale = await i18nServer.getLocale(request);
  return isLocale(locale) ? locale : fallbackLng;
}
