/**
 * How "Who viewed my data" shows an access-log entry to the patient: the time on the clock of the
 * patient's time zone (written with app/report/locale-format.ts), the reader's role, and what happened in plain words, never the internal
 * action code. Pure functions: the page computes the time text on the server, so that the
 * document and the hydrated page show the same text whatever the browser's own time zone.
 */
import { Identity } from "~/domain/codes";
import { REPORT_KINDS, reportPurpose, type ReportKind } from "~/report/report-kinds";

/** What a read came through (the AccessChannel column). */
export type AccessChannelName = "page" | "api" | "pdf" | "fhir" | "nightscout";

/**
 * Report reads were once logged by their page's name (`read:statisticsprint`); they mean the
 * same reads as the report purposes logged now (`read:statisticsReport`).
 */
const FORMER_ACTIONS: ReadonlyMap<string, string> = new Map(
  (Object.keys(REPORT_KINDS) as ReportKind[]).map((kind) => [
    `read:${REPORT_KINDS[kind].page}`,
    `read:${reportPurpose(kind)}`,
  ]),
);

/** An action code as a translation key segment: `read:statisticsReport` is `read_statisticsReport`. */
function keySegment(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, "_");
}

/**
 * The translation keys (namespace `sharing`) that say what an entry did, the most specific
 * first, for i18next's first-existing-key lookup: a report printed as a PDF (`printed.*`), the
 * action itself (`actions.*`), the kind of action (`verbs.read`, `verbs.upload`, ...), and
 * `actions.other` for a code no text knows.
 */
export function accessActionKeys(action: string, channel: AccessChannelName | null): string[] {
  const canonical = FORMER_ACTIONS.get(action) ?? action;
  const key = keySegment(canonical);
  const verb = keySegment(canonical.split(":")[0] ?? "");
  return [
    ...(channel === "pdf" ? [`accessLog.printed.${key}`] : []),
    `accessLog.actions.${key}`,
    ...(verb ? [`accessLog.verbs.${verb}`] : []),
    "accessLog.actions.other",
  ];
}

/** The reader's role, as a translation key of `sharing` (null for a deleted account). */
export function accessRoleKey(
  actor: { identity: number | null; role: string } | null,
): string | null {
  if (!actor) return null;
  if (actor.role === "admin") return "accessLog.roles.staff";
  return actor.identity === Identity.Clinic ? "accessLog.roles.clinic" : "accessLog.roles.person";
}

/** The page of a list of `total` entries, `pageSize` a page, that `asked` names (1 to the last page). */
export function accessLogPage(
  asked: number,
  total: number,
  pageSize: number,
): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return { page: Math.min(Math.max(1, Math.floor(asked)), pages), pages };
}
