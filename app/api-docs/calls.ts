import { z, type ZodTypeAny } from "zod";
import {
  activateSchema,
  apiLoginSchema,
  changePasswordSchema,
  claimAccountSchema,
  organisationSchema,
  registerClinicSchema,
  registerPersonSchema,
  resetPasswordSchema,
  sendMailSchema,
} from "~/schemas/auth";
import { exportCsvQuery, importCsvApiSchema, importOptionsSchema } from "~/schemas/csv-import";
import { daysWithDataSchema, exportAskSchema, latestDateSchema } from "~/schemas/excel-export";
import { findOneQuery } from "~/schemas/patient";
import {
  findLastRecordQuery,
  findPatientDataQuery,
  pdaTimeZoneQuery,
  rangeQuery,
} from "~/schemas/patient-view";
import {
  deleteShareSchema,
  findListQuery,
  inviteSchema,
  inviteSearchSchema,
  processFromEmailSchema,
  processShareSchema,
  reinviteSchema,
  saveShareSchema,
  shareSearchSchema,
  updateShareSchema,
} from "~/schemas/read-power";
import { cgmSummaryApiQuery } from "~/schemas/fhir";
import { reportApiSchema } from "~/schemas/report";
import { settingUpdateBodies } from "~/schemas/setting";
import {
  basalSaveSchema,
  deviceSaveSchema,
  pumpSaveSchema,
  pumpSettingSchema,
  sliceCheckSchema,
  sliceCompleteSchema,
  sliceSaveSchema,
  sliceStartSchema,
} from "~/schemas/upload";
import { uploadErrLogSchema } from "~/schemas/upload-error-log";
import * as answers from "~/wire/answers";

/**
 * Every `/api/` call, in one list: its method and path, who may call it, its input (the zod
 * schema its route validates with), the `data` of its success answer (app/wire/answers.ts), the
 * codes it may answer besides the ones every call shares, and whether it is part of the public
 * contract the product was specified with or an addition of this implementation. The OpenAPI
 * document (openapi.ts), the `/api-docs` page and the contract tests are all made from it.
 */

export const AREAS = [
  "accounts",
  "settings",
  "patient",
  "reads",
  "reports",
  "dashboard",
  "sharing",
  "uploads",
  "files",
  "export",
  "reference",
] as const;
export type Area = (typeof AREAS)[number];

/** Who may call: a token (or the signed-in page session), anyone, or either (the call's answer differs). */
export type CallAuth = "token" | "none" | "optional";

export interface ApiCall {
  readonly method: "get" | "post";
  readonly path: `/api/${string}`;
  readonly area: Area;
  /** "spec": part of the public contract the product was specified with; "own": this implementation's addition. */
  readonly contract: "spec" | "own";
  readonly summary: string;
  readonly description?: string;
  readonly auth: CallAuth;
  readonly query?: ZodTypeAny;
  readonly body?: ZodTypeAny;
  /** Body fields the route reads with a second schema, after the first (the CSV import's options). */
  readonly bodyAlso?: ZodTypeAny;
  /** The body's media types; JSON and forms unless given. */
  readonly bodyTypes?: readonly ("json" | "form" | "multipart")[];
  /** The `data` of the 200 answer. */
  readonly data: ZodTypeAny;
  /** A call that answers a file on success (the envelope only on refusals). */
  readonly file?: { readonly type: string; readonly description: string };
  /** The codes this call answers besides 200 and the shared ones, each with when. */
  readonly codes: Readonly<Partial<Record<number, string>>>;
}

/** Token codes (HTTP 401; 9999: 403) of every call that needs a caller or takes a token when one is sent. */
export const TOKEN_CODES: Readonly<Record<number, string>> = {
  800: "no token header (and no signed-in page session)",
  801: "the token is malformed",
  802: "the token has expired",
  803: "the token was revoked (sign-out, signing out everywhere, account deleted)",
  804: "the account is disabled",
  805: "the account is deleted",
  806: "signed in elsewhere (not issued: several sign-ins at once are allowed)",
  807: "refresh required: the password changed since the token was issued",
  9999: "the account is not activated yet",
};

/** Codes every call may answer: the server's own, before or around the route. */
export const SHARED_CODES: Readonly<Record<number, string>> = {
  500: "an unexpected failure; data.requestId is in the server log and the X-Request-Id header",
};

/** Codes every POST call may answer besides. */
export const POST_CODES: Readonly<Record<number, string>> = {
  400: "malformed JSON, a JSON value that is not an object, or another content type",
  403: "Origin, Referer or Sec-Fetch-Site names another site",
  413: "the body is larger than the call accepts (64 KB unless the call says otherwise)",
};

/** The HTTP status of an application code (app/services/api.server.ts). */
export function httpStatusOf(code: number): number {
  if (code >= 800 && code < 900) return 401;
  if (code === 9999) return 403;
  return code;
}

const fieldsData = z.object({ fields: z.record(z.array(z.string())) }).strict();
const errorData = z.object({ error: z.string(), field: z.string().optional() }).strict();
const valuesData = z.record(z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** The `data` of a refusal, by code. */
export const ERROR_DATA: Readonly<Record<number, ZodTypeAny>> = {
  400: z
    .union([fieldsData, valuesData, z.null()])
    .describe("{ fields } for a validation failure, else the values the message names, or null"),
  401: z.null(),
  403: z.union([z.null(), errorData]),
  404: z.union([z.null(), errorData]),
  409: z.union([z.null(), errorData, valuesData]),
  413: z.union([
    z.object({ limitKb: z.number() }).strict(),
    z
      .object({
        limit: z.union([z.number(), z.string()]),
        count: z.number().optional().describe("the number the message's plural form follows"),
      })
      .strict(),
  ]),
  429: z.null(),
  500: z.union([z.object({ requestId: z.string() }).strict(), z.null()]),
};

/** The `data` of a refusal with `code`: token codes and 9999 answer null. */
export function errorDataOf(code: number): ZodTypeAny {
  return ERROR_DATA[code] ?? z.null();
}

/** Every code a call may answer, with when; 200 first. */
export function codesOf(call: ApiCall): [number, string][] {
  const all: Record<number, string> = {
    200: "success",
    ...(call.method === "post" ? POST_CODES : {}),
    ...SHARED_CODES,
    ...(call.auth === "none" ? {} : TOKEN_CODES),
    ...call.codes,
  };
  return Object.entries(all)
    .map(([code, when]) => [Number(code), when] as [number, string])
    .sort(([a], [b]) => a - b);
}

const BAD_INPUT = "a missing or bad field (the first validation message, translated)";
const NOT_VISIBLE = "a patient the caller may not see, whether it exists or not";
const RATE_LIMITED = "a rate limit refused the call (Retry-After header, seconds)";

const upload = {
  400: "a missing or bad field, a record a rule refuses (data: position, field, slice…)",
  404: "no patient record the caller may upload to",
} as const;

export const API_CALLS: readonly ApiCall[] = [
  // ---- accounts --------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/user/login",
    area: "accounts",
    contract: "spec",
    summary: "Sign in; the token is answered in data and in the `token` header",
    description:
      "Our addition to the spec's answer: `data.active`, whether the account is activated (an inactive one is sent to /active).",
    auth: "none",
    body: apiLoginSchema,
    data: answers.loginData,
    codes: {
      400: BAD_INPUT,
      401: "wrong email, password or sign-in type (one message for all three)",
      429: RATE_LIMITED,
    },
  },
  {
    method: "post",
    path: "/api/user/logout",
    area: "accounts",
    contract: "own",
    summary: "Revoke the calling token",
    auth: "token",
    data: z.null(),
    codes: {},
  },
  {
    method: "get",
    path: "/api/user/getUserInfo",
    area: "accounts",
    contract: "spec",
    summary: "The caller's own account",
    auth: "token",
    data: answers.userInfoData,
    codes: {},
  },
  {
    method: "post",
    path: "/api/user/sendMail",
    area: "accounts",
    contract: "spec",
    summary: "Mail a six-digit code (sign-up, password reset, email change)",
    description:
      "The answer does not say whether the address has an account; changeEmail needs a token.",
    auth: "optional",
    body: sendMailSchema,
    data: z.null(),
    codes: {
      400: BAD_INPUT,
      429: RATE_LIMITED,
      503: "the email could not be handed to the mail server; the code is withdrawn, ask again",
      800: "changeEmail without a token",
    },
  },
  {
    method: "post",
    path: "/api/user/register",
    area: "accounts",
    contract: "spec",
    summary: "Create an account with the emailed code",
    description: 'identity 1 (person, the default) or 2 (clinic); `agree` must be "on" or true.',
    auth: "none",
    body: z.union([registerPersonSchema, registerClinicSchema]),
    data: answers.registerData,
    codes: { 400: `${BAD_INPUT}, a wrong or used code, or a taken email` },
  },
  {
    method: "post",
    path: "/api/user/password",
    area: "accounts",
    contract: "spec",
    summary: "Change the password (token) or reset it with the emailed code (no token)",
    auth: "optional",
    body: z.union([changePasswordSchema, resetPasswordSchema]),
    data: z.null(),
    codes: { 400: `${BAD_INPUT}, a wrong current password or code` },
  },
  {
    method: "post",
    path: "/api/user/updateIdentityInfo",
    area: "accounts",
    contract: "spec",
    summary: "A clinic submits its organisation for review",
    auth: "token",
    body: organisationSchema,
    data: answers.organisationData,
    codes: { 400: BAD_INPUT, 403: "the caller is a person's account" },
  },
  {
    method: "get",
    path: "/api/active/randomString",
    area: "accounts",
    contract: "spec",
    summary: "The activation form's origin prefix and its signed token",
    auth: "none",
    data: answers.randomStringData,
    codes: {},
  },
  {
    method: "post",
    path: "/api/active/active",
    area: "accounts",
    contract: "spec",
    summary: "Activate an account created for someone else",
    description:
      "With a token: origin and code; without one also email, password and confirmPassword.",
    auth: "optional",
    body: z.union([activateSchema, claimAccountSchema]),
    data: answers.activateData,
    codes: { 400: `${BAD_INPUT}, a wrong or expired code or origin` },
  },
  // ---- settings --------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/setting/findOne",
    area: "settings",
    contract: "spec",
    summary: "The caller's own settings",
    auth: "token",
    data: answers.settingsData,
    codes: {},
  },
  {
    method: "post",
    path: "/api/setting/update",
    area: "settings",
    contract: "spec",
    summary: "Change the caller's settings, or a patient's zone and meal times",
    description:
      "One of five bodies, told apart by the keys only that body has (pid; else weightUnit, heightUnit, orientation, paperSize, nameStyle or splitLine; else lang; else unit; else timeZone). In the all-settings body paperSize (a4 or letter) and timeZone may be left out (unchanged).",
    auth: "token",
    bodyTypes: ["json"],
    body: z.union(settingUpdateBodies),
    data: answers.settingUpdateData,
    codes: { 400: BAD_INPUT, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/setting/getTimeZone",
    area: "settings",
    contract: "spec",
    summary: "The upload wizard's zones and the pump handheld's 26 zones",
    auth: "token",
    data: answers.timeZonesData,
    codes: {},
  },
  // ---- patient record --------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/patient/save",
    area: "patient",
    contract: "spec",
    summary: "Create a new person's record, or save the caller's own",
    description: "The body is a JSON list of one patient object (a bare object is accepted too).",
    auth: "token",
    bodyTypes: ["json"],
    body: z.array(z.record(z.unknown())).length(1),
    data: answers.patientSaveData,
    codes: {
      400: BAD_INPUT,
      403: "a clinic not yet approved, or a record shared with the caller but not theirs",
      404: "pid is not a record the caller can see",
      409: "the email is already registered",
    },
  },
  {
    method: "get",
    path: "/api/patient/findOne",
    area: "patient",
    contract: "spec",
    summary: "A patient's health record",
    auth: "token",
    query: findOneQuery,
    data: answers.patientRecordData,
    codes: { 400: BAD_INPUT, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/option/findOption",
    area: "patient",
    contract: "spec",
    summary: "The diabetes types, basic diseases and complications to choose from",
    auth: "token",
    data: answers.optionListData,
    codes: {},
  },
  // ---- patient data reads ----------------------------------------------------------------------
  {
    method: "get",
    path: "/api/patient-data/findLastRecord",
    area: "reads",
    contract: "spec",
    summary: "The newest stored pump or CGM record",
    auth: "token",
    query: findLastRecordQuery,
    data: answers.lastRecordData,
    codes: { 400: BAD_INPUT, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/patient-data/getPdaTimeZone",
    area: "reads",
    contract: "spec",
    summary: "The time zone of the patient's newest pump upload",
    auth: "token",
    query: pdaTimeZoneQuery,
    data: answers.pdaTimeZoneData,
    codes: { 400: BAD_INPUT, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/patient-data/findPatientData",
    area: "reads",
    contract: "spec",
    summary: "One local day's pump, CGM and meter models",
    auth: "token",
    query: findPatientDataQuery,
    data: answers.patientDayData,
    codes: { 400: `${BAD_INPUT}, or a day after today`, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/patient-data/sugarData",
    area: "reads",
    contract: "spec",
    summary: "Blood glucose readings of up to 90 days, with meal tags",
    auth: "token",
    query: rangeQuery,
    data: answers.meterReadingsData,
    codes: { 400: `${BAD_INPUT}, or a refused range`, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/cgms/cgm-record/findList",
    area: "reads",
    contract: "own",
    summary: "CGM readings of 1 to 14 days and their time in ranges",
    auth: "token",
    query: rangeQuery,
    data: answers.cgmListData,
    codes: { 400: `${BAD_INPUT}, or a refused range`, 404: NOT_VISIBLE },
  },
  {
    method: "get",
    path: "/api/patient-data/getLatestDateFromReportAndAidex",
    area: "reads",
    contract: "spec",
    summary: "The newest local day with data",
    auth: "token",
    query: latestDateSchema,
    data: answers.latestDateData,
    codes: { 400: BAD_INPUT, 404: NOT_VISIBLE },
  },
  {
    method: "post",
    path: "/api/patient-data/listExistInDateFromReport",
    area: "reads",
    contract: "spec",
    summary: "The days of a range that have data, with the kinds each has",
    auth: "token",
    body: daysWithDataSchema,
    data: answers.daysWithDataData,
    codes: { 400: `${BAD_INPUT}, or a refused range`, 404: NOT_VISIBLE },
  },
  // ---- reports ---------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/patient-data/sugarDevicePdf",
    area: "reports",
    contract: "spec",
    summary: "The CGM report of 3 to 14 days",
    auth: "token",
    body: reportApiSchema,
    data: answers.cgmReportData,
    codes: { 400: `${BAD_INPUT}, or a refused range`, 404: NOT_VISIBLE },
  },
  {
    method: "post",
    path: "/api/patient-data/pdf",
    area: "reports",
    contract: "spec",
    summary: "The pump and blood glucose report of up to 90 days",
    auth: "token",
    body: reportApiSchema,
    data: answers.pumpReportData,
    codes: { 400: `${BAD_INPUT}, or a refused range`, 404: NOT_VISIBLE },
  },
  {
    method: "post",
    path: "/api/cgms/cgm-record/agp",
    area: "reports",
    contract: "spec",
    summary: "The AGP report of 3 to 14 days",
    auth: "token",
    body: reportApiSchema,
    data: answers.agpReportData,
    codes: {
      400: `${BAD_INPUT}, a refused range, or fewer than 5 full days of CGM data`,
      404: NOT_VISIBLE,
    },
  },
  {
    method: "get",
    path: "/api/fhir/cgm-summary",
    area: "reports",
    contract: "own",
    summary: "The AGP report of 3 to 14 days as an HL7 FHIR CGM summary Bundle",
    description:
      "The body is the FHIR R4 Bundle itself (HL7 FHIR CGM implementation guide 1.0.0); refusals answer the envelope. pdf=1 embeds the AGP page as a PDF, only with the page session (no token header).",
    auth: "token",
    query: cgmSummaryApiQuery,
    data: z.null(),
    file: { type: "application/fhir+json", description: "the FHIR Bundle" },
    codes: {
      400: `${BAD_INPUT}, a refused range, fewer than 5 full days of CGM data, or pdf=1 with a token`,
      404: NOT_VISIBLE,
    },
  },
  // ---- dashboard -------------------------------------------------------------------------------
  ...(["sex", "age", "ill"] as const).map((figure): ApiCall => ({
    method: "get",
    path: `/api/dashboard/${figure}`,
    area: "dashboard",
    contract: "spec",
    summary: `How the clinic's sharing patients divide by ${figure === "ill" ? "type of diabetes" : figure}`,
    auth: "token",
    data: answers.dashboardData,
    codes: { 403: "the caller is not a clinic whose organisation review is approved" },
  })),
  // ---- sharing ---------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/read-power/findList",
    area: "sharing",
    contract: "spec",
    summary: "The patients shared with the caller (tab=me) or the caller's own shares (tab=others)",
    auth: "token",
    query: findListQuery,
    data: answers.shareListData,
    codes: { 400: BAD_INPUT, 403: "tab=others for a clinic" },
  },
  {
    method: "get",
    path: "/api/read-power/findShareList",
    area: "sharing",
    contract: "spec",
    summary: "Find an account by its whole email, to share with or invite",
    description: "A clinic's search (type 2) finds persons with a health record.",
    auth: "token",
    query: z.union([shareSearchSchema, inviteSearchSchema]),
    data: answers.shareSearchData,
    codes: {
      400: BAD_INPUT,
      403: "a clinic whose organisation is not approved (our addition, as for invite)",
      429: RATE_LIMITED,
    },
  },
  {
    method: "post",
    path: "/api/read-power/save",
    area: "sharing",
    contract: "spec",
    summary: "Share the caller's data with an account",
    auth: "token",
    body: saveShareSchema,
    data: answers.shareItem,
    codes: { 400: BAD_INPUT, 403: "the caller is a clinic" },
  },
  {
    method: "post",
    path: "/api/read-power/process",
    area: "sharing",
    contract: "spec",
    summary: "Accept (1) or refuse (2) a waiting share or invitation",
    auth: "token",
    body: processShareSchema,
    data: answers.shareItem,
    codes: {
      400: `${BAD_INPUT}, already answered, or expired`,
      403: "not the recipient, or no such share",
    },
  },
  {
    method: "post",
    path: "/api/read-power/update",
    area: "sharing",
    contract: "spec",
    summary: "The reader's nickname and new-data badge, the recipient's isNew",
    auth: "token",
    body: updateShareSchema,
    data: answers.shareItem,
    codes: { 400: BAD_INPUT, 403: "neither side of the share, or no such share" },
  },
  {
    method: "post",
    path: "/api/read-power/delete",
    area: "sharing",
    contract: "spec",
    summary: "Either side removes a share",
    description: "Our addition: the spec shows no answer; `data` names the removed share.",
    auth: "token",
    body: deleteShareSchema,
    data: answers.deletedShareData,
    codes: { 400: BAD_INPUT, 403: "neither side of the share, or no such share" },
  },
  {
    method: "post",
    path: "/api/read-power/processFromEmail",
    area: "sharing",
    contract: "spec",
    summary: "Answer an invitation from its email link",
    description:
      "Our addition: the spec shows no answer; `data` is the share as `process` answers it.",
    auth: "none",
    body: processFromEmailSchema,
    data: answers.shareItem,
    codes: { 400: `${BAD_INPUT}, a used, expired or forged link, or an expired invitation` },
  },
  {
    method: "post",
    path: "/api/read-power/invite",
    area: "sharing",
    contract: "spec",
    summary: "Invite a person to share their data",
    auth: "token",
    body: inviteSchema,
    data: answers.shareItem,
    codes: {
      400: `${BAD_INPUT}, the caller themself, or an invitation waiting or accepted`,
      403: "a clinic whose organisation is not approved",
      500: "the invitation is saved but its email could not be sent",
    },
  },
  {
    method: "post",
    path: "/api/read-power/reinvite",
    area: "sharing",
    contract: "spec",
    summary: "Send an invitation again, with a new email and link",
    auth: "token",
    body: reinviteSchema,
    data: answers.shareItem,
    codes: {
      400: `${BAD_INPUT}, or an accepted invitation`,
      403: "not the invitation's sender",
      500: "the invitation is saved but its email could not be sent",
    },
  },
  // ---- device uploads --------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/patient-data/getSliceId",
    area: "uploads",
    contract: "spec",
    summary: "Open a sliced upload",
    auth: "token",
    body: sliceStartSchema,
    data: answers.sliceIdData,
    codes: upload,
  },
  {
    method: "post",
    path: "/api/patient-data/sliceSave",
    area: "uploads",
    contract: "spec",
    summary: "One slice of at most 1000 records (bodies up to 1 MB)",
    auth: "token",
    bodyTypes: ["json"],
    body: sliceSaveSchema,
    data: answers.sliceSavedData,
    codes: {
      400: upload[400],
      404: "no such upload of the caller's",
      409: "a slice out of order, sent again with different records, or the upload is finished",
      413: "more than 1000 records in a slice",
    },
  },
  {
    method: "post",
    path: "/api/patient-data/completeSliceTask",
    area: "uploads",
    contract: "spec",
    summary: "Finish (isSuccess true) or abandon a sliced upload",
    auth: "token",
    body: sliceCompleteSchema,
    data: answers.sliceCompletedData,
    codes: {
      400: "not every slice arrived",
      404: "no such upload of the caller's",
      409: "the upload is already finished",
    },
  },
  {
    method: "get",
    path: "/api/patient-data/checkSave",
    area: "uploads",
    contract: "spec",
    summary: "false while an upload is processed, then its summary",
    auth: "token",
    query: sliceCheckSchema,
    data: answers.checkSaveData,
    codes: { 400: BAD_INPUT, 404: "no such upload of the caller's" },
  },
  {
    method: "post",
    path: "/api/patient-data/save",
    area: "uploads",
    contract: "spec",
    summary: "A pump upload of at most 1000 records in one call",
    auth: "token",
    bodyTypes: ["json"],
    body: pumpSaveSchema,
    data: answers.uploadSummaryData,
    codes: upload,
  },
  {
    method: "post",
    path: "/api/patient-data/saveCgmsData",
    area: "uploads",
    contract: "spec",
    summary: "AiDEX CGM records of one device in one call",
    auth: "token",
    bodyTypes: ["json"],
    body: deviceSaveSchema,
    data: answers.uploadSummaryData,
    codes: upload,
  },
  {
    method: "post",
    path: "/api/patient-data/saveSugar",
    area: "uploads",
    contract: "spec",
    summary: "Blood glucose meter records of one device in one call",
    auth: "token",
    bodyTypes: ["json"],
    body: deviceSaveSchema,
    data: answers.uploadSummaryData,
    codes: upload,
  },
  {
    method: "post",
    path: "/api/basal-rate-base-setting/save",
    area: "uploads",
    contract: "spec",
    summary: "The pump handheld's basal presets",
    auth: "token",
    bodyTypes: ["json"],
    body: basalSaveSchema,
    data: answers.basalSavedData,
    codes: upload,
  },
  {
    method: "post",
    path: "/api/pda-setting/saveOrUpdate",
    area: "uploads",
    contract: "spec",
    summary: "The pump handheld's settings",
    auth: "token",
    bodyTypes: ["json"],
    body: pumpSettingSchema,
    data: answers.pumpSettingSavedData,
    codes: upload,
  },
  {
    method: "post",
    path: "/api/patient-data/uploadErrLog",
    area: "uploads",
    contract: "spec",
    summary: "The upload wizard's error reports (bodies up to 2 MB)",
    auth: "token",
    bodyTypes: ["json"],
    body: uploadErrLogSchema,
    data: answers.uploadErrLogData,
    codes: {
      400: BAD_INPUT,
      403: "a report under another user id than the caller's",
      429: RATE_LIMITED,
    },
  },
  // ---- files -----------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/patient-data/importCsv",
    area: "files",
    contract: "own",
    summary: "Import a CSV file of glucose data, or preview it (dryRun)",
    description:
      "Multipart fields: pid, file (at most 2 MB), dryRun, and optional format, timeZone, dateOrder, timeColumn, glucoseColumn, unitColumn.",
    auth: "token",
    bodyTypes: ["multipart"],
    body: importCsvApiSchema,
    bodyAlso: importOptionsSchema,
    data: answers.importCsvData,
    codes: {
      400: "a missing file, a bad field, an unreadable file, or nothing importable",
      404: NOT_VISIBLE,
      413: "the file is over 2 MB",
    },
  },
  {
    method: "get",
    path: "/api/patient-data/exportCsv",
    area: "files",
    contract: "own",
    summary: "The patient's records of a range of days as a CSV file",
    auth: "token",
    query: exportCsvQuery,
    data: z.null(),
    file: { type: "text/csv", description: "the records, in DiaCare's own CSV format" },
    codes: { 400: `${BAD_INPUT}, or too many days`, 404: NOT_VISIBLE },
  },
  // ---- staff export ----------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/patient-data/preExport",
    area: "export",
    contract: "spec",
    summary: "What the Excel export would hold, nothing written",
    auth: "token",
    query: exportAskSchema,
    data: answers.preExportData,
    codes: {
      400: BAD_INPUT,
      403: "the caller is not an admin or editor",
      404: "a patient named whom the caller may not read",
    },
  },
  {
    method: "get",
    path: "/api/patient-data/exportReport",
    area: "export",
    contract: "spec",
    summary: "The staff Excel export of several patients",
    auth: "token",
    query: exportAskSchema,
    data: z.null(),
    file: {
      type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      description: "the workbook, streamed as it is made",
    },
    codes: {
      400: BAD_INPUT,
      403: "the caller is not an admin or editor",
      404: "a patient named whom the caller may not read",
    },
  },
  // ---- reference -------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/country/list",
    area: "reference",
    contract: "spec",
    summary: "Countries, named in the caller's language",
    auth: "none",
    data: answers.countryListData,
    codes: {},
  },
  {
    method: "get",
    path: "/api/openapi.json",
    area: "reference",
    contract: "own",
    summary: "This document, as OpenAPI 3.1 JSON",
    auth: "none",
    data: z.null(),
    file: { type: "application/json", description: "the OpenAPI 3.1 document" },
    codes: {},
  },
];

/** The call of a method and path, if there is one. */
export function findCall(method: string, path: string): ApiCall | undefined {
  const m = method.toLowerCase();
  return API_CALLS.find((c) => c.method === m && c.path === path);
}
