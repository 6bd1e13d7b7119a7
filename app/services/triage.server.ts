import { Identity } from "~/domain/codes";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { mayReadSharedData, type Viewer } from "~/models/access.server";
import { triageRows } from "~/models/triage.server";
import { displayDate, localDate } from "~/report/day";
import { quickRange } from "~/report/quick-ranges";
import { FLAG_VALUES, TRIAGE_BANDS, TRIAGE_DAYS, triageFigures } from "~/report/triage";
import { formatGlucose, formatNumber } from "~/report/units";
import type { SortDirection, TriageFlag, TriageQuery, TriageSort } from "~/schemas/triage";
import { displayName } from "~/utils/names";
import { logListedReads } from "./patient-read.server";

/** Patients on one page of the triage list. */
export const TRIAGE_PAGE_SIZE = 20;

/** One row of the list, its values as the page shows them (numbers in the reader's locale). */
export type TriageItem = {
  patientId: number;
  href: string;
  name: string;
  /** The patient's own name when the row shows the viewer's nickname for them. */
  fullName: string | null;
  /** Date of the newest finished upload (YYYY/MM/DD in the patient's zone), null without one. */
  lastUpload: string | null;
  daysWithData: number;
  /** Percentages and GMI with one decimal; null without readings in the window. */
  tir: string | null;
  below70: string | null;
  below54: string | null;
  gmi: string | null;
  flags: TriageFlag[];
};

export type TriageList = {
  sort: TriageSort;
  dir: SortDirection;
  flags: TriageFlag[];
  /** Patients matching the filter, on every page. */
  total: number;
  page: number;
  pages: number;
  items: TriageItem[];
  /** Local days in the window. */
  days: number;
  /** The numbers each flag's words name. */
  flagValues: Readonly<Record<TriageFlag, Readonly<Record<string, number>>>>;
  /** The band limits in the reader's unit, for the column heads ("3.0", "54"). */
  bands: { veryLow: string; low: string; high: string };
  unit: GlucoseUnit;
};

/**
 * The clinic's triage list: a clinic whose organisation is approved sees every patient who shares
 * with it, with the last 14 days' figures and flags, sorted, filtered and a page at a time; each
 * patient on the page is one access-log read (`read:triage`, the 14 dates). Anyone else: null (a
 * person keeps the plain patient list; a clinic not yet approved sees its audit state).
 */
export async function clinicTriage(
  viewer: Viewer,
  query: TriageQuery,
  { unit, locale, now = Date.now() }: { unit: GlucoseUnit; locale: string; now?: number },
): Promise<TriageList | null> {
  if (viewer.identity !== Identity.Clinic || !mayReadSharedData(viewer)) return null;
  const rows = await triageRows(viewer, { ...query, now });
  const pages = Math.max(1, Math.ceil(rows.length / TRIAGE_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const shown = rows.slice((page - 1) * TRIAGE_PAGE_SIZE, page * TRIAGE_PAGE_SIZE);
  await logListedReads({
    viewer,
    purpose: "triage",
    channel: "page",
    reads: shown.map((row) => ({
      patientId: row.patientId,
      range: quickRange(TRIAGE_DAYS, row.timeZone, now),
    })),
  });
  const percent = (value: number | null) =>
    value === null ? null : formatNumber(value, 1, locale);
  return {
    sort: query.sort,
    dir: query.dir,
    flags: query.flags,
    total: rows.length,
    page,
    pages,
    unit,
    days: TRIAGE_DAYS,
    flagValues: FLAG_VALUES,
    bands: {
      veryLow: formatGlucose(TRIAGE_BANDS.veryLow, unit, locale),
      low: formatGlucose(TRIAGE_BANDS.low, unit, locale),
      high: formatGlucose(TRIAGE_BANDS.high, unit, locale),
    },
    items: shown.map((row) => {
      const figures = triageFigures(row, now);
      const fullName = displayName(row);
      const nickName = row.nickName?.trim() || null;
      return {
        patientId: row.patientId,
        href: `/patientShow/${row.patientId}/${row.userId}/patientHome`,
        name: nickName ?? fullName,
        fullName: nickName ? fullName : null,
        lastUpload:
          row.lastUploadAt === null ? null : displayDate(localDate(row.lastUploadAt, row.timeZone)),
        daysWithData: figures.daysWithData,
        tir: percent(figures.tir),
        below70: percent(figures.below70),
        below54: percent(figures.below54),
        gmi: percent(figures.gmi),
        flags: [...figures.flags],
      };
    }),
  };
}
