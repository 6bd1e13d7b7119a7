import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportPage, reportMeta } from "~/components/report/report-page";
import {
  StatisticsMethods,
  StatisticsPeriods,
  StatisticsTables,
  type StatisticsFigures,
} from "~/components/report/statistics-report-sections";
import { defaultStatisticsRange, statisticsReportFor } from "~/services/report.server";
import { formatDate, formatDateRange } from "~/report/locale-format";
import { statisticRowInUnit } from "~/report/statistics-report";
import * as s from "~/styles/report.css";
import { loadReportPage } from "~/services/report-page.server";

/**
 * The statistics print report (app/report/statistics-report.ts): a range form (at most 90 days;
 * default the 14 days up to the last day with glucose data; quick ranges the last 14, 30 and 90
 * days), Preview / Print / Download PDF, and the report: the two periods with their data source and
 * coverage, every metric of app/metrics with its control / risk level beside the previous period of
 * equal length and the change, values from too little data marked, and under the tables the method
 * and parameters of each metric and the data rule. `print=1` (the PDF renderer) leaves out the
 * controls. A patient the viewer may not see is a 404.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { shell, value: answer } = await loadReportPage(args, "statistics", {
    defaultRange: defaultStatisticsRange,
    dataKinds: ["cgm", "bg"],
    async build({ viewer, patient, range, now }) {
      const result = await statisticsReportFor(viewer, patient, range, now);
      if (result.status !== "ok")
        return { value: null, problem: result.problem, shown: null, empty: false };
      return {
        value: result,
        problem: null,
        shown: { start: result.report.current.from, end: result.report.current.to },
        empty: result.report.current.readings === 0,
      };
    },
  });
  const report: StatisticsFigures | null = answer
    ? {
        source: answer.source,
        dayCount: answer.report.dayCount,
        current: answer.report.current,
        previous: answer.report.previous,
        rows: answer.report.rows.map((row) => statisticRowInUnit(row, shell.unit)),
        sufficiencyRule: answer.report.sufficiencyRule,
      }
    : null;
  return { shell, report };
}

export const meta: MetaFunction<typeof loader> = (args) => reportMeta(args);

export default function StatisticsPrint() {
  const { t, i18n } = useTranslation("reports");
  const locale = i18n.language;
  const { shell, report } = useLoaderData<typeof loader>();
  return (
    <ReportPage
      shell={shell}
      title={t("statistics.title")}
      range={report ? formatDateRange(report.current.from, report.current.to, locale) : null}
      quickNote={t("statistics.quickNote")}
      rangeNote={t("statistics.rangeNote")}
    >
      {report === null ? null : report.current.readings === 0 ? (
        <p className={s.empty} role="status">
          {t("statistics.noData", {
            from: formatDate(report.current.from, locale),
            to: formatDate(report.current.to, locale),
          })}
        </p>
      ) : (
        <>
          <StatisticsPeriods report={report} unit={shell.unit} />
          <StatisticsTables report={report} unit={shell.unit} />
          <StatisticsMethods report={report} unit={shell.unit} />
        </>
      )}
    </ReportPage>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
