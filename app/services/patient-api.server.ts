import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { type Viewer, type VisiblePatient } from "~/models/access.server";
import {
  rangeProblemKey,
  REPORT_KINDS,
  reportPurpose,
  type ReportKind,
} from "~/report/report-kinds";
import { RANGE_RULES, type DateRangeRule } from "~/report/report-range";
import { reportApiSchema, type ReportRange } from "~/schemas/report";
import {
  apiFail,
  apiInvalid,
  apiOk,
  API_CODES,
  readBody,
  requireApiViewer,
} from "~/services/api.server";
import { readPatient, type AskedRange, type ReadPurpose } from "./patient-read.server";

/** What a read answers: its data, or the i18n key (any namespace) of why it is refused (code 400). */
export type PatientReadAnswer =
  { ok: true; data: unknown } | { ok: false; msgKey: string; values?: Record<string, unknown> };

/** A granted `/api/` read: who asks, whose data, over which dates. */
export interface ApiRead<Q> {
  readonly request: Request;
  readonly viewer: Viewer;
  readonly patient: VisiblePatient;
  readonly query: Q;
  readonly range: ReportRange | null;
  readonly now: number;
}

interface ApiReadDefinition<Q extends { pid: number }> {
  readonly purpose: ReadPurpose;
  /** The validated input's dates and their rule, when the read names dates. */
  readonly range?: (query: Q) => { rule: DateRangeRule; dates: AskedRange };
  /** The namespace of the validation messages. */
  readonly messages: string;
  read(granted: ApiRead<Q>): Promise<PatientReadAnswer>;
}

/**
 * The common course of an `/api/` read of one patient's data: the caller from the `token`
 * header, the input checked with `schema` (400 with its translated message), the access gateway
 * (404 when the caller may not see the patient, whether it exists or not; 400 for dates outside
 * the rule; the access log entry), then `read`, wrapped in `{ code, msg, data }`.
 */
async function answerRead<Q extends { pid: number }>(
  request: Request,
  input: unknown,
  schema: z.ZodType<Q, z.ZodTypeDef, unknown>,
  definition: ApiReadDefinition<Q>,
) {
  const viewer = await requireApiViewer(request);
  const parsed = schema.safeParse(input);
  if (!parsed.success) return apiInvalid(request, parsed.error, definition.messages);
  const range = definition.range?.(parsed.data);
  const read = await readPatient({
    viewer,
    pid: parsed.data.pid,
    purpose: definition.purpose,
    channel: "api",
    ...(range ? { range } : {}),
  });
  if (!read.ok)
    return read.refused === "range"
      ? apiFail(request, API_CODES.invalid, rangeProblemKey(read.problem, read.rule))
      : apiFail(request, API_CODES.notFound, "notFound");
  const answer = await definition.read({
    request,
    viewer,
    patient: read.patient,
    query: parsed.data,
    range: read.range,
    now: read.now,
  });
  return answer.ok
    ? apiOk(request, answer.data)
    : apiFail(request, API_CODES.invalid, answer.msgKey, answer.values);
}

/** A GET `/api/` read whose input is the query string. */
export function patientReadLoader<Q extends { pid: number }>(
  schema: z.ZodType<Q, z.ZodTypeDef, unknown>,
  definition: ApiReadDefinition<Q>,
) {
  return ({ request }: LoaderFunctionArgs) =>
    answerRead(request, Object.fromEntries(new URL(request.url).searchParams), schema, definition);
}

/**
 * A POST `/api/` report call (pid, start, end in the body): the report of `kind` over the range,
 * under the report's range rule.
 */
export function reportApiAction(
  kind: ReportKind,
  read: (
    granted: ApiRead<{ pid: number; start: string; end: string }> & { range: ReportRange },
  ) => Promise<PatientReadAnswer>,
) {
  return async ({ request }: ActionFunctionArgs) =>
    answerRead(request, await readBody(request), reportApiSchema, {
      purpose: reportPurpose(kind),
      messages: "reports",
      range: (query) => ({ rule: RANGE_RULES[REPORT_KINDS[kind].rangeKind], dates: query }),
      read: (granted) => read({ ...granted, range: granted.range ?? granted.query }),
    });
}
