import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import type { Viewer } from "~/models/access.server";
import type { ListOptions } from "~/models/read-power-list.server";
import type { ShareResult, ShareThrottled } from "~/models/read-power.server";
import { apiFail, apiInvalid, apiOk, readBody, requireApiViewer } from "~/services/api.server";
import { apiThrottled } from "~/services/throttle-response.server";

/**
 * The course of an `/api/read-power/` call: the caller, the input checked with the call's schema
 * (400 with the `sharing` namespace's message), the sharing operation, and its answer in
 * `{ code, msg, data }`: the data with the call's success message, or the refusal's code and
 * message (429 with Retry-After for the search limit).
 */

type Schema<I> = z.ZodType<I, z.ZodTypeDef, unknown>;
type ShareAnswer = ShareResult<unknown> | ShareThrottled;

/** The wire names of a page of a list (pageNum, pageSize, searchOption) as list options. */
export function listOptions<Q extends { pageNum: number; pageSize: number; searchOption?: string }>(
  query: Q,
): ListOptions & { search: Q["searchOption"] } {
  return { page: query.pageNum, pageSize: query.pageSize, search: query.searchOption };
}

async function answer<I>(
  request: Request,
  input: unknown,
  schema: Schema<I>,
  operation: (input: I) => Promise<ShareAnswer>,
  okKey: string,
): Promise<Response> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await operation(parsed.data);
  if (result.ok) return apiOk(request, result.data, okKey);
  return "retryAfterSeconds" in result
    ? apiThrottled(request, result.error, result.retryAfterSeconds)
    : apiFail(request, result.status, result.error);
}

/** A POST call of the caller of the `token` header (or the page session): the body is the input. */
export function shareAction<I>(
  schema: Schema<I>,
  operation: (viewer: Viewer, input: I) => Promise<ShareAnswer>,
  okKey: string,
) {
  return async ({ request }: ActionFunctionArgs) => {
    const viewer = await requireApiViewer(request);
    const body = await readBody(request);
    return answer(request, body, schema, (input) => operation(viewer, input), okKey);
  };
}

/** A POST call answered from an invitation email's link, without signing in. */
export function linkAction<I>(
  schema: Schema<I>,
  operation: (input: I) => Promise<ShareAnswer>,
  okKey: string,
) {
  return async ({ request }: ActionFunctionArgs) =>
    answer(request, await readBody(request), schema, operation, okKey);
}

/**
 * A GET call of the caller of the `token` header (or the page session): the query string is the
 * input, checked with the schema for that caller.
 */
export function shareLoader<I>(
  schemaFor: (viewer: Viewer) => Schema<I>,
  operation: (viewer: Viewer, input: I) => Promise<ShareAnswer>,
) {
  return async ({ request }: LoaderFunctionArgs) => {
    const viewer = await requireApiViewer(request);
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return answer(request, query, schemaFor(viewer), (input) => operation(viewer, input), "ok");
  };
}
