import type { AlarmClass, TrendLevel } from "~/metrics";
import { TREND_WINDOW_MIN } from "~/metrics/trend";
import type { VisiblePatient } from "~/models/access.server";
import { formatDateTime } from "~/report/locale-format";
import { cgmReadings, latestBgAndPump, latestCgmReadings } from "~/models/patient-data.server";
import { listCaredFor } from "~/models/read-power-list.server";
import { currentGlucose, formatReadingAge, readingAge, timeInRangePercent } from "~/report/caring";
import { dayWindow, todayIn } from "~/report/day";
import { readPatient, readPatientList } from "~/services/patient-read.server";
import type { SessionUser } from "~/services/session.server";
import { displayName } from "~/utils/names";

/**
 * Remote caring's reads: the glucose status of the people one cares for. Every read of their data
 * goes through the access gateway (`readPatient`, `readPatientList`): caring reads exactly what
 * sharing grants (an accepted share; a clinic once its organisation is approved), and each read
 * is in the person's access log. Who may open the caring pages: caring-account.server.ts.
 */

/** A reading as the caring pages show it: the value in mg/dL (the page shows the reader's unit), when, and how long ago. */
export type ShownReading = {
  readonly mgdl: number;
  /** On the clock of the person's time zone, in the reader's language ("Nov 25, 2026, 16:04"). */
  readonly at: string;
  readonly age: string;
};

export type ShownGlucose = ShownReading & {
  readonly trend: TrendLevel | null;
  readonly alarm: AlarmClass;
};

function shownAt(time: number, patient: VisiblePatient, locale: string, now: number) {
  return {
    at: formatDateTime(time, patient.timeZone, locale),
    age: formatReadingAge(readingAge(time, now), locale),
  };
}

function shownGlucose(
  readings: Parameters<typeof currentGlucose>[0],
  patient: VisiblePatient,
  locale: string,
  now: number,
): ShownGlucose | null {
  const current = currentGlucose(readings, { low: patient.lowLimit, high: patient.highLimit });
  if (!current) return null;
  return {
    mgdl: current.mgdl,
    trend: current.trend,
    alarm: current.alarm,
    ...shownAt(current.time, patient, locale, now),
  };
}

export type CaredForRow = {
  readonly pid: number;
  readonly userId: number;
  readonly name: string;
  readonly nickName: string | null;
  readonly email: string;
  readonly birthDate: string | null;
  readonly glucose: ShownGlucose | null;
};

/**
 * One page of the people the viewer cares for (accepted shares), each with their current CGM
 * glucose; the gateway logs one read for each person shown.
 */
export async function caredForPage(
  viewer: SessionUser,
  { page, locale, now = Date.now() }: { page: number; locale: string; now?: number },
): Promise<{ count: number; rows: CaredForRow[] }> {
  const list = await listCaredFor(viewer, { page });
  const pids = list.data.flatMap((entry) => (entry.pid === null ? [] : [entry.pid]));
  const patients = await readPatientList({
    viewer,
    pids,
    purpose: "caringList",
    channel: "page",
  });
  const byPid = new Map(patients.map((p) => [p.id, p]));
  const readings = await latestCgmReadings(viewer, [...byPid.keys()], TREND_WINDOW_MIN);
  const rows: CaredForRow[] = [];
  for (const entry of list.data) {
    const patient = entry.pid === null ? undefined : byPid.get(entry.pid);
    if (!patient) continue;
    rows.push({
      pid: patient.id,
      userId: patient.userId,
      name: entry.name,
      nickName: entry.nickName,
      email: entry.email,
      birthDate: entry.birthDate,
      glucose: shownGlucose(readings.get(patient.id) ?? [], patient, locale, now),
    });
  }
  return { count: list.count, rows };
}

/**
 * One person's latest values for someone caring for them (or for themselves): current CGM glucose
 * with trend and alarm, the newest blood-glucose value, the time of the newest pump record, and
 * today's time in range (their day, 70-180 mg/dL); null when the viewer may not read the person's
 * data or `userId` has no health record (nothing is logged then).
 */
export async function caringDetail(
  viewer: SessionUser,
  { userId, locale, now = Date.now() }: { userId: number; locale: string; now?: number },
) {
  const read = await readPatient({
    viewer,
    pid: null,
    userId,
    purpose: "caringDetail",
    channel: "page",
    now,
  });
  if (!read.ok) return null;
  const { patient } = read;
  const today = dayWindow(todayIn(patient.timeZone, now), patient.timeZone);
  const [latest, others, todays] = await Promise.all([
    latestCgmReadings(viewer, [patient.id], TREND_WINDOW_MIN),
    latestBgAndPump(viewer, patient.id),
    cgmReadings(viewer, patient.id, today),
  ]);
  const tir = timeInRangePercent(todays.map((r) => r.mgdl));
  return {
    pid: patient.id,
    userId: patient.userId,
    own: patient.userId === viewer.id,
    name: displayName(patient.user),
    email: patient.user.email,
    birthDate: patient.user.birthDate ? patient.user.birthDate.toISOString().slice(0, 10) : null,
    timeZone: patient.timeZone,
    limits: { low: patient.lowLimit, high: patient.highLimit },
    glucose: shownGlucose(latest.get(patient.id) ?? [], patient, locale, now),
    bg: others.bg
      ? { mgdl: others.bg.mgdl, ...shownAt(others.bg.time, patient, locale, now) }
      : null,
    pump: others.pumpAt === null ? null : shownAt(others.pumpAt, patient, locale, now),
    today: { date: today.date, readings: todays.length, timeInRange: tir },
  };
}

export type CaringDetail = NonNullable<Awaited<ReturnType<typeof caringDetail>>>;
