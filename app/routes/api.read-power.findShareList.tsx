import type { LoaderFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { searchShareCandidates } from "~/models/read-power.server";
import { findShareListQuery } from "~/schemas/read-power";
import { apiFail, apiInvalid, apiOk, requireApiUserId } from "~/utils/api.server";

/**
 * GET /api/read-power/findShareList (pageNum, pageSize ≤ 10, searchOption, type): the drawers'
 * search by email: "add share" for a person, "add invite" (type 2) for a clinic. Answers
 * { data: [{ userId, name, email, identity, readPowerId, state }], count }.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = findShareListQuery(viewer.identity).safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const { pageNum, pageSize, searchOption } = parsed.data;
  const result = await searchShareCandidates(viewer, { page: pageNum, pageSize, search: searchOption });
  return result.ok ? apiOk(request, result.data) : apiFail(request, result.status, result.error);
}
