import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DayNavigation } from "~/services/patient-view.server";
import { displayDate } from "~/report/day";
import { formatDate, formatWeekday } from "~/report/locale-format";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/patient-view.css";
import { viewHref } from "./links";
import { Notice } from "./parts";
import { DAY_LIMITS, dayProblem } from "~/report/date-picker";
import { DateField } from "../date-fields";

/**
 * Previous day, next day (none into the future), last day with data and a date field (YYYY/MM/DD
 * text without JavaScript, a date picker with it). Links and a GET form, so it works without
 * JavaScript.
 */
export function DateNavigator({
  base,
  tab,
  view,
  nav,
}: {
  base: string;
  tab: string;
  view?: string;
  nav: DayNavigation;
}) {
  const { t, i18n } = useTranslation("views");
  const href = (date: string) => viewHref(base, { tab, view, date });
  return (
    <>
      {nav.problem ? (
        <Notice kind="problem">
          {t(`problems.${nav.problem}`)}{" "}
          {t("problems.shownInstead", { date: formatDate(nav.date, i18n.language) })}
        </Notice>
      ) : null}
      <nav className={s.toolbar} aria-label={t("nav.label")}>
        <Link className={layout.buttonSecondary} to={href(nav.previous)} rel="prev">
          ← {t("nav.previous")}
        </Link>
        <Form method="get" className={s.toolbarForm}>
          <input type="hidden" name="tab" value={tab} />
          {view ? <input type="hidden" name="view" value={view} /> : null}
          <DateField
            name="date"
            textLabel={t("nav.date")}
            label={t("common:dateFields.date")}
            value={nav.problem ? nav.typed : displayDate(nav.date)}
            invalid={nav.problem !== null}
            today={nav.today}
            limits={DAY_LIMITS}
            problemOf={(date) => dayProblem(date, nav.today)}
          />
          <button type="submit" className={layout.button}>
            {t("nav.show")}
          </button>
        </Form>
        {nav.next ? (
          <Link className={layout.buttonSecondary} to={href(nav.next)} rel="next">
            {t("nav.next")} →
          </Link>
        ) : (
          <span
            className={`${layout.buttonSecondary} ${s.disabledLink}`}
            aria-disabled="true"
            title={t("nav.noNext")}
          >
            {t("nav.next")} →
          </span>
        )}
        {nav.lastDay && nav.lastDay !== nav.date ? (
          <Link className={layout.buttonSecondary} to={href(nav.lastDay)}>
            {t("nav.last")} ⇥
          </Link>
        ) : null}
      </nav>
      <p className={s.note}>
        {t("nav.showing", {
          date: formatDate(nav.date, i18n.language),
          weekday: formatWeekday(nav.date, i18n.language),
        })}
      </p>
    </>
  );
}

/** The empty state of a day without data: says so and offers the nearest day with data. */
export function EmptyDay({
  base,
  tab,
  view,
  nav,
}: {
  base: string;
  tab: string;
  view?: string;
  nav: DayNavigation;
}) {
  const { t, i18n } = useTranslation("views");
  const date = (iso: string) => formatDate(iso, i18n.language);
  return (
    <Notice kind="empty">
      <p>{nav.lastDay === null ? t("empty.none") : t("empty.day", { date: date(nav.date) })}</p>
      {nav.nearest ? (
        <p>
          <Link to={viewHref(base, { tab, view, date: nav.nearest })}>
            {t("empty.nearest", { date: date(nav.nearest) })}
          </Link>
        </p>
      ) : null}
    </Notice>
  );
}
