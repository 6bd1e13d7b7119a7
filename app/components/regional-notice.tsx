import { Form, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { supportedLngs } from "~/i18n";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/notice.css";

const DELAY_MS = 3000;

/**
 * The Polish-locale notice. Signed in: a dialog that cannot be closed (Escape does nothing), with
 * the link to the regional site, a choice of language and sign-out; the rest of the page is inert
 * behind it (root.tsx), so focus stays in the dialog with or without JavaScript. Signed out: a
 * notice that appears after 3 s with JavaScript, and at once without it (the `js` class on
 * <html> is set by an inline script in root.tsx).
 */
export function RegionalNotice({ url, signedIn }: { url: string; signedIn: boolean }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (signedIn) return;
    const timer = setTimeout(() => setShown(true), DELAY_MS);
    return () => clearTimeout(timer);
  }, [signedIn]);

  if (signedIn) {
    return (
      // Not part of a printout: a report printed or rendered to PDF for a Polish reader shows the report.
      <div className={s.overlay} data-print-hide>
        <div
          role="alertdialog"
          aria-modal="true"
          aria-labelledby="regional-title"
          aria-describedby="regional-body"
          className={s.dialog}
        >
          <h2 id="regional-title">{t("regional.title")}</h2>
          <p id="regional-body">{t("regional.moved")}</p>
          {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
          <a href={url} className={s.button} autoFocus>
            {t("regional.go")}
          </a>
          <Form
            method="post"
            action="/set-language"
            reloadDocument
            className={s.choices}
            aria-label={t("nav.language")}
          >
            <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
            {supportedLngs.map((lng) => (
              <button
                key={lng}
                type="submit"
                name="lng"
                value={lng}
                lang={lng}
                className={layout.buttonSecondary}
                aria-current={lng === "pl"}
              >
                {t(`languages.${lng}`)}
              </button>
            ))}
          </Form>
          <Form method="post" action="/logout" reloadDocument>
            <button type="submit" className={layout.buttonSecondary}>
              {t("nav.logout")}
            </button>
          </Form>
        </div>
      </div>
    );
  }
  return (
    <aside
      className={`${s.banner} ${shown ? s.shown : s.delayed}`}
      data-print-hide
      aria-live="polite"
      aria-labelledby="regional-banner-title"
    >
      <strong id="regional-banner-title">{t("regional.title")}</strong>{" "}
      <span>{t("regional.beforeLogin")}</span> <a href={url}>{t("regional.go")}</a>
    </aside>
  );
}
