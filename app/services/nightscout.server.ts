import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { findVisiblePatient, type Viewer } from "~/models/access.server";
import {
  createLink,
  deviceStatuses,
  keepDeviceStatus,
  linkForAuth,
  linksOfPatient,
  mbgRows,
  profileSources,
  revokeLink,
  sgvRows,
  touchLink,
  treatmentParts,
  type LinkForAuth,
  type LinkKind,
  type ReadWindow,
} from "~/models/nightscout.server";
import { clientIp, hitRateLimit, RATE_LIMITS, rateLimitExceeded } from "~/models/rate-limit.server";
import { inTransaction } from "~/models/transaction.server";
import { entriesToRows, treatmentsToRows, nsRecordKey, type NsRefusal } from "~/ingest/nightscout";
import { AGP_GOAL_BOUNDS } from "~/report/agp-report";
import {
  NS_DEFAULT_COUNT,
  NS_MAX_RECORDS,
  NS_TREATMENTS_COUNT,
  NS_TREATMENTS_FIND_COUNT,
  nsDeviceStatusSchema,
  nsReadQuery,
  type NsCall,
} from "~/schemas/nightscout";
import {
  mbgEntry,
  nsUnits,
  segmentsOf,
  sgvEntry,
  treatmentOf,
  type NsTreatment,
} from "~/wire/nightscout";
import { getFixedT } from "~/utils/i18n.server";
import { mgdlToMmol } from "~/domain/glucose-unit";
import { getLocale } from "./locale.server";
import { ingestNightscout } from "./ingest.server";
import { logRefusedLinkCall, readThroughLink } from "./patient-read.server";

/**
 * The Nightscout API (REST API v1, the subset uploaders and reader tools use) on a patient's
 * links: `/ns/<link id>/api/v1/...` (docs/nightscout-api.md,
 * docs/decisions/021-nightscout-api.md).
 *
 * Deny by default: nothing is answered without a link that exists, is not revoked, and whose
 * secret the call presents (the `api-secret` header with the SHA-1 hex of the secret, as
 * uploaders send it, or the secret itself as `token=` in the query or as `Authorization: Bearer`).
 * Only SHA-256 of the SHA-1 hex is stored; the comparison takes constant time. A read link
 * (a reader tool's token) cannot write. Failures are counted per client IP and refused for a while
 * past a limit; calls are counted per link. Every granted call goes through the access gateway,
 * which writes the patient's access log (channel `nightscout`); a refused call on a known link is
 * logged for the patient too.
 */

/** Answers carry Nightscout's shapes, without the app's `{code, msg, data}` envelope. */
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "api-secret, authorization, content-type",
};

function nsJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...CORS_HEADERS, ...headers } });
}

/** A refusal in Nightscout's error shape, its message in the caller's language (English by default). */
async function nsError(
  request: Request,
  status: number,
  key: string,
  values: Record<string, string | number> = {},
): Promise<Response> {
  const t = await getFixedT(await getLocale(request), "nightscout");
  return nsJson({ status, message: t(`errors.${key}`, values) }, status);
}

// ---------------------------------------------------------------------------------------------
// Secrets

/** A link id: 128 random bits as 22 characters of base64url. */
const LINK_ID = /^[A-Za-z0-9_-]{22}$/;

const sha1Hex = (text: string) => createHash("sha1").update(text).digest("hex");
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The stored form of a secret: SHA-256 of the SHA-1 hex the uploaders send. A credential of 40
 * hex digits is that SHA-1 hex already; anything else is the secret itself (a token in the query).
 * SHA-256 (not a slow password hash) because the secret is 192 random bits, not a password, and
 * it is checked on every reading an uploader posts.
 */
export function storedSecretHash(credential: string): string {
  const sha1 = /^[0-9a-fA-F]{40}$/.test(credential)
    ? credential.toLowerCase()
    : sha1Hex(credential);
  return sha256Hex(sha1);
}

/** The credential a call presents: `api-secret` header, `token=` (or `secret=`) query, or a bearer token. */
export function credentialOf(request: Request, url: URL): string | null {
  const header = request.headers.get("api-secret")?.trim();
  if (header) return header;
  const query = url.searchParams.get("token") ?? url.searchParams.get("secret");
  if (query) return query;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return bearer ? bearer[1]! : null;
}

const DUMMY_HASH = "0".repeat(64);

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}

// ---------------------------------------------------------------------------------------------
// Links: made, listed and revoked by the patient or an account with upload rights

export type NewLink = { id: string; secret: string; kind: LinkKind };

/**
 * Makes a link for patient `pid` if the viewer may upload for the patient (their own record, or
 * an accepted share to an audited reader, as for the upload centre). The secret (192 random bits)
 * is answered once and only its hash is kept.
 */
export async function makeLink(
  viewer: Viewer,
  pid: number,
  input: { name: string; kind: LinkKind },
): Promise<NewLink | null> {
  const patient = await findVisiblePatient(viewer, pid);
  if (!patient) return null;
  const id = randomBytes(16).toString("base64url");
  const secret = randomBytes(24).toString("base64url");
  await createLink({
    id,
    patientId: patient.id,
    createdById: viewer.id,
    name: input.name,
    kind: input.kind,
    secretHash: storedSecretHash(secret),
  });
  return { id, secret, kind: input.kind };
}

/** The patient's links, if the viewer may upload for the patient; null otherwise. */
export async function linksFor(viewer: Viewer, pid: number) {
  const patient = await findVisiblePatient(viewer, pid);
  if (!patient) return null;
  return { patient, links: await linksOfPatient(patient.id) };
}

/** Revokes a link of the patient, if the viewer may upload for the patient. */
export async function revokeLinkFor(viewer: Viewer, pid: number, id: string): Promise<boolean> {
  const patient = await findVisiblePatient(viewer, pid);
  if (!patient) return false;
  return revokeLink(patient.id, id);
}

/** The addresses an app is set up with: the base URL, and the same with the secret as user info (xDrip+'s form). */
export function linkAddresses(origin: string, link: { id: string; secret?: string }) {
  const base = `${origin}/ns/${link.id}/api/v1/`;
  const url = new URL(base);
  if (link.secret) url.username = link.secret;
  return {
    base,
    withSecret: link.secret ? url.toString() : null,
    readerUrl: link.secret ? `${origin}/ns/${link.id}?token=${link.secret}` : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The calls

const WRITE_CALLS: ReadonlySet<NsCall> = new Set(["entries", "treatments", "devicestatus"]);

type Authorised = { link: LinkForAuth; viewer: Viewer };

/**
 * Checks a call's link and credential; answers the refusal (401, or 429 when throttled), or the
 * link with the viewer its maker is. `call` names the call for the log.
 */
async function authorise(
  request: Request,
  url: URL,
  linkId: string,
  call: string,
  write: boolean,
): Promise<Authorised | Response> {
  const ipKey = `ns:fail:ip:${clientIp(request)}`;
  if (await rateLimitExceeded(ipKey, RATE_LIMITS.nightscoutFailuresPerIp))
    return nsError(request, 429, "tooMany");
  const credential = credentialOf(request, url);
  const link = LINK_ID.test(linkId) ? await linkForAuth(linkId) : null;
  const presented = credential ? storedSecretHash(credential) : DUMMY_HASH;
  const matches = sameHash(link?.secretHash ?? DUMMY_HASH, presented) && credential !== null;
  const reason = !link
    ? "unknownLink"
    : !matches
      ? "secret"
      : link.revoked
        ? "revoked"
        : !link.patientUsable || !link.creatorUsable
          ? "account"
          : write && link.kind !== "upload"
            ? "readOnly"
            : null;
  if (reason !== null) {
    await hitRateLimit(ipKey, RATE_LIMITS.nightscoutFailuresPerIp);
    if (link) await logRefusedLinkCall({ pid: link.patientId, linkId: link.id, call, reason });
    return nsError(request, 401, "unauthorized");
  }
  const perLink = await hitRateLimit(`ns:link:${link!.id}`, RATE_LIMITS.nightscoutCallsPerLink);
  if (!perLink.allowed) return nsError(request, 429, "tooMany");
  return {
    link: link!,
    viewer: {
      id: link!.creatorId,
      identity: link!.creatorIdentity,
      isPass: link!.creatorIsPass,
      role: link!.creatorRole,
    },
  };
}

/** Reads a post's body: one JSON object or an array of them. */
async function postedRecords(request: Request): Promise<unknown[] | null> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return null;
  }
  if (Array.isArray(body)) return body;
  return body !== null && typeof body === "object" ? [body] : null;
}

/** Per-record refusals as answer headers: how many, and the first 50 as `position:reason`. */
function refusalHeaders(refused: readonly NsRefusal[]): Record<string, string> {
  if (refused.length === 0) return {};
  return {
    "DiaCare-Refused": String(refused.length),
    "DiaCare-Refused-Reasons": refused
      .slice(0, 50)
      .map((r) => `${r.index}:${r.reason}`)
      .join(","),
  };
}

/**
 * One call: `call` is the path after `/api/v1/` read as a call (null: none the app answers),
 * `method` GET, POST or OPTIONS (a browser's preflight).
 */
export async function nightscoutCall(
  request: Request,
  linkId: string,
  call: NsCall | null,
): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
  const url = new URL(request.url);
  const write = method === "POST";
  const name = call ?? "unknown";
  const auth = await authorise(request, url, linkId, name, write);
  if (auth instanceof Response) return auth;
  if (call === null) return nsError(request, 404, "notFound");
  if ((write && !WRITE_CALLS.has(call)) || (method !== "GET" && method !== "POST"))
    return nsError(request, 405, "method");
  const patient = await readThroughLink({
    viewer: auth.viewer,
    pid: auth.link.patientId,
    linkId: auth.link.id,
    call: name,
    write,
  });
  if (!patient) {
    await logRefusedLinkCall({
      pid: auth.link.patientId,
      linkId: auth.link.id,
      call: name,
      reason: "noRights",
    });
    return nsError(request, 401, "unauthorized");
  }
  await touchLink(auth.link.id);
  const ctx = { request, url, link: auth.link, patientId: patient.id, timeZone: patient.timeZone };
  if (write) {
    if (call === "entries") return postEntries(ctx);
    if (call === "treatments") return postTreatments(ctx);
    return postDeviceStatus(ctx);
  }
  switch (call) {
    case "entries":
    case "sgv":
    case "current":
      return getEntries(ctx, call);
    case "treatments":
      return getTreatments(ctx);
    case "devicestatus":
      return getDeviceStatus(ctx);
    case "profile":
      return nsJson([await profileOf(ctx)]);
    case "status":
      return nsJson(statusOf(ctx.link));
    case "verifyauth":
      return nsJson({
        status: 200,
        message: {
          canRead: true,
          canWrite: auth.link.kind === "upload",
          isAdmin: false,
          message: "OK",
          rolefound: "FOUND",
          permissions: "ROLE",
        },
      });
  }
}

type CallContext = {
  request: Request;
  url: URL;
  link: LinkForAuth;
  patientId: number;
  timeZone: string;
};

async function readRecords(ctx: CallContext): Promise<unknown[] | Response> {
  const records = await postedRecords(ctx.request);
  if (records === null) return nsError(ctx.request, 400, "body");
  if (records.length > NS_MAX_RECORDS)
    return nsError(ctx.request, 413, "tooManyRecords", { count: NS_MAX_RECORDS });
  return records;
}

async function postEntries(ctx: CallContext): Promise<Response> {
  const records = await readRecords(ctx);
  if (records instanceof Response) return records;
  const judged = entriesToRows(records, Date.now(), ctx.timeZone);
  await ingestNightscout(
    { patientId: ctx.patientId, uploaderId: ctx.link.creatorId, timeZone: ctx.timeZone },
    judged.rows,
  );
  const answer = judged.accepted.map((a) => (a.kind === "sgv" ? sgvEntry(a.row) : mbgEntry(a.row)));
  return nsJson(answer, 200, refusalHeaders(judged.refused));
}

async function postTreatments(ctx: CallContext): Promise<Response> {
  const records = await readRecords(ctx);
  if (records instanceof Response) return records;
  const judged = treatmentsToRows(records, Date.now(), ctx.timeZone);
  await ingestNightscout(
    { patientId: ctx.patientId, uploaderId: ctx.link.creatorId, timeZone: ctx.timeZone },
    judged.rows,
  );
  const answer = judged.accepted.map((a) =>
    treatmentOf({
      deviceSn: a.deviceSn,
      recordKey: nsRecordKey(a.at),
      dateTime: a.at,
      eventType: a.eventType,
      insulin: a.insulin?.units ?? null,
      carbs: a.carbs?.grams ?? null,
      glucose: a.bg?.mgdl ?? null,
    }),
  );
  return nsJson(answer, 200, refusalHeaders(judged.refused));
}

/** A device status document's `_id`: its row number as 24 hex digits. */
const statusId = (id: bigint) => id.toString(16).padStart(24, "0");

async function postDeviceStatus(ctx: CallContext): Promise<Response> {
  const records = await readRecords(ctx);
  if (records instanceof Response) return records;
  const now = Date.now();
  const refused: NsRefusal[] = [];
  const kept: Record<string, unknown>[] = [];
  await inTransaction(async (tx) => {
    for (let index = 0; index < records.length; index++) {
      const parsed = nsDeviceStatusSchema.safeParse(records[index]);
      if (!parsed.success) {
        refused.push({ index, reason: "invalid" });
        continue;
      }
      const { _id: _ignored, ...doc } = parsed.data;
      const created = Date.parse(String(doc.created_at ?? ""));
      const createdAt = Number.isNaN(created) || created > now ? now : created;
      const id = await keepDeviceStatus(tx, {
        patientId: ctx.patientId,
        linkId: ctx.link.id,
        createdAt,
        document: JSON.stringify(doc),
      });
      kept.push({ ...doc, _id: statusId(id), created_at: new Date(createdAt).toISOString() });
    }
  });
  return nsJson(kept, 200, refusalHeaders(refused));
}

/** The read window a query asks for, or the 400 answer. */
async function windowOf(
  ctx: CallContext,
  defaults: { count: number; findCount?: number },
): Promise<ReadWindow | Response> {
  const query = nsReadQuery(ctx.url.searchParams, defaults);
  if (!query.ok) return nsError(ctx.request, 400, "query", { field: query.field });
  return { from: query.from, to: query.to, count: query.count };
}

async function getEntries(ctx: CallContext, call: "entries" | "sgv" | "current") {
  const w = await windowOf(ctx, { count: NS_DEFAULT_COUNT });
  if (w instanceof Response) return w;
  if (call === "current") w.count = 1;
  const sgv = (await sgvRows(ctx.patientId, w)).map(sgvEntry);
  if (call !== "entries") return nsJson(sgv);
  const mbg = (await mbgRows(ctx.patientId, w)).map(mbgEntry);
  const all = [...sgv, ...mbg].sort((a, b) => b.date - a.date).slice(0, w.count);
  return nsJson(all);
}

async function getTreatments(ctx: CallContext) {
  const w = await windowOf(ctx, {
    count: NS_TREATMENTS_COUNT,
    findCount: NS_TREATMENTS_FIND_COUNT,
  });
  if (w instanceof Response) return w;
  const parts = await treatmentParts(ctx.patientId, w);
  const byInstant = new Map<string, Parameters<typeof treatmentOf>[0]>();
  for (const p of parts) {
    const key = `${p.deviceSn}\u0000${p.dateTime}`;
    const t = byInstant.get(key) ?? {
      deviceSn: p.deviceSn,
      recordKey: nsRecordKey(p.dateTime),
      dateTime: p.dateTime,
      insulin: null,
      carbs: null,
      glucose: null,
    };
    if (p.part === "insulin") t.insulin = p.value;
    else if (p.part === "carbs") t.carbs = p.value;
    else t.glucose = p.value;
    byInstant.set(key, t);
  }
  const treatments: NsTreatment[] = [...byInstant.values()]
    .map(treatmentOf)
    .sort((a, b) => b.mills - a.mills)
    .slice(0, w.count);
  return nsJson(treatments);
}

async function getDeviceStatus(ctx: CallContext) {
  const w = await windowOf(ctx, { count: NS_DEFAULT_COUNT });
  if (w instanceof Response) return w;
  const rows = await deviceStatuses(ctx.patientId, w);
  return nsJson(
    rows.map((r) => ({
      ...(r.document as Record<string, unknown>),
      _id: statusId(r.id),
      created_at: new Date(r.createdAt).toISOString(),
    })),
  );
}

/** Nightscout's status: the server, the patient's unit and the glucose thresholds. */
function statusOf(link: LinkForAuth) {
  const now = new Date();
  const mgdl = link.unit === 1;
  return {
    status: "ok",
    name: "DiaCare",
    version: "15.0.0",
    serverTime: now.toISOString(),
    serverTimeEpoch: now.getTime(),
    apiEnabled: true,
    careportalEnabled: true,
    boluscalcEnabled: false,
    settings: {
      units: nsUnits(mgdl),
      timeFormat: 24,
      enable: ["careportal"],
      thresholds: {
        bgHigh: AGP_GOAL_BOUNDS.above250.fromMgdl,
        bgTargetTop: link.highLimit,
        bgTargetBottom: link.lowLimit,
        bgLow: AGP_GOAL_BOUNDS.below54.toMgdl,
      },
    },
    extendedSettings: {},
    authorized: null,
  };
}

/**
 * Nightscout's profile: one store "Default" in the patient's zone and unit, with the target
 * range of the patient's settings, and, when a pump's settings were uploaded, its carbohydrate
 * ratios, sensitivities (mg/dL per unit), active insulin time and first basal preset.
 */
async function profileOf(ctx: CallContext) {
  const { setting, basal } = await profileSources(ctx.patientId);
  const mgdl = ctx.link.unit === 1;
  const toUnit = (v: number) => (mgdl ? v : Math.round(mgdlToMmol(v) * 10) / 10);
  const created = new Date(
    Math.max(setting?.uploadedAt.getTime() ?? 0, basal?.uploadedAt.getTime() ?? 0),
  );
  const store = {
    dia: setting?.effectiveTime ? setting.effectiveTime / 60 : 4,
    carbratio: segmentsOf(setting?.carbRatio.length ? setting.carbRatio : [0]),
    sens: segmentsOf((setting?.sensitivity.length ? setting.sensitivity : [0]).map(toUnit)),
    basal: segmentsOf(basal?.valueArray.length ? basal.valueArray : [0]),
    target_low: segmentsOf([toUnit(ctx.link.lowLimit)]),
    target_high: segmentsOf([toUnit(ctx.link.highLimit)]),
    timezone: ctx.timeZone,
    units: nsUnits(mgdl),
    carbs_hr: 20,
    delay: 20,
  };
  return {
    _id: storedSecretHash(`profile:${ctx.patientId}`).slice(0, 24),
    defaultProfile: "Default",
    store: { Default: store },
    startDate: created.toISOString(),
    mills: created.getTime(),
    units: nsUnits(mgdl),
    created_at: created.toISOString(),
  };
}
