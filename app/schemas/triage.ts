import { z } from "zod";

/** The triage list's flags (app/report/triage.ts says when each is raised). */
export const TRIAGE_FLAGS = ["noUpload", "belowRange", "lowTir"] as const;
export type TriageFlag = (typeof TRIAGE_FLAGS)[number];

/** The columns the list sorts by. */
export const TRIAGE_SORTS = [
  "name",
  "lastUpload",
  "days",
  "tir",
  "below70",
  "below54",
  "gmi",
  "flags",
] as const;
export type TriageSort = (typeof TRIAGE_SORTS)[number];
export type SortDirection = "asc" | "desc";

/**
 * The direction a column sorts in when first chosen: the patients who most need a look first
 * (the oldest upload, the fewest days and the least time in range, the most time below range,
 * the highest GMI, the most flags); names from A.
 */
export const FIRST_DIRECTION: Readonly<Record<TriageSort, SortDirection>> = {
  name: "asc",
  lastUpload: "asc",
  days: "asc",
  tir: "asc",
  below70: "desc",
  below54: "desc",
  gmi: "desc",
  flags: "desc",
};

/** The list opens on the most flags first. */
export const DEFAULT_SORT: TriageSort = "flags";

/**
 * The query of the clinic's triage list on `/patientShow/patients` (plain GET parameters, so
 * sorting, filtering and paging work without JavaScript): `sort` (a column), `dir` (`asc` or
 * `desc`, else the column's first direction), `flag` (repeated: show only patients with any of
 * these flags) and `tpage` (the list's own page; `page` is the patient panel's). Every field falls
 * back to its default; nothing throws.
 */
export type TriageQuery = {
  sort: TriageSort;
  dir: SortDirection;
  flags: TriageFlag[];
  page: number;
};

const fields = z.object({
  sort: z.enum(TRIAGE_SORTS).catch(DEFAULT_SORT),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  tpage: z.coerce.number().int().min(1).max(100_000).catch(1),
});

const flag = z.enum(TRIAGE_FLAGS);

export function parseTriageQuery(params: URLSearchParams): TriageQuery {
  const { sort, dir, tpage } = fields.parse({
    sort: params.get("sort") ?? undefined,
    dir: params.get("dir") ?? undefined,
    tpage: params.get("tpage") ?? undefined,
  });
  const flags = TRIAGE_FLAGS.filter((f) =>
    params.getAll("flag").some((value) => flag.safeParse(value).data === f),
  );
  return { sort, dir: dir ?? FIRST_DIRECTION[sort], flags, page: tpage };
}
