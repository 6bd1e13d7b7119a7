import type { ActionFunctionArgs, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { API_CODES, apiMessage, apiResponse, apiServerError } from "../app/services/api.server";
import { getFixedT } from "../app/utils/i18n.server";
import { errorForLog, logger } from "../app/utils/logger.server";

type DataFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;
type RouteModule = ServerBuild["routes"][string]["module"];

/** Redirects, error responses and `data()` results are answers, not failures. */
function isAnswer(thrown: unknown): boolean {
  return (
    thrown instanceof Response ||
    (typeof thrown === "object" &&
      thrown !== null &&
      (thrown as { type?: unknown }).type === "DataWithResponseInit")
  );
}

async function translatedOrEnglish(
  request: Request,
  key: string,
  values?: Record<string, unknown>,
): Promise<string> {
  try {
    return await apiMessage(request, key, values);
  } catch {
    return (await getFixedT("en", "api"))(key, values ?? {}) as string;
  }
}

/** 413: the page's error boundary explains it in the visitor's language; `/api/` gets the envelope. */
async function tooLarge(args: ActionFunctionArgs, api: boolean, limit: number): Promise<Response> {
  const limitKb = Math.floor(limit / 1024);
  if (!api) return Response.json({ limitKb }, { status: 413 });
  return apiResponse(
    API_CODES.tooLarge,
    await translatedOrEnglish(args.request, "tooLarge", { limitKb }),
    { limitKb },
  );
}

/**
 * An unexpected failure: logged with the request id (without the data its message may quote),
 * then answered 500 with that id, as the `/api/` envelope or as an error response whose page shows
 * the id, so that a problem a user reports can be found in the log.
 */
async function serverError(
  args: LoaderFunctionArgs,
  api: boolean,
  error: unknown,
): Promise<Response> {
  const requestId = args.context.requestId ?? "unknown";
  (args.context.log ?? logger()).error({ err: errorForLog(error) }, "request failed");
  if (!api) return Response.json({ requestId }, { status: 500 });
  try {
    return await apiServerError(args.request, requestId);
  } catch {
    return apiResponse(API_CODES.error, await translatedOrEnglish(args.request, "error"), {
      requestId,
    });
  }
}

function guard(fn: DataFunction, api: boolean, action: boolean): DataFunction {
  return async (args) => {
    const refusedBody = args.context.bodyTooLarge;
    if (action && refusedBody) {
      const answer = await tooLarge(args, api, refusedBody.limit);
      if (api) return answer;
      throw answer;
    }
    try {
      return await fn(args);
    } catch (thrown) {
      if (isAnswer(thrown) || args.request.signal.aborted) throw thrown;
      const answer = await serverError(args, api, thrown);
      if (api) return answer;
      throw answer;
    }
  };
}

/**
 * The build with every loader and action guarded: an action whose body passed its cap does not
 * run (413), and an unexpected failure answers 500 with the request id. `/api/` routes answer in
 * their `{code, msg, data}` envelope.
 */
export function guardRoutes(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const api = id.startsWith("routes/api.");
      const module: RouteModule = { ...route.module };
      if (module.loader)
        module.loader = guard(module.loader as DataFunction, api, false) as RouteModule["loader"];
      if (module.action)
        module.action = guard(module.action as DataFunction, api, true) as RouteModule["action"];
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}
