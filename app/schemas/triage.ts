import { z } from "zod";
import {
  DEFAULT_SORT,
  FIRST_DIRECTION,
  TRIAGE_FLAGS,
  TRIAGE_SORTS,
  type SortDirection,
  type TriageFlag,
  type TriageSort,
} from "~/report/triage";

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
