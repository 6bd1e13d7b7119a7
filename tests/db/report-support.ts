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

/**
 * The people of the AGP and FHIR tests: two patients in `zone` ("full" and "short", target range
 * 70-180 mg/dL) who share with a clinic reading in mmol/L and English, and a clinic they do not
 * share with. `domain` keeps each file's e-mail addresses apart.
 */
let peopleMade = 0;
export async function cgmPeople(domain: string, zone: string) {
  const t = `${++peopleMade}-${Date.now()}`;
  const patient = (name: string) =>
    db().user.create({
      data: {
        email: `${name}-${t}@${domain}`,
        identity: 1,
        firstName: "Ada",
        lastName: `Cgm${name}`,
        gender: "female",
        birthDate: new Date("1975-05-05"),
        patient: { create: { timeZone: zone, lowLimit: 70, highLimit: 180 } },
      },
      include: { patient: true },
    });
  const full = await patient("full");
  const short = await patient("short");
  const clinic = await db().user.create({
    data: {
      email: `c-${t}@${domain}`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en", unit: 1 } },
    },
  });
  const stranger = await db().user.create({
    data: {
      email: `s-${t}@${domain}`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en" } },
    },
  });
  for (const p of [full, short])
    await db().readPower.create({
      data: { providerId: p.id, readerId: clinic.id, sourceType: 1, state: 1 },
    });
  return { full: full.patient!.id, fullUser: full.id, short: short.patient!.id, clinic, stranger };
}
