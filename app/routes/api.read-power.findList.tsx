import { listSharedWithMeEntries, listSharedWithOthers } from "~/models/read-power-list.server";
import { findListQuery } from "~/schemas/read-power";
import { listOptions, shareLoader } from "~/services/read-power-api.server";

/**
 * GET /api/read-power/findList (pageNum, pageSize ≤ 10, searchOption, tab = me | others):
 * tab 1 "shared with me", or tab 2 "shared with others" (identity 1 only). Answers { data, count }.
 */
export const loader = shareLoader(
  () => findListQuery,
  async (viewer, query) =>
    query.tab === "me"
      ? { ok: true, data: await listSharedWithMeEntries(viewer, listOptions(query)) }
      : listSharedWithOthers(viewer, listOptions(query)),
);
