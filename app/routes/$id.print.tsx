import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportPage, ReportSection, reportMeta } from "~/components/report/report-page";
import {
  PumpDayTables,
  PumpEventTables,
  PumpSettingsTable,
  PumpSummary,
  type PumpReportFigures,
} from "~/components/report/pump-report-sections";
import { defaultPumpRange, pumpReportFor } from "~/services/report.server";
import { pumpRangeChart } from "~/report/charts.server";
import { pumpRangeChartLabels } from "~/services/view-charts.server";
import { formatDate, formatDateRange } from "~/report/locale-format";
import { nameStyleCode } from "~/schemas/setting";
import * as s from "~/styles/report.css";
import { getFixedT } from "~/utils/i18n.server";
import { loadReportPage } from "~/services/report-page.server";

/**
 * The pump/BG print report: a range form (default the 15 days ending today; quick ranges the last
 * 7, 15, 30 and 90 days; a start alone is start + 1 day; at most 90 days), Preview / Print /
 * Download PDF, and the report of app/report/pump-report.ts (header, glucose statistics, pump
 * totals, per-day glucose and pump tables, carbohydrates and alarms in tables of at most 12 rows,
 * big boluses when at most 25, the pump settings, charts of up to 5 consecutive days with data, and
 * one line for each run of days without data instead of empty charts). `print=1` (the PDF renderer)
 * leaves out the controls. A patient the viewer may not see is a 404, as on the patient page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const {
    shell,
    value: report,
    unit,
    locale,
  } = await loadReportPage(args, "pump", {
    defaultRange: defaultPumpRange,
    dataKinds: ["pump", "bg"],
    async build({ viewer, patient, range, now, unit, context }) {
      const result = await pumpReportFor(viewer, patient, range, now, {
        unit,
        nameStyle: nameStyleCode(context.nameStyle),
      });
      if (result.status !== "ok")
        return { value: null, problem: result.problem, shown: null, empty: false };
      return {
        value: result.report,
        problem: null,
        shown: { start: result.report.from, end: result.report.to },
        empty: !result.report.hasData,
      };
    },
  });
  const t = await getFixedT(locale, "reports");
  const labels = report ? pumpRangeChartLabels(t, unit, locale, report.limits) : null;
  const sections =
    report && labels
      ? report.chartSections.map((section) => {
          if (section.kind === "noData")
            return {
              kind: "noData" as const,
              from: formatDate(section.from, locale),
              to: formatDate(section.to, locale),
              svg: null,
            };
          const { group } = section;
          const [first, last] = [group.dates[0]!, group.dates[group.dates.length - 1]!];
          const from = formatDate(first, locale);
          const to = formatDate(last, locale);
          return {
            kind: "chart" as const,
            from,
            to,
            range: formatDateRange(first, last, locale),
            svg: pumpRangeChart(report, group, {
              unit,
              locale,
              tooltips: !shell.print,
              title: t("pump.groupChart", { from, to }),
              labels,
            }),
          };
        })
      : [];
  const charts = sections.flatMap((c) => (c.kind === "chart" ? [c] : []));
  const { days: _days, ...figures } = report ?? { days: null };
  return { shell, report: report ? (figures as PumpReportFigures) : null, charts, sections };
}

export const meta: MetaFunction<typeof loader> = (args) => reportMeta(args);

export default function PumpPrint() {
  const { t, i18n } = useTranslation("reports");
  const locale = i18n.language;
  const { shell, report, sections } = useLoaderData<typeof loader>();
  return (
    <ReportPage
      shell={shell}
      title={t("pump.title")}
      range={report ? formatDateRange(report.from, report.to, locale) : null}
      rangeNote={t("pump.rangeNote")}
    >
      {report === null ? null : !report.hasData ? (
        <p className={s.empty} role="status">
          {t("pump.noData", {
            from: formatDate(report.from, locale),
            to: formatDate(report.to, locale),
          })}
        </p>
      ) : (
        <>
          <PumpSummary report={report} unit={shell.unit} />
          <PumpDayTables report={report} unit={shell.unit} />
          <PumpEventTables report={report} unit={shell.unit} />
          <PumpSettingsTable report={report} unit={shell.unit} />
          <div data-page="wide">
            <ReportSection id="pump-charts" title={t("pump.charts")}>
              {sections.map((section) =>
                section.svg === null ? (
                  <p key={section.from} data-testid="chart-no-data" className={s.noDataLine}>
                    {section.from === section.to
                      ? t("pump.noChartDay", { date: section.from })
                      : t("pump.noData", { from: section.from, to: section.to })}
                  </p>
                ) : (
                  <div key={section.from} data-testid="chart-group" className={s.rangeChartGroup}>
                    <h3 className={s.sectionTitle}>{section.range}</h3>
                    <figure className={s.rangeChart}>
                      <div dangerouslySetInnerHTML={{ __html: section.svg }} />
                      <figcaption className={s.chartFigures}>
                        {t("pump.chartValues")} <a href="#pump-days">{t("pump.perDay")}</a>,{" "}
                        <a href="#pump-bg">{t("pump.bgPerDay")}</a>
                      </figcaption>
                    </figure>
                  </div>
                ),
              )}
            </ReportSection>
          </div>
        </>
      )}
    </ReportPage>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
