import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportPage, reportMeta } from "~/components/report/report-page";
import { BloodTestsFigures, BloodTestsLogbook } from "~/components/report/blood-tests-sections";
import { bloodTestsReportFor, defaultBloodTestsRange } from "~/services/report.server";
import { formatDate, formatDateRange } from "~/report/locale-format";
import * as s from "~/styles/report.css";
import { loadReportPage } from "~/services/report-page.server";

/**
 * The blood tests print report, the meter logbook (app/report/blood-tests-report.ts): a range form
 * (at most 90 days; default the 15 days ending today; quick ranges the last 7, 15, 30 and 90 days),
 * Preview / Print / Download PDF, and the report: the period's average, number of values and lows,
 * then a row per day with every finger-prick value in the column of its meal period, and each
 * column's average, number of values and lows. `print=1` (the PDF renderer) leaves out the
 * controls. A patient the viewer may not see is a 404.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { shell, value: report } = await loadReportPage(args, "bloodTests", {
    defaultRange: defaultBloodTestsRange,
    dataKinds: ["bg"],
    async build({ viewer, patient, range, now }) {
      const result = await bloodTestsReportFor(viewer, patient, range, now);
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
  return { shell, report };
}

export const meta: MetaFunction<typeof loader> = (args) => reportMeta(args);

export default function BloodTestsPrint() {
  const { t, i18n } = useTranslation("reports");
  const locale = i18n.language;
  const { shell, report } = useLoaderData<typeof loader>();
  return (
    <ReportPage
      shell={shell}
      title={t("bloodTests.title")}
      range={report ? formatDateRange(report.from, report.to, locale) : null}
      rangeNote={t("bloodTests.rangeNote")}
    >
      {report === null ? null : !report.hasData ? (
        <p className={s.empty} role="status">
          {t("bloodTests.noData", {
            from: formatDate(report.from, locale),
            to: formatDate(report.to, locale),
          })}
        </p>
      ) : (
        <>
          <BloodTestsFigures report={report} unit={shell.unit} />
          <BloodTestsLogbook report={report} unit={shell.unit} />
        </>
      )}
    </ReportPage>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
