import { z } from "zod";
import type { Viewer } from "~/models/access.server";
import { parseTriageQuery, type TriageQuery } from "~/schemas/triage";
import type { RenderClaim } from "~/utils/render-token.server";

/**
 * The printable triage summary (`/triageprint`) and its PDF (`/triageprint.pdf`): what both
 * share. The summary takes the list's period, category and tag, sorted by category (the most
 * urgent first), the least time in range first within one. By default it is one page: the counts
 * of every category and the first {@link SUMMARY_ONE_PAGE_ROWS} patients of that order, so a team
 * meeting gets the patients to talk about on one sheet; `all=1` prints every patient, page after
 * page.
 */

/**
 * Patient rows that fit one page with the header, the counts, the column heads and up to seven
 * category heading rows, on A4 and on US Letter (17.6 mm shorter) alike: 8 pt rows of about
 * 4.1 mm leave room for about 41 on Letter; 36 keep a margin for longer headings in other
 * languages.
 */
export const SUMMARY_ONE_PAGE_ROWS = 36;

export type SummaryQuery = TriageQuery & {
  /** Every patient (several pages) rather than the most urgent on one page. */
  everyPatient: boolean;
};

const everyPatientField = z.enum(["1"]).optional().catch(undefined);

/** The summary's own query from its address: the list's, sorted by category, from the first row. */
export function parseSummaryQuery(params: URLSearchParams): SummaryQuery {
  return {
    ...parseTriageQuery(params),
    sort: "category",
    dir: "asc",
    flags: [],
    page: 1,
    everyPatient: everyPatientField.parse(params.get("all") ?? undefined) === "1",
  };
}

/** The summary's address parameters (period, category, tag, every patient). */
export function summaryParams(query: SummaryQuery): URLSearchParams {
  const params = new URLSearchParams({ period: String(query.period) });
  if (query.category) params.set("cat", query.category);
  if (query.tag !== null) params.set("tag", String(query.tag));
  if (query.everyPatient) params.set("all", "1");
  return params;
}

/**
 * The claim a PDF's render token vouches for: this clinic's summary of these parameters. The
 * summary page loaded with a valid token is the PDF's rendering: its access-log rows say `pdf`.
 */
export function summaryClaim(viewer: Viewer, query: SummaryQuery): RenderClaim {
  return {
    viewerId: viewer.id,
    pid: 0,
    purpose: "triage-summary",
    start: String(query.period),
    end: `${query.category ?? ""}:${query.tag ?? ""}:${query.everyPatient ? "all" : "page"}`,
  };
}
