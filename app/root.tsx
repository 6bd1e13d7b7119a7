import { cssBundleHref } from "@remix-run/css-bundle";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Header } from "./components/header";
import { useNonce } from "./components/nonce";
import { RegionalNotice } from "./components/regional-notice";
import { LostRequestNotice } from "./components/lost-request-notice";
import { SessionNotice } from "./components/session-notice";
import { GlucoseUnit } from "./domain/glucose-unit";
import "./styles/global.css";
import * as s from "./styles/layout.css";
import { getLocale } from "./services/locale.server";
import { getFixedT, translationScriptHref } from "./utils/i18n.server";
import { skipRevalidationWhenLost } from "./utils/lost-request";
import { displayName } from "./utils/names";
import { profilePhotoSrc } from "./utils/profile-photo";
import { getSessionUser, homePath, takeSessionNotice } from "./services/session.server";
import { env } from "./utils/env.server";
import { appVersion } from "./utils/version.server";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [locale, user, notice] = await Promise.all([
    getLocale(request),
    getSessionUser(request),
    takeSessionNotice(request),
  ]);
  return {
    locale,
    /** The document title of every page without its own (a report page names patient, report and range). */
    appTitle: (await getFixedT(locale))("app.title"),
    version: appVersion(),
    translationsHref: translationScriptHref(locale),
    /** Shown on error pages so that a reported problem can be found in the log. */
    requestId: context.requestId ?? null,
    // The server's PDF renderer asks for `print=1` with JavaScript off: such a document needs no
    // scripts, and leaving out the hydration data (which repeats every chart) halves its size.
    // An error page shown in place of a file route's answer (server/error-page.ts) needs none either:
    // the browser's address is the file's, and the app's routes would not match it.
    printDocument:
      new URL(request.url).searchParams.get("print") === "1" || context.scriptless === true,
    regionalSiteUrl: locale === "pl" ? env().REGIONAL_SITE_URL_PL : null,
    /** A one-time message of the session (after sign-in), shown on this page only. */
    notice: user ? notice : null,
    user: user
      ? {
          name: displayName(user),
          email: user.email,
          identity: user.identity,
          role: user.role,
          isPass: user.isPass,
          homePath: homePath(user),
          unit: user.setting?.unit ?? GlucoseUnit.Mmol,
          photoSrc: user.photo ? profilePhotoSrc(user.photo.updatedAt.getTime()) : null,
        }
      : null,
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export const shouldRevalidate = skipRevalidationWhenLost;

/**
 * The app's title: one <title> per document, so that a route's own title (a report's, which the
 * PDF renderer writes into the PDF) is the document's; routes without a meta export inherit this.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.appTitle }] : [];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const { t, i18n } = useTranslation();
  const locale = data?.locale ?? i18n.language;
  const blocked = Boolean(data?.regionalSiteUrl && data.user);
  const nonce = useNonce();

  // The browser holds one language's strings; a change of language (e.g. the saved setting
  // after sign-in) reloads the document so that every string comes from the server's choice.
  useEffect(() => {
    if (data?.locale && data.locale !== i18n.language) window.location.reload();
  }, [data?.locale, i18n.language]);

  return (
    <html lang={locale} dir={i18n.dir(locale)} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Marks that JavaScript runs, before first paint (used by the delayed regional notice). */}
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: "document.documentElement.classList.add('js')" }}
        />
        {/* Without the root's data (its loader failed) no route meta gives a title. */}
        {data ? null : <title>{t("app.title")}</title>}
        <Meta />
        <Links />
      </head>
      <body>
        {/* Behind the signed-in regional dialog the page is inert: no focus, no clicks. */}
        <div className={s.page} {...(blocked ? { inert: "" } : {})}>
          <a href="#main" className={s.skipLink}>
            {t("app.skipToContent")}
          </a>
          <Header user={data?.user ?? null} locale={locale} />
          {data?.regionalSiteUrl && !blocked ? (
            <RegionalNotice url={data.regionalSiteUrl} signedIn={false} />
          ) : null}
          <main id="main" className={s.main} tabIndex={-1}>
            {data?.notice ? <SessionNotice notice={data.notice} /> : null}
            <LostRequestNotice />
            {children}
          </main>
          <footer className={s.footer} data-print-hide>
            <nav aria-label={t("nav.site")}>
              <ul className={s.footerNav}>
                <li>
                  <Link to="/home">{t("nav.start")}</Link>
                </li>
                <li>
                  <Link to="/about">{t("nav.about")}</Link>
                </li>
                <li>
                  <Link to="/supports">{t("nav.support")}</Link>
                </li>
                <li>
                  <Link to="/supports/terms">{t("nav.terms")}</Link>
                </li>
              </ul>
            </nav>
            <p>
              {t("app.copyright", { year: new Date().getFullYear() })}{" "}
              {data ? t("app.version", { version: data.version }) : null}
            </p>
          </footer>
        </div>
        {data?.regionalSiteUrl && blocked ? (
          <RegionalNotice url={data.regionalSiteUrl} signedIn />
        ) : null}
        {data?.printDocument ? null : (
          <>
            {/* Before the app's module scripts, which run after it: entry.client.tsx reads it. */}
            <script src={data?.translationsHref ?? `/i18n/${locale}.js`} nonce={nonce} />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export { ErrorBoundary } from "./components/route-error-boundary";
