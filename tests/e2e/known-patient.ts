import { expect, type APIRequestContext } from "@playwright/test";
import { shiftDate, todayIn, type IsoDate } from "../../app/report/day";
import type { UploadSummary } from "../../app/services/ingest.server";
import { apiCall, apiToken } from "./api";
import { createUser, type TestUser } from "./db";

/**
 * A fresh patient with a small data set whose figures are worked out by hand, so that the report
 * and view specs compare the pages with numbers that do not come from the code under test (each
 * spec writes the arithmetic beside its expected values). The data reach the database the way a
 * handheld's upload does: through the device-upload API, as the patient.
 *
 * Zone: Asia/Kolkata, UTC+05:30 all year, so every local day has 24 hours and local 00:00 is
 * 18:30 UTC of the day before.
 *
 * The week: the 7 local days ending yesterday (`first` to `last`). On each of them:
 * - CGM: a reading every 5 minutes from 00:00 to 23:55 (24 x 12 = 288 a day, 7 x 288 = 2016 a
 *   week), the sensor's raw values 35, 55, 85, 125 in turn. mg/dL = 1.8 x raw: 63, 99, 153, 225;
 *   mmol/L = mg/dL / 18 = raw / 10: 3.5, 5.5, 8.5, 12.5. Every day holds as many of each value
 *   (288 / 4 = 72), except for one spike on the first day: at 12:00, in place of 63 mg/dL, 396
 *   mg/dL (raw 220, 22.0 mmol/L), 396 - 63 = 333 mg/dL more. The spike sets the first day apart
 *   (its highest value, a taller glucose axis) but stays out of the in-range count.
 * - Pump (raw rates x 0.00625 U/h): basal 160 = 1.00 U/h from 00:00 and 80 = 0.50 U/h from 22:00,
 *   22 h x 1.00 + 2 h x 0.50 = 23.00 U; a normal bolus at 08:00, 9600 = 60 U/h for 3 minutes,
 *   3.00 U; so 26.00 U a day, 1 bolus. Carbohydrate 45 g at 07:55 and 15 g at 18:00: 60 g a day.
 * - Meter: 90 mg/dL at 07:30 and 150 mg/dL at 19:30.
 * Nothing on other days, except an earlier CGM day (20 days before yesterday,
 * inside the 14 days before the last 14): a reading every 5 minutes from 00:00 to 23:55, raw 50
 * and 70 in turn (90 and 126 mg/dL).
 */
const KNOWN_ZONE = "Asia/Kolkata";
/** The zone's offset from UTC, written by hand (it has had no daylight-saving time since 1945). */
const KNOWN_OFFSET = "+05:30";
/** Days in the week of data. */
const KNOWN_DAYS = 7;
/** Carried in every pump record but read by nothing checked here. */
const BATTERY = 80;
const RESERVOIR = 150;
/** The API takes at most this many records in one call. */
const RECORDS_PER_CALL = 1000;

export type KnownPatient = TestUser & {
  pid: number;
  timeZone: string;
  /** The week of data: `first` to `last` (yesterday in the zone). */
  first: IsoDate;
  last: IsoDate;
};

/** The instant (epoch ms) of a local wall-clock time ("HH:mm") on a day in the patient's zone. */
export function knownInstant(date: IsoDate, clock: string): number {
  return Date.parse(`${date}T${clock}:00${KNOWN_OFFSET}`);
}

/** Every 5 minutes of a day: "00:00", "00:05", ..., "23:55". */
function fiveMinuteClocks(): string[] {
  return Array.from({ length: 288 }, (_, i) => {
    const minutes = i * 5;
    return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  });
}

/** A pump history record: statusShort0 = basal raw, statusShort1 = bolus raw (grams in a carbohydrate record). */
function pumpRecord(
  recordId: number,
  date: IsoDate,
  clock: string,
  port: number,
  type: number,
  s0: number,
  s1: number,
) {
  return {
    recordId,
    eventIndex: recordId,
    eventPort: port,
    eventType: type,
    eventUrgency: 0,
    eventValue: 0,
    statusByte0: BATTERY,
    statusByte1: RESERVOIR,
    statusShort0: s0,
    statusShort1: s1,
    deviceTime: `${date} ${clock}:00`,
  };
}

/** The day's pump records (see the file comment): basal changes (port 4 type 0) and carbohydrate (port 3 type 1). */
function pumpDay(dayIndex: number, date: IsoDate) {
  const id = (k: number) => dayIndex * 10 + k + 1;
  return [
    pumpRecord(id(0), date, "00:00", 4, 0, 160, 0),
    pumpRecord(id(1), date, "07:55", 3, 1, 160, 45),
    pumpRecord(id(2), date, "08:00", 4, 0, 160, 9600),
    pumpRecord(id(3), date, "08:03", 4, 0, 160, 0),
    pumpRecord(id(4), date, "18:00", 3, 1, 160, 15),
    pumpRecord(id(5), date, "22:00", 4, 0, 80, 0),
  ];
}

/** Uploads records in calls of at most 1000; every record must be new. */
async function uploadAll(
  request: APIRequestContext,
  token: string,
  path: string,
  body: Record<string, unknown>,
  records: unknown[],
) {
  for (let i = 0; i < records.length; i += RECORDS_PER_CALL) {
    const dataList = records.slice(i, i + RECORDS_PER_CALL);
    const answer = await apiCall<UploadSummary>(request, token, "POST", path, {
      ...body,
      dataList,
    });
    expect([path, answer.code, answer.data.inserted]).toEqual([path, 200, dataList.length]);
  }
}

/** Creates the patient and uploads the data set of the file comment. */
export async function createKnownPatient(
  request: APIRequestContext,
  options: { tag: string; firstName: string; lastName: string },
): Promise<KnownPatient> {
  const user = await createUser({ ...options, identity: 1, timeZone: KNOWN_ZONE });
  const pid = user.pid!;
  const last = shiftDate(todayIn(KNOWN_ZONE, Date.now()), -1);
  const first = shiftDate(last, -(KNOWN_DAYS - 1));
  const earlierCgmDay = shiftDate(last, -20);
  const week = Array.from({ length: KNOWN_DAYS }, (_, d) => shiftDate(first, d));
  const clocks = fiveMinuteClocks();
  const token = await apiToken(request, user, 1);

  const cgm = [
    ...clocks.map((clock, i) => ({ raw: [50, 70][i % 2]!, at: `${earlierCgmDay} ${clock}:00` })),
    ...week.flatMap((date, d) =>
      clocks.map((clock, i) => ({
        raw: d === 0 && clock === "12:00" ? 220 : [35, 55, 85, 125][i % 4]!,
        at: `${date} ${clock}:00`,
      })),
    ),
  ].map(({ raw, at }, index) => ({
    eventIndex: index + 1,
    eventType: 7,
    eventData: raw,
    deviceTime: at,
  }));
  await uploadAll(
    request,
    token,
    "/api/patient-data/saveCgmsData",
    { pid, deviceSn: `KAX${pid}`, timeZone: KNOWN_ZONE },
    cgm,
  );
  await uploadAll(
    request,
    token,
    "/api/patient-data/save",
    { pid, pdaSn: `KEQ${pid}`, pdaVersion: "5.3.0", timeZone: KNOWN_ZONE },
    week.flatMap((date, d) => pumpDay(d, date)),
  );
  await uploadAll(
    request,
    token,
    "/api/patient-data/saveSugar",
    { pid, deviceSn: `KGC${pid}`, timeZone: KNOWN_ZONE },
    week.flatMap((date) => [
      { dateTime: `${date} 07:30:00`, statusShort0: 90, statusByte0: 0 },
      { dateTime: `${date} 19:30:00`, statusShort0: 150, statusByte0: 0 },
    ]),
  );
  return { ...user, pid, timeZone: KNOWN_ZONE, first, last };
}
