import type { AccessChannel } from "@prisma/client";
import {
  findVisiblePatient,
  findVisiblePatients,
  type Viewer,
  type VisiblePatient,
} from "~/models/access.server";
import { logPatientRead, logPatientReads } from "~/models/audit-log.server";
import type { IsoDate } from "~/report/day";
import { checkDateRange, type DateRangeRule, type ReportRangeProblem } from "~/report/report-range";
import { verifyRenderToken } from "~/utils/render-token.server";

/**
 * The access gateway: the one place that decides whether a viewer may read a patient's data, for
 * which purpose and over which dates, and that writes the patient-visible access log. Every page
 * loader, `/api/` call and PDF route that reads patient data asks it first and reads nothing when
 * it refuses (docs/decisions/010-access-gateway.md).
 */

/** What a read is for; the access log shows it to the patient. */
export type ReadPurpose =
  | "patientHome"
  | "record"
  | "dayData"
  | "lastRecord"
  | "pdaTimeZone"
  | "meterReadings"
  | "cgmReadings"
  | "pumpReport"
  | "cgmReport"
  | "agpReport"
  | "statisticsReport"
  | "bloodTestsReport"
  | "uploads"
  | "import"
  | "export"
  | "excelExport"
  | "exportPreview"
  | "dataDays"
  | "uploadCentre"
  | "caringList"
  | "caringDetail"
  | "triage"
  | "cgmSummary";

export type ReadChannel = AccessChannel;

export type AskedRange = { readonly start: string; readonly end: string };

export interface ReadAsk {
  readonly viewer: Viewer;
  /** The patient's record; null when the address names only the patient's account (`userId`). */
  readonly pid: number | null;
  /** The patient's account id when the address names it (with a pid, it must match). */
  readonly userId?: number;
  readonly purpose: ReadPurpose;
  readonly channel: ReadChannel;
  /**
   * The dates to read with their rule, or a default computed once the patient is known (a default
   * is built to fit the rule). Absent: the read names no dates.
   */
  readonly range?: {
    readonly rule: DateRangeRule;
    readonly dates:
      AskedRange | ((patient: VisiblePatient, now: number) => Promise<AskedRange> | AskedRange);
  };
  /** What else the log should say of the read (the tab of a page, for example). */
  readonly detail?: Readonly<Record<string, string | number | boolean | null>>;
  /**
   * Set when the server's own Chromium loads a report page for a PDF that the PDF route has
   * already authorised and logged: a valid token for this very read means no second log entry.
   */
  readonly renderToken?: string | null;
  readonly now?: number;
}

export type PatientRead =
  | {
      readonly ok: true;
      readonly patient: VisiblePatient;
      readonly range: { readonly start: IsoDate; readonly end: IsoDate } | null;
      readonly now: number;
    }
  | { readonly ok: false; readonly refused: "notVisible" }
  | {
      readonly ok: false;
      readonly refused: "range";
      readonly problem: ReportRangeProblem;
      readonly rule: DateRangeRule;
    };

/**
 * May `viewer` read patient `pid` for `purpose` over these dates? A patient the viewer may not
 * see (or that does not exist) is "notVisible"; dates outside the rule (not a date, end before
 * start, a future end, too many or too few days, in the patient's zone) are "range". A granted
 * read is written to the access log with its channel, purpose and dates before anything is read.
 */
export async function readPatient(ask: ReadAsk): Promise<PatientRead> {
  const patient = await findVisiblePatient(ask.viewer, ask.pid, ask.userId);
  if (!patient) return { ok: false, refused: "notVisible" };
  const now = ask.now ?? Date.now();
  let range: { start: IsoDate; end: IsoDate } | null = null;
  if (ask.range) {
    const dates =
      typeof ask.range.dates === "function" ? await ask.range.dates(patient, now) : ask.range.dates;
    const checked = checkDateRange(dates.start, dates.end, ask.range.rule, {
      timeZone: patient.timeZone,
      now,
    });
    if (!checked.ok)
      return {
        ok: false,
        refused: "range",
        problem: checked.invalid.problem,
        rule: ask.range.rule,
      };
    range = { start: checked.from, end: checked.to };
  }
  const rendering =
    range !== null &&
    typeof ask.renderToken === "string" &&
    verifyRenderToken(
      ask.renderToken,
      {
        viewerId: ask.viewer.id,
        pid: patient.id,
        purpose: ask.purpose,
        start: range.start,
        end: range.end,
      },
      now,
    );
  if (!rendering) {
    await logPatientRead({
      actorId: ask.viewer.id,
      patientId: patient.id,
      action: `read:${ask.purpose}`,
      channel: ask.channel,
      detail: { ...ask.detail, ...(range ?? {}) },
    });
  }
  return { ok: true, patient, range, now };
}

export interface ListReadAsk {
  readonly viewer: Viewer;
  /** The patients a list is about to show data of. */
  readonly pids: readonly number[];
  readonly purpose: ReadPurpose;
  readonly channel: ReadChannel;
}

/**
 * A list that shows several patients' data (remote caring's list of the people one cares for):
 * of `pids`, the patients the viewer may read, by the same rule as {@link readPatient}; the others
 * are left out and nothing is written for them. Each granted patient gets one access-log row,
 * written (in one statement) before anything of theirs is read.
 */
export async function readPatientList(ask: ListReadAsk): Promise<VisiblePatient[]> {
  const patients = await findVisiblePatients(ask.viewer, ask.pids);
  await logPatientReads(
    patients.map((patient) => ({
      actorId: ask.viewer.id,
      patientId: patient.id,
      action: `read:${ask.purpose}`,
      channel: ask.channel,
      detail: {},
    })),
  );
  return patients;
}

/**
 * A list whose one statement picks the patients through the access rule while it reads their
 * figures (the clinic's triage list, `visiblePatientSql`): which patients the page shows is known
 * only once they are filtered and sorted, so they cannot be asked for first as
 * {@link readPatientList} does. This writes one access-log row for each patient whose figures the
 * page shows, with the dates they cover, all in one statement, before the page is sent; the
 * patients left off the page are not logged (the server compared their figures, nobody saw them).
 */
export async function logListedReads(ask: {
  readonly viewer: Viewer;
  readonly purpose: ReadPurpose;
  readonly channel: ReadChannel;
  readonly reads: readonly { readonly patientId: number; readonly range: AskedRange }[];
}): Promise<void> {
  await logPatientReads(
    ask.reads.map((r) => ({
      actorId: ask.viewer.id,
      patientId: r.patientId,
      action: `read:${ask.purpose}`,
      channel: ask.channel,
      detail: { start: r.range.start, end: r.range.end },
    })),
  );
}

/** A call of the Nightscout API: which link, which call, and whether it reads or writes. */
export interface LinkCallAsk {
  /** The account that made the link: the call reads or writes with its rights. */
  readonly viewer: Viewer;
  readonly pid: number;
  readonly linkId: string;
  readonly call: string;
  readonly write: boolean;
}

/**
 * A call on a Nightscout link: may the link's maker still reach this patient (own record, or an
 * accepted share to an audited reader: the same rule as {@link readPatient})? A granted call is
 * written to the access log (`read:nightscout` or `write:nightscout`, channel `nightscout`, the
 * link and the call) before anything is read or written; a refused one writes nothing here (the
 * caller logs the refusal with {@link logRefusedLinkCall}).
 */
export async function readThroughLink(ask: LinkCallAsk): Promise<VisiblePatient | null> {
  const patient = await findVisiblePatient(ask.viewer, ask.pid);
  if (!patient) return null;
  await logPatientRead({
    actorId: ask.viewer.id,
    patientId: patient.id,
    action: ask.write ? "write:nightscout" : "read:nightscout",
    channel: "nightscout",
    detail: { link: ask.linkId, call: ask.call },
  });
  return patient;
}

/**
 * A refused call on one of the patient's Nightscout links (a wrong secret, a revoked link, a read
 * token used to write, a maker who lost the right): one access-log row with no reader, the link,
 * the call and why, so that the patient sees attempts on their links.
 */
export async function logRefusedLinkCall(entry: {
  readonly pid: number;
  readonly linkId: string;
  readonly call: string;
  readonly reason: string;
}): Promise<void> {
  await logPatientReads([
    {
      actorId: null,
      patientId: entry.pid,
      action: "refused:nightscout",
      channel: "nightscout",
      detail: { link: entry.linkId, call: entry.call, reason: entry.reason },
    },
  ]);
}
