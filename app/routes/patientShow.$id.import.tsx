import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { patientLinks } from "~/components/patient-view/links";
import { PatientPageHeader, PatientTabs } from "~/components/patient-view/patient-tabs";
import { AcceptedFiles } from "~/components/upload/accepted-files";
import { useHydrated } from "~/components/use-hydrated";
import { CSV_FORMATS, CSV_ENTRY_KINDS } from "~/csv";
import { tabsFor } from "~/services/patient-view.server";
import { localDate, shiftDate, todayIn } from "~/report/day";
import { fileField, importOptionsSchema } from "~/schemas/csv-import";
import { idParam } from "~/schemas/fields";
import { EXPORT_DEFAULT_DAYS } from "~/services/csv-export.server";
import { QUICK_DAYS } from "~/report/quick-ranges";
import { QuickRangeButtons } from "~/components/quick-ranges";
import {
  cancelImport,
  confirmImport,
  CSV_FILE_MAX_BYTES,
  previewImport,
  type CsvImportAnswer,
} from "~/services/csv-import.server";
import { readPatient } from "~/services/patient-read.server";
import * as f from "~/styles/form.css";
import * as st from "~/styles/import.css";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/patient-view.css";
import { getLocale } from "~/services/locale.server";
import { displayName } from "~/utils/names";
import { timeZoneOptions } from "~/utils/time-zones";
import { readFileForm } from "~/utils/file-form.server";
import { requireUser } from "~/services/session.server";
import { FORM_LIMIT_MS, keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";
import { formatQuantity } from "~/report/units";

const params = z.object({ id: idParam });

/** The patient, for a viewer who may upload for them (their own record or one shared with them); else a 404. */
async function patientFor(
  request: Request,
  raw: unknown,
  detail: Record<string, string | number | boolean | null>,
) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const read = await readPatient({
    viewer,
    pid: parsed.data.id,
    purpose: "import",
    channel: "page",
    detail,
  });
  if (!read.ok) throw new Response("Not Found", { status: 404 });
  return { viewer, patient: read.patient, now: read.now };
}

/**
 * `/patientShow/{pid}/import`: a CSV import for the patient and the readers the patient shares
 * with (Dexcom Clarity, LibreView, our own export, a plain time-and-glucose file) in three steps
 * that work without JavaScript: choose the file (or drop it), read the preview (nothing written),
 * then import or cancel. Below, the CSV export of a range of days.
 */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const { viewer, patient, now } = await patientFor(request, raw, { step: "form" });
  const locale = await getLocale(request);
  const url = new URL(request.url);
  const today = todayIn(patient.timeZone, now);
  return {
    pid: patient.id,
    name: displayName(patient.user),
    own: patient.userId === viewer.id,
    timeZone: patient.timeZone,
    zones: timeZoneOptions(patient.timeZone, now, locale),
    links: patientLinks(patient),
    tabs: tabsFor(locale),
    maxBytes: CSV_FILE_MAX_BYTES,
    exportDays: EXPORT_DEFAULT_DAYS,
    exportRange: {
      start: url.searchParams.get("start") ?? shiftDate(today, -(EXPORT_DEFAULT_DAYS - 1)),
      end: url.searchParams.get("end") ?? today,
    },
    exportError: exportProblem(url.searchParams.get("exportError")),
  };
}

/** The export's refusal the address names (only the range messages; anything else is ignored). */
function exportProblem(key: string | null): string | null {
  return key && /^(views:problems\.[a-zA-Z0-9]+|reports:common\.invalidDate)$/.test(key)
    ? key
    : null;
}

const intentSchema = z.enum(["preview", "confirm", "cancel"]);
/** Room for the multipart boundaries and the other fields around one file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

type Problem = { key: string; values?: Record<string, string | number> };
/** The options of the form as typed, shown again after a refusal so that nothing typed is lost. */
type Typed = Partial<Record<(typeof OPTION_FIELDS)[number], string>>;
type Answer =
  | { step: "form"; problem: Problem | null; notice: string | null; typed?: Typed }
  | { step: "preview"; token: string; fileName: string; preview: CsvImportAnswer }
  | { step: "done"; fileName: string; result: CsvImportAnswer };

const answer = (body: Answer, status = 200) => data(body, { status });
const OPTION_FIELDS = [
  "format",
  "timeZone",
  "dateOrder",
  "timeColumn",
  "glucoseColumn",
  "unitColumn",
] as const;
const refused = (problem: Problem, status = 400, typed?: Typed) =>
  answer({ step: "form", problem, notice: null, ...(typed ? { typed } : {}) }, status);

export async function action({ request, params: raw }: ActionFunctionArgs) {
  const form = await readFileForm(request, {
    maxFileBytes: CSV_FILE_MAX_BYTES,
    overheadBytes: MULTIPART_OVERHEAD_BYTES,
  });
  if (form === "tooLarge") {
    await patientFor(request, raw, { step: "refused" });
    return refused({ key: "csv:errors.tooLarge", values: { limit: "2 MB" } }, 413);
  }
  const intent = intentSchema.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  const { viewer, patient } = await patientFor(request, raw, { step: intent.data });
  const token = z.string().min(1).max(64).safeParse(form.get("draft"));

  switch (intent.data) {
    case "preview": {
      const typed: Typed = Object.fromEntries(
        OPTION_FIELDS.flatMap((k) => {
          const value = form.get(k);
          return typeof value === "string" ? [[k, value.slice(0, 64)]] : [];
        }),
      );
      const file = fileField.safeParse(form.get("file"));
      if (!file.success) return refused({ key: "import:errors.file" }, 400, typed);
      const options = importOptionsSchema.safeParse(typed);
      if (!options.success)
        return refused(
          { key: `import:${options.error.issues[0]?.message ?? "errors.options"}` },
          400,
          typed,
        );
      const read = await previewImport(viewer, {
        pid: patient.id,
        fileName: file.data.name,
        bytes: new Uint8Array(await file.data.arrayBuffer()),
        options: options.data,
      });
      if (!read.ok)
        return refused(
          { key: qualified(read.key), ...(read.values ? { values: read.values } : {}) },
          read.code,
          typed,
        );
      return answer({ step: "preview", ...read.data });
    }
    case "confirm": {
      if (!token.success) return refused({ key: "import:errors.draftGone" });
      const imported = await confirmImport(viewer, { pid: patient.id, token: token.data });
      if (!imported.ok)
        return refused(
          { key: qualified(imported.key), ...(imported.values ? { values: imported.values } : {}) },
          imported.code,
        );
      const { fileName, ...result } = imported.data;
      return answer({ step: "done", fileName, result });
    }
    case "cancel": {
      if (token.success) await cancelImport(viewer, token.data);
      return answer({ step: "form", problem: null, notice: "import:cancelled" });
    }
  }
}

/** Refusal keys of the ingestion module are in the `upload` namespace unless they name theirs. */
const qualified = (key: string) => (key.includes(":") ? key : `upload:${key}`);

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function ImportPage() {
  const { t } = useTranslation("import");
  const { t: tp } = useTranslation("patients");
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <article className={layout.card} aria-labelledby="patient-title">
      <PatientPageHeader title={page.own ? tp("myHome") : page.name} />
      <PatientTabs links={page.links} tabs={page.tabs} current="import" date={null} />
      <section className={s.section} aria-labelledby="import-heading">
        <h2 id="import-heading">{t("title")}</h2>
        {reply?.step === "preview" ? (
          <Preview token={reply.token} fileName={reply.fileName} preview={reply.preview} />
        ) : reply?.step === "done" ? (
          <Done fileName={reply.fileName} result={reply.result} page={page} />
        ) : (
          <ChooseFile
            page={page}
            problem={reply?.step === "form" ? reply.problem : null}
            notice={reply?.step === "form" ? reply.notice : null}
            typed={reply?.step === "form" ? (reply.typed ?? {}) : {}}
          />
        )}
      </section>
      <ExportSection page={page} />
    </article>
  );
}

function ProblemMessage({ problem }: { problem: Problem | null }) {
  const { t } = useTranslation();
  if (!problem) return null;
  return (
    <p className={f.errors} role="alert">
      {t(problem.key, problem.values)}
    </p>
  );
}

function ChooseFile({
  page,
  problem,
  notice,
  typed,
}: {
  page: PageData;
  problem: Problem | null;
  notice: string | null;
  typed: Typed;
}) {
  const { t } = useTranslation("import");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "preview";
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);

  const checkSize = (files: FileList | null) =>
    setTooLarge(Boolean(files?.[0] && files[0].size > page.maxBytes));
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!input.current || event.dataTransfer.files.length === 0) return;
    input.current.files = event.dataTransfer.files;
    checkSize(event.dataTransfer.files);
  };

  return (
    <>
      <p>{t("intro")}</p>
      <AcceptedFiles />
      {notice ? (
        <p className={f.notice} role="status">
          {t(notice)}
        </p>
      ) : null}
      <ProblemMessage problem={problem} />
      <Form method="post" encType="multipart/form-data" className={f.form} aria-busy={busy}>
        <input type="hidden" name="intent" value="preview" />
        <div
          className={st.dropZone}
          data-dragging={dragging}
          onDragOver={(e) => (e.preventDefault(), setDragging(true))}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="drop-zone"
        >
          <label className={f.label} htmlFor="import-file">
            {t("fields.file")}
          </label>
          <input
            ref={input}
            id="import-file"
            className={f.input}
            type="file"
            name="file"
            accept=".csv,.txt,text/csv,text/plain"
            required
            aria-describedby="import-file-hint"
            onChange={(e) => checkSize(e.currentTarget.files)}
          />
          <p id="import-file-hint" className={f.hint}>
            {hydrated ? t("fields.fileHintDrop") : t("fields.fileHint")}
          </p>
          {tooLarge ? (
            <p className={f.errors} role="alert">
              {t("csv:errors.tooLarge", { limit: "2 MB" })}
            </p>
          ) : null}
        </div>
        <div className={f.field}>
          <label className={f.label} htmlFor="import-format">
            {t("fields.format")}
          </label>
          <select
            id="import-format"
            name="format"
            className={f.input}
            defaultValue={typed.format ?? "auto"}
          >
            <option value="auto">{t("formats.auto")}</option>
            {CSV_FORMATS.map((format) => (
              <option key={format} value={format}>
                {t(`formats.${format}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={f.field}>
          <label className={f.label} htmlFor="import-zone">
            {t("fields.timeZone")}
          </label>
          <select
            id="import-zone"
            name="timeZone"
            className={f.input}
            defaultValue={typed.timeZone ?? page.timeZone}
            aria-describedby="import-zone-hint"
          >
            {page.zones.map((zone) => (
              <option key={zone.value} value={zone.value}>
                {zone.label}
              </option>
            ))}
          </select>
          <p id="import-zone-hint" className={f.hint}>
            {t("fields.timeZoneHint")}
          </p>
        </div>
        <div className={f.field}>
          <label className={f.label} htmlFor="import-order">
            {t("fields.dateOrder")}
          </label>
          <select
            id="import-order"
            name="dateOrder"
            className={f.input}
            defaultValue={typed.dateOrder ?? "auto"}
          >
            <option value="auto">{t("dateOrders.auto")}</option>
            <option value="DMY">{t("dateOrders.DMY")}</option>
            <option value="MDY">{t("dateOrders.MDY")}</option>
          </select>
        </div>
        <fieldset className={f.fieldset} aria-describedby="import-columns-hint">
          <legend className={f.label}>{t("fields.columns")}</legend>
          <p id="import-columns-hint" className={f.hint}>
            {t("fields.columnsHint")}
          </p>
          <div className={f.wide}>
            {(["timeColumn", "glucoseColumn", "unitColumn"] as const).map((name) => (
              <div key={name} className={f.field}>
                <label className={f.label} htmlFor={`import-${name}`}>
                  {t(`fields.${name}`)}
                </label>
                <input
                  id={`import-${name}`}
                  className={f.input}
                  type="number"
                  name={name}
                  min={1}
                  max={200}
                  step={1}
                  inputMode="numeric"
                  defaultValue={typed[name] ?? ""}
                />
              </div>
            ))}
          </div>
        </fieldset>
        <div>
          <button type="submit" className={layout.button} disabled={busy || tooLarge}>
            {busy ? t("reading") : t("previewButton")}
          </button>
        </div>
      </Form>
    </>
  );
}

/** What the file holds and what an import would add: shown before anything is written. */
function Preview({
  token,
  fileName,
  preview,
}: {
  token: string;
  fileName: string;
  preview: CsvImportAnswer;
}) {
  const { t } = useTranslation("import");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div data-testid="import-preview">
      <p role="status">{t("preview.intro", { file: fileName })}</p>
      <Summary answer={preview} />
      <LineErrors answer={preview} />
      {preview.inserted === 0 ? <p className={f.notice}>{t("preview.nothingNew")}</p> : null}
      <div className={st.steps}>
        <Form method="post">
          <input type="hidden" name="draft" value={token} />
          <button
            type="submit"
            name="intent"
            value="confirm"
            className={layout.button}
            disabled={busy || preview.inserted === 0}
          >
            {navigation.formData?.get("intent") === "confirm"
              ? t("importing")
              : t("confirmButton", { count: preview.inserted })}
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="draft" value={token} />
          <button
            type="submit"
            name="intent"
            value="cancel"
            className={layout.buttonSecondary}
            disabled={busy}
          >
            {t("cancelButton")}
          </button>
        </Form>
      </div>
    </div>
  );
}

function Done({
  fileName,
  result,
  page,
}: {
  fileName: string;
  result: CsvImportAnswer;
  page: PageData;
}) {
  const { t } = useTranslation("import");
  return (
    <div data-testid="import-done">
      <p className={f.notice} role="status">
        {result.inserted > 0
          ? t("done.added", { count: result.inserted, file: fileName })
          : t("done.nothingNew", { file: fileName })}
      </p>
      <Summary answer={result} />
      <p className={f.links}>
        {result.counts.cgm > 0 ? (
          <Link
            to={`${page.links.home}?tab=cgms${result.lastDate ? `&date=${localDate(Date.parse(result.lastDate), page.timeZone)}` : ""}`}
          >
            {t("done.seeCgm")}
          </Link>
        ) : null}
        {result.counts.bg > 0 ? (
          <Link to={`${page.links.home}?tab=bg`}>{t("done.seeBg")}</Link>
        ) : null}
        <Link to={page.links.uploads}>{t("done.seeHistory")}</Link>
        <Link to={page.links.import}>{t("done.another")}</Link>
      </p>
    </div>
  );
}

function Summary({ answer }: { answer: CsvImportAnswer }) {
  const { t, i18n } = useTranslation("import");
  const count = (value: number) => formatQuantity(value, i18n.language);
  const when = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, {
          dateStyle: "medium",
          timeStyle: "short",
          timeZone: answer.timeZone,
        }).format(new Date(iso))
      : "—";
  const rows: [string, string][] = [
    [t("summary.format"), t(`formats.${answer.format}`)],
    [t("summary.unit"), answer.unit],
    [
      t("summary.device"),
      [answer.device.name, answer.device.serial].filter(Boolean).join(" · ") || "—",
    ],
    [t("summary.timeZone"), answer.timeZone],
    ...(answer.dateOrder
      ? [
          [
            t("summary.dateOrder"),
            `${t(`dateOrders.${answer.dateOrder}`)}${answer.clock ? `, ${t(`clocks.${answer.clock}`)}` : ""}`,
          ] as [string, string],
        ]
      : []),
    [
      t("summary.dates"),
      answer.firstDate ? `${when(answer.firstDate)} – ${when(answer.lastDate)}` : "—",
    ],
    ...CSV_ENTRY_KINDS.filter((kind) => answer.counts[kind] > 0).map(
      (kind) => [t(`kinds.${kind}`), count(answer.counts[kind])] as [string, string],
    ),
    [answer.dryRun ? t("summary.toAdd") : t("summary.added"), count(answer.inserted)],
    [t("summary.duplicates"), count(answer.duplicates)],
    ...(answer.flagged ? [[t("summary.flagged"), count(answer.flagged)] as [string, string]] : []),
    ...(answer.dstAdjusted
      ? [[t("summary.dstAdjusted"), count(answer.dstAdjusted)] as [string, string]]
      : []),
  ];
  return (
    <dl className={st.summary} data-testid="import-summary">
      {rows.map(([term, value]) => (
        <div key={term} style={{ display: "contents" }}>
          <dt className={st.summaryTerm}>{term}</dt>
          <dd className={st.summaryValue}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LineErrors({ answer }: { answer: CsvImportAnswer }) {
  const { t } = useTranslation("import");
  if (answer.errors.length === 0) return null;
  return (
    <div
      className={s.tableScroll}
      tabIndex={0}
      role="region"
      aria-label={t("errors.caption", { count: answer.errors.length + answer.moreErrors })}
    >
      <table className={s.table} data-testid="import-errors">
        <caption>
          {t("errors.caption", { count: answer.errors.length + answer.moreErrors })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t("errors.line")}</th>
            <th scope="col">{t("errors.problem")}</th>
          </tr>
        </thead>
        <tbody>
          {answer.errors.map((error, i) => (
            <tr key={`${error.line}-${i}`}>
              <th scope="row">{error.line}</th>
              <td>{t(`csv:${error.key}`, { ...error.values, line: error.line })}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {answer.moreErrors > 0 ? (
        <p className={s.note}>{t("errors.more", { count: answer.moreErrors })}</p>
      ) : null}
    </div>
  );
}

function ExportSection({ page }: { page: PageData }) {
  const { t } = useTranslation("import");
  return (
    <section className={s.section} aria-labelledby="export-heading">
      <h2 id="export-heading">{t("export.title")}</h2>
      <p>{t("export.intro", { count: page.exportDays })}</p>
      {page.exportError ? (
        <p className={f.errors} role="alert">
          {t(page.exportError)}
        </p>
      ) : null}
      <Form
        method="get"
        action={`/patientShow/${page.pid}/export.csv`}
        reloadDocument
        className={f.wide}
      >
        <div className={f.field}>
          <label className={f.label} htmlFor="export-start">
            {t("export.start")}
          </label>
          <input
            id="export-start"
            className={f.input}
            type="date"
            name="start"
            defaultValue={page.exportRange.start}
            required
          />
        </div>
        <div className={f.field}>
          <label className={f.label} htmlFor="export-end">
            {t("export.end")}
          </label>
          <input
            id="export-end"
            className={f.input}
            type="date"
            name="end"
            defaultValue={page.exportRange.end}
            required
          />
        </div>
        <div>
          <button type="submit" className={layout.button}>
            {t("export.button")}
          </button>
        </div>
        <QuickRangeButtons days={QUICK_DAYS.export} />
      </Form>
      <p className={s.note}>{t("export.format")}</p>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost(FORM_LIMIT_MS.save);
export const shouldRevalidate = skipRevalidationWhenLost;
