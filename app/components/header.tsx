import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { mayUseCaring } from "~/domain/caring";
import { AuditState, Identity } from "~/domain/codes";
import { supportedLngs } from "~/i18n";
import * as s from "~/styles/header.css";
import { ClockIcon } from "./icons";
import { LogoutMenuItem } from "./logout-dialog";
import { SignUpButton } from "./sign-up";

export type HeaderUser = {
  name: string;
  email: string;
  identity: number;
  role: string;
  isPass: number;
  homePath: string;
  unit: number;
  /** The address of the user's profile photo, or null without one. */
  photoSrc: string | null;
};

function Logo() {
  const { t } = useTranslation();
  return (
    <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <title>{t("app.name")}</title>
      <circle cx="14" cy="14" r="13" fill="#fff" />
      <path d="M14 5c-3 5-6 8.5-6 12a6 6 0 0 0 12 0c0-3.5-3-7-6-12z" fill="#d7261e" />
    </svg>
  );
}

/** The clinic's audit state next to its menu entry: a clock while in review, red when refused. */
function AuditBadge({ isPass }: { isPass: number }) {
  const { t } = useTranslation("auth");
  if (isPass === AuditState.Approved) return null;
  return (
    <span
      className={isPass === AuditState.Refused ? s.badgeDanger : s.badgePending}
      title={t(`audit.state${isPass}`)}
    >
      {isPass === AuditState.InReview ? <ClockIcon size={12} /> : <span aria-hidden="true">!</span>}
      <span className={s.visuallyHidden}>{t(`audit.state${isPass}`)}</span>
    </span>
  );
}

/** A dropdown built on <details>: opens with Enter/Space and works without JavaScript. */
function Dropdown({
  label,
  summary,
  picture,
  children,
}: {
  label: string;
  summary: string;
  picture?: string | null;
  children: React.ReactNode;
}) {
  return (
    <details className={s.menu}>
      <summary className={s.menuSummary} aria-label={label}>
        {picture ? (
          <img src={picture} alt="" className={s.avatar} data-testid="header-photo" />
        ) : null}
        {summary}
      </summary>
      <div className={s.menuPanel}>{children}</div>
    </details>
  );
}

/**
 * The header bar of every page: logo (to the welcome page), home link, caring (identity 2 only in Russian), settings,
 * support, languages, unit, and the user menu or sign-in and sign-up.
 */
export function Header({ user, locale }: { user: HeaderUser | null; locale: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const showCaring = user !== null && mayUseCaring(user.identity, locale);

  return (
    <header className={s.header} data-print-hide>
      <div className={s.bar}>
        <Link to="/home" className={s.logo}>
          <Logo />
          <span>{t("app.name")}</span>
        </Link>
        <nav className={s.nav} aria-label={t("nav.main")}>
          <ul className={s.navList}>
            {user ? (
              <li>
                <NavLink to={user.homePath} className={s.navLink}>
                  {user.identity === Identity.Person ? t("nav.home") : t("nav.patients")}
                </NavLink>
              </li>
            ) : null}
            {showCaring ? (
              <li>
                <NavLink to="/caring" className={s.navLink}>
                  {t("nav.caring")}
                </NavLink>
              </li>
            ) : null}
            {user ? (
              <li>
                <NavLink to="/newsetting" className={s.navLink}>
                  {t("nav.settings")}
                </NavLink>
              </li>
            ) : null}
            <li>
              <NavLink to="/supports" className={s.navLink} end>
                {t("nav.support")}
              </NavLink>
            </li>
            <li>
              <Link to="/supports#devices" className={s.navLink}>
                {t("nav.devices")}
              </Link>
            </li>
          </ul>
        </nav>
        <div className={s.tools}>
          <Dropdown
            label={t("nav.language")}
            summary={t("nav.currentLanguage", { language: t(`languages.${locale}`) })}
          >
            <Form method="post" action="/set-language" reloadDocument>
              <input type="hidden" name="redirectTo" value={here} />
              {supportedLngs.map((lng) => (
                <button
                  key={lng}
                  type="submit"
                  name="lng"
                  value={lng}
                  lang={lng}
                  className={s.menuItem}
                  aria-current={lng === locale}
                >
                  {t(`languages.${lng}`)}
                </button>
              ))}
            </Form>
          </Dropdown>
          {user ? (
            <>
              <Dropdown
                label={t("nav.unit")}
                summary={t("nav.currentUnit", { unit: t(`units.${user.unit}`) })}
              >
                <Form method="post" action="/set-unit">
                  <input type="hidden" name="redirectTo" value={here} />
                  {[0, 1].map((unit) => (
                    <button
                      key={unit}
                      type="submit"
                      name="unit"
                      value={unit}
                      className={s.menuItem}
                      aria-current={unit === user.unit}
                    >
                      {t(`units.${unit}`)}
                    </button>
                  ))}
                </Form>
              </Dropdown>
              <Dropdown
                label={t("nav.userMenu", { name: user.name })}
                summary={user.name}
                picture={user.photoSrc}
              >
                <Link
                  to={`/account?change=${encodeURIComponent(user.email)}`}
                  className={s.menuItem}
                >
                  {t("nav.account")}
                </Link>
                {user.identity === Identity.Clinic && user.role === "guest" ? (
                  <Link to="/organisation" className={s.menuItem}>
                    {t("nav.organisation")} <AuditBadge isPass={user.isPass} />
                  </Link>
                ) : null}
                {user.role === "admin" || user.role === "editor" ? (
                  <>
                    <Link to="/admin/audits" className={s.menuItem}>
                      {t("nav.audits")}
                    </Link>
                    <Link to="/admin/upload-errors" className={s.menuItem}>
                      {t("nav.uploadErrors")}
                    </Link>
                  </>
                ) : null}
                <LogoutMenuItem className={s.menuItem} />
              </Dropdown>
            </>
          ) : (
            <>
              <Link to="/login" className={s.authLink}>
                {t("nav.signIn")}
              </Link>
              <SignUpButton className={s.signUp} />
            </>
          )}
        </div>
      </div>
    </header>
  );
}
