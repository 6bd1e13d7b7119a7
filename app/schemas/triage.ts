import { z } from "zod";
import {
  TRIAGE_CATEGORIES,
  TRIAGE_DAYS,
  TRIAGE_PERIODS,
  type TriageCategory,
  type TriagePeriod,
} from "~/report/triage";

/** The triage list's flags (app/report/triage.ts says when each is raised). */
export const TRIAGE_FLAGS = ["noUpload", "belowRange", "lowTir"] as const;
export type TriageFlag = (typeof TRIAGE_FLAGS)[number];

/** The columns the list sorts by. */
export const TRIAGE_SORTS = [
  "name",
  "category",
  "lastUpload",
  "days",
  "wear",
  "tir",
  "change",
  "below70",
  "below54",
  "above180",
  "gmi",
  "flags",
] as const;
export type TriageSort = (typeof TRIAGE_SORTS)[number];
export type SortDirection = "asc" | "desc";

/**
 * The direction a column sorts in when first chosen: the patients who most need a look first
 * (the worst category, the oldest upload, the fewest days, the least wear and time in range, the
 * biggest drop of time in range, the most time below and above range, the highest GMI, the most
 * flags); names from A.
 */
export const FIRST_DIRECTION: Readonly<Record<TriageSort, SortDirection>> = {
  name: "asc",
  category: "asc",
  lastUpload: "asc",
  days: "asc",
  wear: "asc",
  tir: "asc",
  change: "asc",
  below70: "desc",
  below54: "desc",
  above180: "desc",
  gmi: "desc",
  flags: "desc",
};

/** The list opens on the worst category first. */
export const DEFAULT_SORT: TriageSort = "category";

/**
 * The query of the clinic's triage list on `/patientShow/patients` (plain GET parameters, so
 * choosing the period, sorting, filtering and paging work without JavaScript): `period` (7, 14 or
 * 30 days), `sort` (a column), `dir` (`asc` or `desc`, else the column's first direction), `flag`
 * (repeated: show only patients with any of these flags), `cat` (one category), `tag` (one of the
 * clinic's tags, by id) and `tpage` (the list's own page; `page` is the patient panel's). Every
 * field falls back to its default; nothing throws.
 */
export type TriageQuery = {
  period: TriagePeriod;
  sort: TriageSort;
  dir: SortDirection;
  flags: TriageFlag[];
  category: TriageCategory | null;
  tag: number | null;
  page: number;
};

const fields = z.object({
  period: z.coerce
    .number()
    .refine((n): n is TriagePeriod => (TRIAGE_PERIODS as readonly number[]).includes(n))
    .catch(TRIAGE_DAYS),
  sort: z.enum(TRIAGE_SORTS).catch(DEFAULT_SORT),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  cat: z.enum(TRIAGE_CATEGORIES).nullable().catch(null),
  tag: z.coerce.number().int().min(1).max(2_147_483_647).nullable().catch(null),
  tpage: z.coerce.number().int().min(1).max(100_000).catch(1),
});

const flag = z.enum(TRIAGE_FLAGS);

export function parseTriageQuery(params: URLSearchParams): TriageQuery {
  const { period, sort, dir, cat, tag, tpage } = fields.parse({
    period: params.get("period") ?? undefined,
    sort: params.get("sort") ?? undefined,
    dir: params.get("dir") ?? undefined,
    cat: params.get("cat") || null,
    tag: params.get("tag") || null,
    tpage: params.get("tpage") ?? undefined,
  });
  const flags = TRIAGE_FLAGS.filter((f) =>
    params.getAll("flag").some((value) => flag.safeParse(value).data === f),
  );
  return {
    period: period as TriagePeriod,
    sort,
    dir: dir ?? FIRST_DIRECTION[sort],
    flags,
    category: cat,
    tag,
    page: tpage,
  };
}
