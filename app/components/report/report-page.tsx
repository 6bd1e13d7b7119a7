import type { MetaDescriptor } from "@remix-run/node";
import { Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { REPORT_KINDS } from "~/report/report-kinds";
import { RANGE_RULES } from "~/report/report-range";
import * as s from "~/styles/report.css";
import type { ReportShell } from "~/services/report-page.server";
import { RangeForm, ReportActions } from "./report-controls";
import { ReportHeader, type HeaderFact } from "./report-header";
import { cssPageSize } from "~/utils/paper-size";

export type ReportPageProps = {
  shell: ReportShell;
  title: string;
  /** "YYYY/MM/DD – YYYY/MM/DD" of the report shown, or null when there is none (no header). */
  range: string | null;
  /** Under the quick ranges: why some are not offered. */
  quickNote?: string;
  /** Under the controls: the report's range rule. */
  rangeNote: string;
  /** More facts for the header, after the report's own (label, value, test id). */
  headerMore?: readonly HeaderFact[];
  /** A one-page report's fixed orientation ("portrait" whatever the reader's orientation setting). */
  pageOrientation?: "portrait" | "landscape";
  /** More downloads of the report, beside the PDF link (screen only). */
  moreActions?: ReactNode;
  /** A class for the report's own layout (its print density). */
  className?: string;
  children?: ReactNode;
};

/**
 * The frame of every print report (docs/decisions/009-report-pages.md): the page size from the
 * reader's paper size (A4 or Letter) and orientation (and landscape pages of that paper for
 * sections marked `data-page="wide"`, such as the multi-day charts), the range form and actions
 * (left out of print and of the PDF renderer's `print=1` document), and the header with the
 * print settings; the report's sections are the children.
 */
export function ReportPage({
  shell,
  title,
  range,
  quickNote,
  rangeNote,
  headerMore,
  pageOrientation,
  moreActions,
  className,
  children,
}: ReportPageProps) {
  const { t } = useTranslation("reports");
  const navigation = useNavigation();
  const spec = REPORT_KINDS[shell.kind];
  const { paperSize, orientation } = shell.settings;
  const pageCss = `@page { size: ${cssPageSize(paperSize, pageOrientation ?? orientation)}; margin: 12mm; } @page wide { size: ${cssPageSize(paperSize, "landscape")}; margin: 10mm; } [data-page=wide] { page: wide; }`;
  return (
    <article
      className={className ? `${s.report} ${className}` : s.report}
      data-paper={paperSize}
      aria-busy={navigation.state === "loading" || undefined}
    >
      <style>{pageCss}</style>
      {shell.print ? null : (
        <section className={s.controls} aria-label={t("common.controls")} data-print-hide>
          <RangeForm
            start={shell.form.start}
            end={shell.form.end}
            today={shell.today}
            rule={RANGE_RULES[spec.rangeKind]}
            quickDays={spec.quickDays}
            problem={shell.problem}
            quickNote={quickNote}
          />
          {shell.pdf ? (
            <ReportActions
              pdfHref={shell.pdf.href}
              fileName={shell.pdf.fileName}
              supportHref={spec.supportHref}
            />
          ) : null}
          {moreActions}
          <p className={s.note}>{rangeNote}</p>
          {shell.latest ? (
            <p className={s.latest} role="status" data-testid="latest-data">
              {t("common.noDataInRange")}{" "}
              <Link to={shell.latest.href}>
                {t("common.showLatest", {
                  day: shell.latest.day,
                  from: shell.latest.start,
                  to: shell.latest.end,
                })}
              </Link>
            </p>
          ) : null}
        </section>
      )}
      {range === null ? null : (
        <ReportHeader
          title={title}
          patientName={shell.name}
          birthDate={shell.birthDate}
          range={range}
          unitText={t(`common:units.${shell.unit}`)}
          generatedAt={shell.generatedAt}
          timeZone={shell.timeZone}
          nameStyle={shell.settings.nameStyle}
          splitLine={shell.settings.splitLine}
          logoSrc={shell.settings.logoSrc}
          more={headerMore}
        />
      )}
      {children}
    </article>
  );
}

/**
 * A report page's meta: its document title (the browser tab's, and the PDF's title metadata),
 * which names patient, report and range; an error page keeps the app's title (the root's meta).
 */
export function reportMeta({
  data,
  matches,
}: {
  data: { shell: Pick<ReportShell, "documentTitle"> } | undefined;
  matches: readonly { id: string; meta: readonly MetaDescriptor[] }[];
}): MetaDescriptor[] {
  if (data) return [{ title: data.shell.documentTitle }];
  return [...(matches.find((m) => m.id === "root")?.meta ?? [])];
}

/** One figure of a report's summary list. */
export function Figure({
  label,
  note,
  children,
}: {
  label: string;
  note?: string;
  children: ReactNode;
}) {
  return (
    <div className={s.figure}>
      <dt className={s.figureLabel}>{label}</dt>
      <dd className={s.figureValue}>{children}</dd>
      {note ? <dd className={s.figureNote}>{note}</dd> : null}
    </div>
  );
}

/** A report section with its heading (the id ties them for screen readers). */
export function ReportSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className={s.section} aria-labelledby={id}>
      <h2 id={id} className={s.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}
