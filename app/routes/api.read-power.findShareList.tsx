import { searchShareCandidates } from "~/models/read-power-list.server";
import { findShareListQuery } from "~/schemas/read-power";
import { listOptions, shareLoader } from "~/services/read-power-api.server";

/**
 * GET /api/read-power/findShareList (pageNum, pageSize ≤ 10, searchOption, type): the drawers'
 * search by whole email: "add share" for a person, "add invite" (type 2) for a clinic. Answers
 * { data: [{ userId, name, email, identity, readPowerId, state }], count } with at most one row;
 * code 429 (and Retry-After) past 20 searches in 10 minutes.
 */
export const loader = shareLoader(
  (viewer) => findShareListQuery(viewer.identity),
  (viewer, query) => searchShareCandidates(viewer, listOptions(query)),
);
