/** Shared pieces of the page and report database tests: a route's status, signed-in calls of a page, its PDF route, and CGM data. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Temporal } from "temporal-polyfill";
import { db } from "~/utils/db.server";
import { sessionStorage } from "~/services/session.server";

/** The HTTP status of a route's answer, returned or thrown (a loader's plain object is 200). */
export async function statusOf(run: () => Promise<unknown> | unknown): Promise<number> {
  try {
    const result = await run();
    return result instanceof Response ? result.status : 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

/** The session cookie of a signed-in user. */
export async function cookieFor(userId: number): Promise<string> {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0]!;
}

/** Calls a report page's loader (`/{pid}/<page>?...`) as the user. */
export async function callPage<T>(
  loader: (args: LoaderFunctionArgs) => Promise<T>,
  page: string,
  userId: number,
  pid: number,
  search: string,
): Promise<T> {
  const request = new Request(`http://localhost/${pid}/${page}${search}`, {
    headers: { Cookie: await cookieFor(userId) },
  });
  return loader({ request, params: { id: String(pid) }, context: {} });
}

/** Calls a report's PDF route (`/{pid}/<page>.pdf?...`) as the user, optionally with an Accept-Language. */
export async function callPdf(
  loader: (args: LoaderFunctionArgs) => Promise<Response> | Response,
  page: string,
  userId: number,
  pid: number | string,
  search: string,
  lang?: string,
): Promise<Response> {
  const request = new Request(`http://localhost/${pid}/${page}.pdf${search}`, {
    headers: { Cookie: await cookieFor(userId), ...(lang ? { "Accept-Language": lang } : {}) },
  });
  return loader({ request, params: { id: String(pid) }, context: {} });
}

/** Stores CGM readings every 5 minutes from `start` (inclusive) to `end` (exclusive): a wave between 50 and 250 mg/dL. */
export async function seedCgmWave(
  pid: number,
  start: Temporal.ZonedDateTime,
  end: Temporal.ZonedDateTime,
): Promise<number> {
  const rows = [];
  for (
    let i = 0, t = start;
    Temporal.ZonedDateTime.compare(t, end) < 0;
    i++, t = t.add({ minutes: 5 })
  ) {
    rows.push({
      patientId: pid,
      deviceSn: `cgm-${pid}`,
      eventIndex: i,
      eventType: 7,
      mgdl: 150 + 100 * Math.sin(i / 20) + (i % 7) * 0.3,
      deviceTime: t.toPlainDateTime().toString(),
      timeZone: t.timeZoneId,
      dateTime: new Date(t.epochMilliseconds),
    });
  }
  await db().cgmRecord.createMany({ data: rows });
  return rows.length;
}
