import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Button, Dialog, DialogTrigger, Popover } from "react-aria-components";
import { useTranslation } from "react-i18next";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/report.css";
import { rangeLimits, reportRangeProblem } from "~/report/date-picker";
import type { DateRangeRule } from "~/report/report-range";
import { DateRangeFields } from "../date-fields";
import { QuickRangeButtons } from "../quick-ranges";
import { useHydrated } from "../use-hydrated";

export type RangeFormProps = {
  /** The dates shown in the fields (as typed when refused, else YYYY/MM/DD). */
  start: string;
  end: string;
  /** Today in the patient's zone (YYYY-MM-DD): the last day the picker offers. */
  today: string;
  /** The report's range rule (the picker's limits and its check before sending). */
  rule: DateRangeRule;
  /** Quick ranges offered (the last N days ending today). */
  quickDays: readonly number[];
  /** A translated-key of the refusal (any namespace, e.g. "views:problems.order"), or null. */
  problem: string | null;
  /** Extra note under the quick ranges (why some are not offered). */
  quickNote?: string;
};

/**
 * The report range picker: start and end (YYYY/MM/DD text fields without JavaScript, a date
 * range picker with it), Preview (a GET submit) and quick-range buttons (the last N days ending
 * today; the typed dates do not matter).
 */
export function RangeForm({
  start,
  end,
  today,
  rule,
  quickDays,
  problem,
  quickNote,
}: RangeFormProps) {
  const { t } = useTranslation("reports");
  return (
    <Form method="get" className={s.form} aria-label={t("common.range.label")} preventScrollReset>
      <DateRangeFields
        names={{ start: "start", end: "end" }}
        textLabels={{ start: t("common.range.start"), end: t("common.range.end") }}
        label={t("common.range.label")}
        values={{ start, end }}
        invalid={problem !== null}
        today={today}
        limits={rangeLimits(rule)}
        problemOf={(from, to) => reportRangeProblem(from, to, rule, today)}
      />
      <button type="submit" className={layout.button}>
        {t("common.preview")}
      </button>
      <QuickRangeButtons days={quickDays} />
      {quickNote ? <p className={s.note}>{quickNote}</p> : null}
      {problem ? (
        <p className={s.problem} role="alert" style={{ flexBasis: "100%" }}>
          {t(problem)}
        </p>
      ) : null}
    </Form>
  );
}

type DownloadState = "idle" | "generating" | "generated" | "failed";

/**
 * Print and Download PDF. Without JavaScript both are links to the PDF route (the server prints
 * it); with JavaScript Print opens the browser's print dialog and Download fetches the PDF and
 * says "Generating…" then "Generated".
 */
export function ReportActions({
  pdfHref,
  fileName,
  supportHref,
}: {
  pdfHref: string;
  fileName: string;
  supportHref: string;
}) {
  const { t } = useTranslation("reports");
  const hydrated = useHydrated();
  const [state, setState] = useState<DownloadState>("idle");
  const urlRef = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  async function download(event: React.MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (state === "generating") return;
    setState("generating");
    try {
      const response = await fetch(pdfHref, { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const blob = await response.blob();
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = urlRef.current;
      a.download = fileName;
      document.body.append(a);
      a.click();
      a.remove();
      setState("generated");
    } catch {
      setState("failed");
    }
  }

  return (
    <div className={s.actions}>
      {hydrated ? (
        <button type="button" className={layout.buttonSecondary} onClick={() => window.print()}>
          {t("common.print")}
        </button>
      ) : (
        <a className={layout.buttonSecondary} href={pdfHref}>
          {t("common.print")}
        </a>
      )}
      <a
        className={layout.buttonSecondary}
        href={pdfHref}
        download={fileName}
        onClick={hydrated ? download : undefined}
        aria-busy={state === "generating" || undefined}
      >
        {state === "generating" ? t("common.generating") : t("common.download")}
      </a>
      <span className={s.status} role="status" aria-live="polite">
        {state === "generating"
          ? t("common.generating")
          : state === "generated"
            ? t("common.generated")
            : state === "failed"
              ? t("common.downloadFailed")
              : ""}
      </span>
      {hydrated ? (
        <DialogTrigger>
          <Button className={layout.buttonSecondary}>{t("common.tips.label")}</Button>
          <Popover className={s.popover} placement="bottom end">
            <Dialog className={s.popoverDialog} aria-label={t("common.tips.label")}>
              <p>{t("common.tips.body")}</p>
              <Link to={supportHref}>{t("common.tips.link")}</Link>
            </Dialog>
          </Popover>
        </DialogTrigger>
      ) : (
        <a className={layout.buttonSecondary} href={supportHref}>
          {t("common.tips.label")}
        </a>
      )}
    </div>
  );
}
