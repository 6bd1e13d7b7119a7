import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { BgRangeChoice } from "~/services/patient-view.server";
import type { BgRangeModel } from "~/report/bg-range";
import { QUICK_DAYS } from "~/report/quick-ranges";
import { QuickRangeButtons } from "../quick-ranges";
import { displayDate } from "~/report/day";
import { formatDate } from "~/report/locale-format";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { formatGlucose, formatNumber, formatQuantity } from "~/report/units";
import * as layout from "~/styles/layout.css";
import type { ViewCharts } from "~/services/view-charts.server";
import * as s from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";
import { Chart, Notice, Stat } from "./parts";
import { rangeLimits, viewRangeProblem } from "~/report/date-picker";
import { RANGE_RULES } from "~/report/report-range";
import { DateRangeFields } from "../date-fields";

type Props = { range: BgRangeChoice; model: BgRangeModel; chart: ViewCharts; unit: GlucoseUnit };

/**
 * BG: meter readings of a range of days with meal-time tags and their summary (mean, count, above
 * and below the target range).
 */
export function BgView({ range, model, chart, unit }: Props) {
  const { t, i18n } = useTranslation("views");
  const locale = i18n.language;
  const unitText = t(`common:units.${unit}`);
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, unit, locale)} ${unitText}`;
  const percent = (value: number | null) => formatNumber(value, 1, locale);
  const { summary } = model;
  // The range as the reader writes dates; the date fields keep YYYY/MM/DD.
  const from = formatDate(range.from, locale);
  const to = formatDate(range.to, locale);
  return (
    <section className={s.section} aria-labelledby="bg-heading">
      <h2 id="bg-heading">{t("bg.heading")}</h2>
      {range.problem ? (
        <Notice kind="problem">
          {t(`problems.${range.problem}`)} {t("problems.rangeInstead", { from, to })}
        </Notice>
      ) : null}
      <Form method="get" className={s.toolbar} aria-label={t("range.label")}>
        <input type="hidden" name="tab" value="bg" />
        <DateRangeFields
          names={{ start: "from", end: "to" }}
          textLabels={{ start: t("range.from"), end: t("range.to") }}
          label={t("range.label")}
          values={{
            start: range.problem ? range.typed.from : displayDate(range.from),
            end: range.problem ? range.typed.to : displayDate(range.to),
          }}
          invalid={range.problem !== null}
          today={range.today}
          limits={rangeLimits(RANGE_RULES.long)}
          problemOf={(a, b) => viewRangeProblem(a, b, range.today)}
        />
        <button type="submit" className={layout.button}>
          {t("range.show")}
        </button>
        <QuickRangeButtons days={QUICK_DAYS.bgView} />
      </Form>
      <p className={s.note}>{t("range.showing", { from, to })}</p>
      {!model.hasData ? (
        <Notice kind="empty">
          {range.lastDay === null ? t("empty.none") : t("empty.range", { from, to })}
        </Notice>
      ) : (
        <>
          <Chart
            chart={chart}
            caption={t("bg.chartCaption", {
              count: summary.count,
              from,
              to,
              average: glucose(summary.mean),
            })}
          />
          <h3>{t("bg.summary")}</h3>
          <dl className={s.stats} data-testid="bg-summary">
            <Stat label={t("bg.average")}>{glucose(summary.mean)}</Stat>
            <Stat label={t("bg.count")}>{formatQuantity(summary.count, locale)}</Stat>
            <Stat label={t("bg.high", { limit: glucose(model.limits.high) })}>
              {t("bg.countPercent", { count: summary.high, percent: percent(summary.highPercent) })}
            </Stat>
            <Stat label={t("bg.low", { limit: glucose(model.limits.low) })}>
              {t("bg.countPercent", { count: summary.low, percent: percent(summary.lowPercent) })}
            </Stat>
          </dl>
          <table className={`${s.table} ${st.stackTable}`}>
            <caption>{t("bg.byTag")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("bg.tag")}</th>
                <th scope="col">{t("bg.count")}</th>
                <th scope="col">{t("bg.average")}</th>
              </tr>
            </thead>
            <tbody>
              {model.byTag
                .filter((tag) => tag.count > 0)
                .map((tag) => (
                  <tr key={tag.key}>
                    <th scope="row" data-label={t("bg.tag")}>
                      {t(`bg.tags.${tag.key}`)}
                    </th>
                    <td data-label={t("bg.count")}>{tag.count}</td>
                    <td data-label={t("bg.average")}>{glucose(tag.mean)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          <table className={`${s.table} ${st.stackTable}`} data-testid="bg-table">
            <caption>{t("bg.tableCaption", { from, to })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("bg.date")}</th>
                <th scope="col">{t("bg.time")}</th>
                <th scope="col">{t("bg.glucose")}</th>
                <th scope="col">{t("bg.tag")}</th>
                <th scope="col">{t("bg.source")}</th>
              </tr>
            </thead>
            <tbody>
              {model.days.flatMap((day) =>
                day.readings.map((r, i) => (
                  <tr key={`${day.date}-${i}`}>
                    <td data-label={t("bg.date")}>{formatDate(day.date, locale)}</td>
                    <td data-label={t("bg.time")}>{r.clock}</td>
                    <td data-label={t("bg.glucose")} className={s.glucoseClass[r.class]}>
                      {glucose(r.mgdl)}
                    </td>
                    <td data-label={t("bg.tag")}>{t(`bg.tags.${r.tag.key}`)}</td>
                    <td data-label={t("bg.source")}>
                      {r.source ? t(`bg.sources.${r.source}`) : ""}
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
