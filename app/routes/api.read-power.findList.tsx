import type { LoaderFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { listSharedWithMeEntries, listSharedWithOthers } from "~/models/read-power-list.server";
import { findListQuery } from "~/schemas/read-power";
import { apiFail, apiInvalid, apiOk, requireApiUserId } from "~/services/api.server";

/**
 * GET /api/read-power/findList (pageNum, pageSize ≤ 10, searchOption, tab = me | others):
 * tab 1 "shared with me", or tab 2 "shared with others" (identity 1 only). Answers { data, count }.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = findListQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const { pageNum, pageSize, searchOption, tab } = parsed.data;
  const options = { page: pageNum, pageSize, search: searchOption };
  if (tab === "me") return apiOk(request, await listSharedWithMeEntries(viewer, options));
  const result = await listSharedWithOthers(viewer, options);
  return result.ok ? apiOk(request, result.data) : apiFail(request, result.status, result.error);
}
