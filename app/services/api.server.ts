import type { ZodError } from "zod";
import { HeightUnit, WeightUnit } from "~/domain/body-measures";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { checkApiToken } from "~/models/api-token.server";
import type { Viewer } from "~/models/access.server";
import { getLocale } from "~/services/locale.server";
import { getFixedT } from "~/utils/i18n.server";
import { profilePhotoSrc } from "~/utils/profile-photo";
import { reportLogoSrc } from "~/utils/report-logo";
import { getSessionUser } from "./session.server";

/** Application codes of the `{ code, msg, data }` envelope (docs/api.md); 9999: account inactive. */
export const API_CODES = {
  ok: 200,
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  rateLimited: 429,
  error: 500,
  /** A service the call needs (the mail server) refused; nothing was kept, the call may be repeated. */
  unavailable: 503,
  inactive: 9999,
} as const;

const HTTP_STATUS: Record<number, number> = {
  200: 200,
  400: 400,
  401: 401,
  403: 403,
  404: 404,
  409: 409,
  413: 413,
  429: 429,
  500: 500,
  503: 503,
  9999: 403,
};

export function apiResponse(
  code: number,
  msg: string,
  data: unknown = null,
  headers?: HeadersInit,
): Response {
  const status = HTTP_STATUS[code] ?? (code >= 800 && code < 900 ? 401 : 400);
  return Response.json(
    { code, msg, data },
    {
      status,
      headers: { "Cache-Control": "no-store", ...Object.fromEntries(new Headers(headers)) },
    },
  );
}

/** A translated message from the `api` namespace (or any `ns:key`) in the caller's language. */
export async function apiMessage(
  request: Request,
  key: string,
  values?: Record<string, unknown>,
): Promise<string> {
  const [ns, bare] = key.includes(":") ? (key.split(":", 2) as [string, string]) : ["api", key];
  const t = await getFixedT(await getLocale(request), ns);
  return t(bare, values ?? {}) as string;
}

export async function apiOk(request: Request, data: unknown, msgKey = "ok", headers?: HeadersInit) {
  return apiResponse(API_CODES.ok, await apiMessage(request, msgKey), data, headers);
}

export async function apiFail(
  request: Request,
  code: number,
  msgKey: string,
  values?: Record<string, unknown>,
) {
  return apiResponse(code, await apiMessage(request, msgKey, values));
}

/** The 5xx envelope: a translated apology and the request id that finds the failure in the log. */
export async function apiServerError(request: Request, requestId: string) {
  return apiResponse(API_CODES.error, await apiMessage(request, "error"), { requestId });
}

const INVALID_KEY = "validation:input.invalid";

/**
 * 400 with the first validation message, translated: messages are keys of `ns` (or of the shared
 * `validation` namespace); a message that is no key (a library's default text) answers the
 * generic "not valid" message in the caller's language.
 */
export async function apiInvalid(request: Request, error: ZodError, ns = "auth") {
  const key = error.issues[0]?.message ?? INVALID_KEY;
  const t = await getFixedT(await getLocale(request), ns);
  const translated = t(key) as string;
  const msg = translated === key ? (t(INVALID_KEY) as string) : translated;
  return apiResponse(API_CODES.invalid, msg, { fields: error.flatten().fieldErrors });
}

/**
 * The caller of an `/api/` route: from its `token` header, or, without one, from the signed-in
 * page session (the upload centre calls the API from the browser; a request from another site is
 * refused before any route runs, and the session cookie is SameSite=Lax). Throws the envelope for
 * 800-807 and 9999. The token's or session's own query reads the account: no second look-up.
 */
export async function requireApiViewer(
  request: Request,
  { allowInactive = false } = {},
): Promise<Viewer> {
  const token = request.headers.get("token");
  if (!token) {
    const user = await getSessionUser(request);
    if (user) {
      if (!user.active && !allowInactive)
        throw await apiFail(request, API_CODES.inactive, "inactive");
      return { id: user.id, identity: user.identity, isPass: user.isPass, role: user.role };
    }
  }
  const check = await checkApiToken(token);
  if (!check.ok) throw await apiFail(request, check.code, `token.${check.code}`);
  if (!check.active && !allowInactive) throw await apiFail(request, API_CODES.inactive, "inactive");
  return check.viewer;
}

/** The id of an `/api/` route's caller (see {@link requireApiViewer}). */
export async function requireApiUserId(request: Request, options = {}): Promise<number> {
  return (await requireApiViewer(request, options)).id;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** A refused body: the envelope's 400 with a translated message, thrown like the token codes. */
async function badBody(
  request: Request,
  reason: "invalidJson" | "notAnObject" | "contentType",
): Promise<never> {
  throw await apiFail(request, API_CODES.invalid, `validation:input.body.${reason}`);
}

/**
 * Reads a request body: JSON (`application/json`, any JSON value) or a form (URL-encoded or
 * multipart, as an object of its fields). No body and no content type reads as `{}`. Malformed
 * JSON, a body of any other content type, and a form that cannot be read throw the envelope's 400.
 */
export async function readPayload(request: Request): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") {
    const text = await request.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return badBody(request, "invalidJson");
    }
  }
  if (FORM_TYPES.includes(type)) {
    try {
      return Object.fromEntries(await request.formData());
    } catch {
      return badBody(request, "contentType");
    }
  }
  if (type === "" && (await request.text()) === "") return {};
  return badBody(request, "contentType");
}

/** Reads a JSON object or a form as a plain object (API clients send JSON); anything else throws the envelope's 400. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readPayload(request);
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return badBody(request, "notAnObject");
  return body as Record<string, unknown>;
}

/** For POST-only `/api/` routes: a GET answers the envelope, not an HTML page. */
export function postOnly() {
  return async ({ request }: { request: Request }) =>
    apiFail(request, API_CODES.notFound, "methodNotAllowed");
}

/**
 * The user-info shape of the API (GET /api/user/getUserInfo). `imagePath`: the profile photo's
 * address, else the report logo's, else null. Downloads run in the browser and the server sees no
 * progress of them, so `downLoadPercnet` is always 100 (none running).
 */
export function userInfo(user: {
  id: number;
  email: string;
  identity: number;
  role: string;
  isPass: number;
  auditReason: string | null;
  firstName: string | null;
  lastName: string | null;
  patient: { id: number } | null;
  setting: {
    unit: number;
    lang: string;
    weightUnit: number;
    heightUnit: number;
    reportLogoType: string | null;
    updatedAt: Date;
  } | null;
  photo: { updatedAt: Date } | null;
}) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;
  return {
    name,
    financeId: null,
    email: user.email,
    isPass: user.isPass,
    identity: user.identity,
    role: user.role,
    userId: user.id,
    pid: user.patient?.id ?? null,
    reason: user.auditReason,
    firstName: user.firstName,
    lastName: user.lastName,
    unit: user.setting?.unit ?? GlucoseUnit.Mmol,
    weightUnit: user.setting?.weightUnit ?? WeightUnit.Kg,
    heightUnit: user.setting?.heightUnit ?? HeightUnit.Cm,
    lang: user.setting?.lang ?? "en",
    imagePath: user.photo
      ? profilePhotoSrc(user.photo.updatedAt.getTime())
      : user.setting?.reportLogoType
        ? reportLogoSrc(user.setting.updatedAt.getTime())
        : null,
    downLoadPercnet: 100,
  };
}
