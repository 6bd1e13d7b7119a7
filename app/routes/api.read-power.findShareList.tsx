import type { LoaderFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { searchShareCandidates } from "~/models/read-power-list.server";
import { findShareListQuery } from "~/schemas/read-power";
import { apiFail, apiInvalid, apiOk, requireApiUserId } from "~/services/api.server";
import { apiThrottled } from "~/services/throttle-response.server";

/**
 * GET /api/read-power/findShareList (pageNum, pageSize ≤ 10, searchOption, type): the drawers'
 * search by whole email: "add share" for a person, "add invite" (type 2) for a clinic. Answers
 * { data: [{ userId, name, email, identity, readPowerId, state }], count } with at most one row;
 * code 429 (and Retry-After) past 20 searches in 10 minutes.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = findShareListQuery(viewer.identity).safeParse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const { pageNum, pageSize, searchOption } = parsed.data;
  const result = await searchShareCandidates(viewer, {
    page: pageNum,
    pageSize,
    search: searchOption,
  });
  if (result.ok) return apiOk(request, result.data);
  return "retryAfterSeconds" in result
    ? apiThrottled(request, result.error, result.retryAfterSeconds)
    : apiFail(request, result.status, result.error);
}
