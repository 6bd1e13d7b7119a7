import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { QuickRangeButtons } from "~/components/quick-ranges";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { sharingPatients } from "~/models/export-data.server";
import { RECORD_SHEETS } from "~/report/excel-sheets";
import { QUICK_DAYS, QUICK_RANGE_PARAM, quickDaysOf, quickRange } from "~/report/quick-ranges";
import { formatNumber } from "~/report/units";
import { exportAskOf, MAX_EXPORT_PATIENTS, typedDate } from "~/schemas/excel-export";
import { planExport, previewExport, type ExportPreview } from "~/services/excel-export.server";
import { getLocale } from "~/services/locale.server";
import { requireStaff } from "~/services/session.server";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import { displayName } from "~/utils/names";
import { accountZone } from "~/utils/time-zones";

/** Without dates the form offers the last 30 days ending today (in the reader's own zone). */
const DEFAULT_DAYS = 30;

/** Why a plan is refused, as a message key of `excel` (or naming its namespace). */
const REFUSALS = {
  notStaff: "errors.notStaff",
  notVisible: "errors.notVisible",
  noPatients: "errors.noneShared",
} as const;

/**
 * `/excel/export`: the staff Excel export (admins and editors; anyone else gets the 403 page).
 * A GET form: the patients (every patient who shares with the reader, or some of them), the local
 * days and the glucose unit. "Preview" shows here how many records of each kind each patient's
 * sheets would hold (each patient's read logged); "Download" fetches the workbook from
 * `/excel/export.xlsx` with the same fields. A quick range fills in the last N days ending today
 * in the reader's zone. Everything works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const zone = accountZone(staff);
  const now = Date.now();
  const quick = quickDaysOf(search.get(QUICK_RANGE_PARAM), QUICK_DAYS.excelExport);
  if (quick !== null) {
    const range = quickRange(quick, zone, now);
    search.delete(QUICK_RANGE_PARAM);
    search.set("start", range.start);
    search.set("end", range.end);
  }
  const defaults = quickRange(DEFAULT_DAYS, zone, now);
  const unitSetting = toGlucoseUnit(staff.setting?.unit);
  const all = search.get("all") === "1";
  const chosen = new Set(search.getAll("pids").map(Number));
  const form = {
    all,
    pids: [...chosen],
    start: search.has("start") ? typedDate(search.get("start")) : defaults.start,
    end: search.has("end") ? typedDate(search.get("end")) : defaults.end,
    unit: search.get("unit") === "1" ? 1 : search.get("unit") === "0" ? 0 : unitSetting,
  };
  const patients = (await sharingPatients(staff)).map((patient) => ({
    pid: patient.pid,
    name: displayName(patient),
    email: patient.email,
  }));
  const asked = ["all", "pids", "start", "end"].some((name) => search.has(name));
  let problem: string | null = null;
  let preview: ExportPreview | null = null;
  if (asked) {
    const parsed = exportAskOf(search);
    if (!parsed.success) problem = parsed.error.issues[0]?.message ?? "errors.noPatients";
    else {
      const planned = await planExport(staff, parsed.data, unitSetting, now);
      if (!planned.ok)
        problem = planned.refused === "range" ? planned.msgKey : REFUSALS[planned.refused];
      else {
        preview = await previewExport(staff, planned.plan, "page");
        if (!preview) problem = REFUSALS.notVisible;
      }
    }
  }
  return {
    locale: await getLocale(request),
    patients,
    form,
    problem,
    preview,
    maxPatients: MAX_EXPORT_PATIENTS,
  };
}

export default function ExcelExport() {
  const { t } = useTranslation("excel");
  const { locale, patients, form, problem, preview, maxPatients } = useLoaderData<typeof loader>();
  const count = (n: number) => formatNumber(n, 0, locale);
  return (
    <section className={s.card} aria-labelledby="export-title">
      <h1 id="export-title">{t("page.title")}</h1>
      <p>{t("page.intro", { count: maxPatients })}</p>
      {problem ? (
        <p className={f.errors} role="alert" data-testid="export-problem">
          {t(problem)}
        </p>
      ) : null}
      <Form method="get" action="/excel/export" reloadDocument className={f.wide}>
        <fieldset className={f.fieldset}>
          <legend className={f.label}>{t("page.patients")}</legend>
          <label className={f.choice}>
            <input type="checkbox" name="all" value="1" defaultChecked={form.all} />
            {t("page.allPatients", { count: patients.length })}
          </label>
          {patients.length === 0 ? <p className={f.hint}>{t("page.nobody")}</p> : null}
          {patients.map((patient) => (
            <label key={patient.pid} className={f.choice}>
              <input
                type="checkbox"
                name="pids"
                value={patient.pid}
                defaultChecked={form.pids.includes(patient.pid)}
              />
              {patient.name}
              <span className={p.itemMeta}>{patient.email}</span>
            </label>
          ))}
        </fieldset>
        <div className={f.field}>
          <label className={f.label} htmlFor="export-start">
            {t("page.start")}
          </label>
          <input
            id="export-start"
            className={f.input}
            type="date"
            name="start"
            defaultValue={form.start}
            required
          />
        </div>
        <div className={f.field}>
          <label className={f.label} htmlFor="export-end">
            {t("page.end")}
          </label>
          <input
            id="export-end"
            className={f.input}
            type="date"
            name="end"
            defaultValue={form.end}
            required
          />
        </div>
        <fieldset className={f.fieldset}>
          <legend className={f.label}>{t("page.unit")}</legend>
          {([0, 1] as const).map((unit) => (
            <label key={unit} className={f.choice}>
              <input type="radio" name="unit" value={unit} defaultChecked={form.unit === unit} />
              {t(`common:units.${unit}`)}
            </label>
          ))}
        </fieldset>
        <p className={f.hint}>{t("page.rangeNote")}</p>
        <div className={s.actions}>
          <button type="submit" className={s.button}>
            {t("page.preview")}
          </button>
          <button type="submit" className={s.buttonSecondary} formAction="/excel/export.xlsx">
            {t("page.download")}
          </button>
        </div>
        <QuickRangeButtons days={QUICK_DAYS.excelExport} />
      </Form>
      {preview ? (
        <section aria-labelledby="preview-title">
          <h2 id="preview-title">{t("preview.title")}</h2>
          <table className={p.table} data-testid="export-preview">
            <thead>
              <tr>
                <th className={p.cell} scope="col">
                  {t("columns.patient")}
                </th>
                <th className={p.cell} scope="col">
                  {t("preview.dates")}
                </th>
                {RECORD_SHEETS.map((sheet) => (
                  <th key={sheet} className={p.cell} scope="col">
                    {t(`counts.${sheet}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.patients.map((row) => (
                <tr key={row.pid}>
                  <th className={p.cell} scope="row">
                    {row.name}
                  </th>
                  <td className={p.cell}>
                    {row.start} – {row.end} ({row.timeZone})
                  </td>
                  {RECORD_SHEETS.map((sheet) => (
                    <td key={sheet} className={p.cell}>
                      {count(row.counts[sheet])}
                    </td>
                  ))}
                </tr>
              ))}
              <tr>
                <th className={p.cell} scope="row" colSpan={2}>
                  {t("preview.total")}
                </th>
                {RECORD_SHEETS.map((sheet) => (
                  <td key={sheet} className={p.cell}>
                    {count(preview.totals[sheet])}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </section>
      ) : null}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
