import type { Viewer } from "~/models/access.server";
import type { TriageQuery } from "~/schemas/triage";
import type { RenderClaim } from "~/utils/render-token.server";

/**
 * The printable triage summary (`/triageprint`) and its PDF (`/triageprint.pdf`): what both
 * share. The summary takes the list's period, category and tag; it always lists every patient
 * (no page of 20), by category, the least time in range first.
 */

/** The summary's own query: the list's, sorted by category, every patient. */
export function summaryQuery(query: TriageQuery): TriageQuery {
  return { ...query, sort: "category", dir: "asc", flags: [], page: 1 };
}

/** The summary's address parameters (period, category, tag). */
export function summaryParams(query: TriageQuery): URLSearchParams {
  const params = new URLSearchParams({ period: String(query.period) });
  if (query.category) params.set("cat", query.category);
  if (query.tag !== null) params.set("tag", String(query.tag));
  return params;
}

/**
 * The claim a PDF's render token vouches for: this clinic's summary of these parameters. The
 * summary page loaded with a valid token is the PDF's rendering: its access-log rows say `pdf`.
 */
export function summaryClaim(viewer: Viewer, query: TriageQuery): RenderClaim {
  return {
    viewerId: viewer.id,
    pid: 0,
    purpose: "triage-summary",
    start: String(query.period),
    end: `${query.category ?? ""}:${query.tag ?? ""}`,
  };
}
