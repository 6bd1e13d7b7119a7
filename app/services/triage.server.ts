import { Identity } from "~/domain/codes";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { mayReadSharedData, type Viewer } from "~/models/access.server";
import { triageRows } from "~/models/triage.server";
import { localDate } from "~/report/day";
import { formatDate } from "~/report/locale-format";
import { quickRange } from "~/report/quick-ranges";
import {
  CATEGORY_VALUES,
  FLAG_VALUES,
  TRIAGE_BANDS,
  TRIAGE_CATEGORIES,
  triageFigures,
  type TriageCategory,
  type TriagePeriod,
} from "~/report/triage";
import { formatGlucose, formatNumber } from "~/report/units";
import type { SortDirection, TriageFlag, TriageQuery, TriageSort } from "~/schemas/triage";
import { displayName } from "~/utils/names";
import { clinicTags, type ClinicTag } from "~/models/clinic-tags.server";
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
  category: TriageCategory;
  /** Sensor wear, percent with no decimal. */
  wear: string;
  /** Percent above 180 mg/dL, one decimal; null without readings. */
  above180: string | null;
  /** Time in range now minus the previous period's, points with one decimal and a sign; null unless both have readings. */
  change: string | null;
  /** The clinic's tags on the patient, by name. */
  tags: { id: number; name: string }[];
};

export type TriageList = {
  period: TriagePeriod;
  category: TriageCategory | null;
  tag: number | null;
  /** Patients per category, over the patients every other filter leaves. */
  counts: Record<TriageCategory, number>;
  /** The numbers each category's words name. */
  categoryValues: Readonly<Record<TriageCategory, Readonly<Record<string, number>>>>;
  /** The clinic's tags. */
  tags: ClinicTag[];
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
  bands: { veryLow: string; low: string; high: string; veryHigh: string };
  unit: GlucoseUnit;
};

/** A signed figure with one decimal: "+2.5", "−15.0", "0.0". */
function signed(value: number, locale: string): string {
  const text = formatNumber(Math.abs(value), 1, locale);
  if (Number(Math.abs(value).toFixed(1)) === 0) return text;
  return `${value > 0 ? "+" : "\u2212"}${text}`;
}

/** The patients of every category, counted over the rows the other filters leave. */
export function countCategories(rows: readonly { category: TriageCategory }[]) {
  const counts = Object.fromEntries(TRIAGE_CATEGORIES.map((c) => [c, 0])) as Record<
    TriageCategory,
    number
  >;
  for (const row of rows) counts[row.category]++;
  return counts;
}

/**
 * The clinic's triage view: a clinic whose organisation is approved sees every patient who shares
 * with it, with the chosen period's figures (7, 14 or 30 days), the change of time in range from
 * the period before, the category and flags, its own tags, the count of each category, sorted,
 * filtered (flags, tag, category) and a page at a time; each patient on the page is one
 * access-log read (`read:triage`, the period's dates). `pageSize` null: every patient on one page
 * (the printable summary). Anyone else: null (a person keeps the plain patient list; a clinic not
 * yet approved sees its audit state).
 */
export async function clinicTriage(
  viewer: Viewer,
  query: TriageQuery,
  {
    unit,
    locale,
    now = Date.now(),
    pageSize = TRIAGE_PAGE_SIZE,
    channel = "page",
  }: {
    unit: GlucoseUnit;
    locale: string;
    now?: number;
    pageSize?: number | null;
    channel?: "page" | "pdf";
  },
): Promise<TriageList | null> {
  if (viewer.identity !== Identity.Clinic || !mayReadSharedData(viewer)) return null;
  const tags = await clinicTags(viewer);
  const tagNames = new Map(tags.map((t) => [t.id, t.name]));
  // A tag filter naming a tag the clinic does not have is dropped (it would list nobody).
  const tag = query.tag !== null && tagNames.has(query.tag) ? query.tag : null;
  const all = await triageRows(viewer, { ...query, tag, now });
  const counts = countCategories(all);
  const rows = query.category ? all.filter((r) => r.category === query.category) : all;
  const size = pageSize ?? Math.max(1, rows.length);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const page = Math.min(query.page, pages);
  const shown = rows.slice((page - 1) * size, page * size);
  await logListedReads({
    viewer,
    purpose: "triage",
    channel,
    reads: shown.map((row) => ({
      patientId: row.patientId,
      range: quickRange(query.period, row.timeZone, now),
    })),
  });
  const percent = (value: number | null) =>
    value === null ? null : formatNumber(value, 1, locale);
  return {
    period: query.period,
    category: query.category,
    tag,
    counts,
    categoryValues: CATEGORY_VALUES,
    tags,
    sort: query.sort,
    dir: query.dir,
    flags: query.flags,
    total: rows.length,
    page,
    pages,
    unit,
    days: query.period,
    flagValues: FLAG_VALUES,
    bands: {
      veryLow: formatGlucose(TRIAGE_BANDS.veryLow, unit, locale),
      low: formatGlucose(TRIAGE_BANDS.low, unit, locale),
      high: formatGlucose(TRIAGE_BANDS.high, unit, locale),
      veryHigh: formatGlucose(TRIAGE_BANDS.veryHigh, unit, locale),
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
          row.lastUploadAt === null
            ? null
            : formatDate(localDate(row.lastUploadAt, row.timeZone), locale),
        daysWithData: figures.daysWithData,
        tir: percent(figures.tir),
        below70: percent(figures.below70),
        below54: percent(figures.below54),
        gmi: percent(figures.gmi),
        flags: [...figures.flags],
        category: row.category,
        wear: formatNumber(figures.wear, 0, locale),
        above180: percent(figures.above180),
        change: figures.tirChange === null ? null : signed(figures.tirChange, locale),
        tags: row.tagIds.flatMap((id) => {
          const name = tagNames.get(id);
          return name === undefined ? [] : [{ id, name }];
        }),
      };
    }),
  };
}
