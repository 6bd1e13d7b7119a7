import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { issueEmailCode } from "~/models/email-code.server";
import { db } from "~/utils/db.server";
import { createInviteToken } from "~/models/invite-token.server";
import { createOriginToken } from "~/utils/origin-token.server";
import { hashPassword } from "~/utils/password.server";
import { expectDocumented } from "../support/api-contract";
import { catchMail } from "../support/catch-mail";

// Every `/api/` route, driven with random and hostile payloads: never a 5xx, always the
// `{ code, msg, data }` envelope with a translated message, and nothing written by a refused call.

catchMail({ APP_URL: "http://localhost:3000" });

const ROUTES_DIR = path.resolve("app/routes");
const ROUTE_FILES = readdirSync(ROUTES_DIR)
  .filter((file) => /^api\..+\.tsx$/.test(file))
  .map((file) => file.replace(/\.tsx$/, ""))
  .sort();

// ---- the signed-in users and rows the valid examples refer to -----------------------------------

type Fixture = Awaited<ReturnType<typeof makeFixture>>;
const PASSWORD = "fuzz password 1";
let serial = 0;

async function account(
  kind: "person" | "clinic",
  extra: {
    isPass?: number;
    active?: boolean;
    password?: string;
    role?: "admin" | "editor" | "guest";
  } = {},
) {
  serial += 1;
  const { password, ...rest } = extra;
  const user = await db().user.create({
    data: {
      email: `fuzz-${kind}-${serial}@fuzz.test`,
      identity: kind === "person" ? 1 : 2,
      firstName: `Fuzz${serial}`,
      passwordHash: password ? await hashPassword(password) : null,
      ...rest,
      ...(kind === "person" ? { patient: { create: {} } } : {}),
      setting: { create: { lang: "pl" } },
    },
    include: { patient: true },
  });
  return {
    id: user.id,
    email: user.email,
    pid: user.patient?.id ?? 0,
    token: await createApiToken(user.id),
  };
}

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function makeFixture() {
  const patient = await account("person");
  const reader = await account("person");
  const shareTarget = await account("person");
  const invited = await account("person");
  const leaver = await account("person");
  const refusing = await account("person");
  const clinic = await account("clinic", { isPass: 1 });
  const staff = await account("clinic", { isPass: 1, role: "editor" });
  const newClinic = await account("clinic", { isPass: 0 });
  const signIn = await account("person", { password: PASSWORD });
  const changer = await account("person", { password: PASSWORD });
  const inactive = await account("person", { active: false });
  const emailInvited = await account("person");
  const leaving = await account("person");

  const pending = await db().readPower.create({
    data: { providerId: patient.id, readerId: reader.id, sourceType: 0, state: 0 },
  });
  const accepted = await db().readPower.create({
    data: { providerId: shareTarget.id, readerId: reader.id, sourceType: 0, state: 1 },
  });
  await db().readPower.create({
    data: { providerId: patient.id, readerId: staff.id, sourceType: 1, state: 1 },
  });
  const removable = await db().readPower.create({
    data: { providerId: leaver.id, readerId: shareTarget.id, sourceType: 0, state: 1 },
  });
  const refused = await db().readPower.create({
    data: { providerId: refusing.id, readerId: clinic.id, sourceType: 1, state: 2 },
  });
  const byEmail = await db().readPower.create({
    data: { providerId: emailInvited.id, readerId: clinic.id, sourceType: 1, state: 0 },
  });
  const uploadTask = (status: "open" | "done", expectedCount: number) =>
    db().uploadTask.create({
      data: {
        patientId: patient.pid,
        uploaderId: patient.id,
        deviceKind: "equil",
        deviceSn: "FUZZ01",
        pdaVersion: "5.3.0",
        timeZone: "Europe/Warsaw",
        status,
        expectedCount,
      },
    });
  const sliceTarget = await uploadTask("open", 200_000);
  const abandoned = await uploadTask("open", 1);
  const finished = await uploadTask("done", 1);
  const diabetesType =
    (await db().option.findFirst({ where: { type: 0 } })) ??
    (await db().option.create({ data: { type: 0, code: "fuzz-type" } }));

  const activation = await issueEmailCode({
    email: inactive.email,
    purpose: "activate",
    userId: inactive.id,
  });
  const registration = await issueEmailCode({
    email: "fuzz-register@fuzz.test",
    purpose: "verify_email",
  });
  if (!activation.ok || !registration.ok) throw new Error("no email code");
  return {
    patient,
    staff,
    leaver,
    reader,
    clinic,
    newClinic,
    signIn,
    changer,
    inactive,
    shareTarget,
    invited,
    leaving,
    ids: {
      pending: pending.id,
      accepted: accepted.id,
      removable: removable.id,
      refused: refused.id,
      diabetesType: diabetesType.id,
      sliceTarget: sliceTarget.id,
      abandoned: abandoned.id,
      finished: finished.id,
    },
    inviteLink: await createInviteToken(byEmail.id),
    activationCode: activation.code,
    registrationCode: registration.code,
    range: { start: isoDay(-14), end: isoDay(-1) },
  };
}

// ---- the table of routes and their valid examples -----------------------------------------------

type Payload = Record<string, unknown>;
/** Hostile calls per route (FUZZ_RUNS to change; FUZZ_SEED to replay a failure). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
type Route = {
  method: "GET" | "POST";
  path: string;
  /** Whose token the calls carry (none: a call made before signing in). */
  token: (f: Fixture) => string | null;
  valid: (f: Fixture) => Payload;
  /** The code the valid example answers (from docs/api.md). */
  validCode?: number;
  /** A share of RUNS: fewer for routes that hash a password on every call that passes validation. */
  runs?: number;
  /** The route takes a file: its example (and a share of the hostile bodies) is sent as multipart. */
  multipart?: boolean;
  /** The content type of the valid answer when it is a file, not the envelope. */
  fileAnswer?: string;
};

/** A file field of a multipart example. */
type FileValue = { file: string; name: string };
const fileValue = (text: string, name = "readings.csv"): FileValue => ({ file: text, name });
const isFileValue = (value: unknown): value is FileValue =>
  typeof value === "object" &&
  value !== null &&
  "file" in value &&
  "name" in value &&
  typeof (value as FileValue).file === "string";

const own = (f: Fixture) => f.patient.token;
const none = () => null;
const report = (f: Fixture) => ({ pid: f.patient.pid, ...f.range });
const pumpRecord = {
  recordId: 1,
  eventIndex: 1,
  eventPort: 4,
  eventType: 0,
  eventUrgency: 0,
  eventValue: 0,
  statusByte0: 80,
  statusByte1: 100,
  statusShort0: 160,
  statusShort1: 0,
  deviceTime: "2026-07-01 08:00:00",
};

const ROUTES: Record<string, Route> = {
  "api.$": {
    method: "GET",
    path: "/api/no-such-call",
    token: own,
    valid: () => ({}),
    validCode: 404,
  },
  "api.active.active": {
    method: "POST",
    path: "/api/active/active",
    token: none,
    valid: (f) => ({
      origin: createOriginToken().token,
      code: f.activationCode,
      email: f.inactive.email,
      password: "fuzz password 9",
      confirmPassword: "fuzz password 9",
    }),
    runs: 0.5,
  },
  "api.active.randomString": {
    method: "GET",
    path: "/api/active/randomString",
    token: none,
    valid: () => ({}),
  },
  // Fewer than 5 full days of CGM data: the documented 400.
  "api.cgms.cgm-record.agp": {
    method: "POST",
    path: "/api/cgms/cgm-record/agp",
    token: own,
    valid: report,
    validCode: 400,
  },
  "api.dashboard.age": {
    method: "GET",
    path: "/api/dashboard/age",
    token: (f) => f.clinic.token,
    valid: () => ({}),
  },
  "api.dashboard.ill": {
    method: "GET",
    path: "/api/dashboard/ill",
    token: (f) => f.clinic.token,
    valid: () => ({}),
  },
  "api.dashboard.sex": {
    method: "GET",
    path: "/api/dashboard/sex",
    token: (f) => f.clinic.token,
    valid: () => ({}),
  },
  "api.cgms.cgm-record.findList": {
    method: "GET",
    path: "/api/cgms/cgm-record/findList",
    token: own,
    valid: report,
  },
  "api.country.list": { method: "GET", path: "/api/country/list", token: none, valid: () => ({}) },
  // The fixture's patient has fewer than 5 full days of CGM data: the documented 400.
  "api.fhir.cgm-summary": {
    method: "GET",
    path: "/api/fhir/cgm-summary",
    token: own,
    valid: report,
    validCode: 400,
    fileAnswer: "application/fhir\\+json",
  },
  "api.openapi[.]json": {
    method: "GET",
    path: "/api/openapi.json",
    token: none,
    valid: () => ({}),
    fileAnswer: "application/json",
  },
  "api.option.findOption": {
    method: "GET",
    path: "/api/option/findOption",
    token: own,
    valid: () => ({}),
  },
  "api.basal-rate-base-setting.save": {
    method: "POST",
    path: "/api/basal-rate-base-setting/save",
    token: own,
    valid: () => ({
      list: [{ settingIndex: 0, name: "Dzień", valueArray: Array.from({ length: 48 }, () => 64) }],
      pdaVersion: "5.3.0",
      pdaSn: "FUZZ01",
      pdaTimeZone: "GMT+01:00",
    }),
  },
  "api.pda-setting.saveOrUpdate": {
    method: "POST",
    path: "/api/pda-setting/saveOrUpdate",
    token: own,
    valid: () => ({
      pdaSn: "FUZZ01",
      pdaVersion: "5.3.0",
      lowBg: [700],
      highBg: [1800],
      defaultCho: [10],
      sensitiveSilver: [450],
      maxiumBasalRate: 300,
      doubleBolus: true,
    }),
  },
  "api.patient-data.checkSave": {
    method: "GET",
    path: "/api/patient-data/checkSave",
    token: own,
    valid: (f) => ({ sliceId: f.ids.finished }),
  },
  "api.patient-data.completeSliceTask": {
    method: "POST",
    path: "/api/patient-data/completeSliceTask",
    token: own,
    valid: (f) => ({ sliceId: f.ids.abandoned, isSuccess: false }),
  },
  "api.patient-data.getSliceId": {
    method: "POST",
    path: "/api/patient-data/getSliceId",
    token: own,
    valid: (f) => ({
      pid: f.patient.pid,
      deviceKind: "equil",
      deviceSn: "FUZZ01",
      pdaVersion: "5.3.0",
      total: 1000,
      timeZone: "Europe/Warsaw",
    }),
  },
  "api.patient-data.save": {
    method: "POST",
    path: "/api/patient-data/save",
    token: own,
    valid: (f) => ({
      pid: f.patient.pid,
      pdaSn: "FUZZ01",
      pdaVersion: "5.3.0",
      timeZone: "Europe/Warsaw",
      dataList: [pumpRecord],
    }),
  },
  "api.patient-data.saveCgmsData": {
    method: "POST",
    path: "/api/patient-data/saveCgmsData",
    token: own,
    valid: () => ({
      deviceSn: "AXFUZZ",
      timeZone: "Europe/Warsaw",
      dataList: [{ eventIndex: 1, eventType: 7, eventData: 70, deviceTime: "2026-07-01 08:00:00" }],
    }),
  },
  "api.patient-data.saveSugar": {
    method: "POST",
    path: "/api/patient-data/saveSugar",
    token: own,
    valid: () => ({
      deviceSn: "GCFUZZ",
      timeZone: "Europe/Rome",
      dataList: [{ dateTime: "2026-07-01 08:00:00", statusShort0: 120, statusByte0: 0 }],
    }),
  },
  "api.patient-data.sliceSave": {
    method: "POST",
    path: "/api/patient-data/sliceSave",
    token: own,
    valid: (f) => ({ sliceId: f.ids.sliceTarget, index: 0, dataList: [pumpRecord] }),
  },
  "api.patient-data.exportReport": {
    method: "GET",
    path: "/api/patient-data/exportReport",
    token: (f) => f.staff.token,
    valid: (f) => ({ pids: String(f.patient.pid), ...f.range, unit: 1 }),
    fileAnswer: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    runs: 0.5,
  },
  "api.patient-data.preExport": {
    method: "GET",
    path: "/api/patient-data/preExport",
    token: (f) => f.staff.token,
    valid: (f) => ({ pids: String(f.patient.pid), ...f.range }),
  },
  "api.patient-data.getLatestDateFromReportAndAidex": {
    method: "GET",
    path: "/api/patient-data/getLatestDateFromReportAndAidex",
    token: own,
    valid: (f) => ({ pid: f.patient.pid }),
  },
  "api.patient-data.listExistInDateFromReport": {
    method: "POST",
    path: "/api/patient-data/listExistInDateFromReport",
    token: own,
    valid: report,
  },
  "api.patient-data.findLastRecord": {
    method: "GET",
    path: "/api/patient-data/findLastRecord",
    token: own,
    valid: (f) => ({ pid: f.patient.pid, origin: 0 }),
  },
  "api.patient-data.getPdaTimeZone": {
    method: "GET",
    path: "/api/patient-data/getPdaTimeZone",
    token: own,
    valid: (f) => ({ pid: f.patient.pid }),
  },
  "api.patient-data.uploadErrLog": {
    method: "POST",
    path: "/api/patient-data/uploadErrLog",
    token: own,
    valid: (f) => ({
      list: [
        {
          operatorUserId: f.patient.id,
          patientUserId: f.patient.id,
          content: "Nie można odczytać pompy\nrekord 120",
        },
      ],
    }),
  },
  "api.patient-data.importCsv": {
    method: "POST",
    path: "/api/patient-data/importCsv",
    token: own,
    multipart: true,
    valid: (f) => ({
      pid: String(f.patient.pid),
      file: fileValue("time,glucose\n2026-05-01 08:00,120\n2026-05-01 08:05,124\n"),
      format: "generic",
      timeZone: "Europe/Warsaw",
      dryRun: "1",
    }),
  },
  "api.patient-data.exportCsv": {
    method: "GET",
    path: "/api/patient-data/exportCsv",
    token: own,
    valid: report,
    fileAnswer: "text/csv",
  },
  "api.patient-data.findPatientData": {
    method: "GET",
    path: "/api/patient-data/findPatientData",
    token: own,
    valid: (f) => ({ pid: f.patient.pid, date: isoDay(-1) }),
  },
  "api.patient-data.pdf": {
    method: "POST",
    path: "/api/patient-data/pdf",
    token: own,
    valid: report,
  },
  "api.patient-data.sugarData": {
    method: "GET",
    path: "/api/patient-data/sugarData",
    token: own,
    valid: report,
  },
  "api.patient-data.sugarDevicePdf": {
    method: "POST",
    path: "/api/patient-data/sugarDevicePdf",
    token: own,
    valid: report,
  },
  "api.patient.findOne": {
    method: "GET",
    path: "/api/patient/findOne",
    token: own,
    valid: (f) => ({ pid: f.patient.pid }),
  },
  "api.patient.save": {
    method: "POST",
    path: "/api/patient/save",
    token: own,
    valid: (f) => ({
      pid: f.patient.pid,
      firstName: "Nina",
      gender: "female",
      diabetesType: f.ids.diabetesType,
      unit: 0,
      lowLimit: 3.9,
      highLimit: 10,
      timeZone: "Europe/Warsaw",
      breakfastStart: "06:00",
      breakfastEnd: "10:00",
    }),
  },
  // A caller of its own, so that hostile ids cannot remove the rows other examples need.
  "api.read-power.delete": {
    method: "POST",
    path: "/api/read-power/delete",
    token: (f) => f.leaver.token,
    valid: (f) => ({ readPowerId: f.ids.removable }),
  },
  "api.read-power.findList": {
    method: "GET",
    path: "/api/read-power/findList",
    token: own,
    valid: () => ({ pageNum: 1, pageSize: 10, tab: "others", searchOption: "Fuzz" }),
  },
  "api.read-power.findShareList": {
    method: "GET",
    path: "/api/read-power/findShareList",
    token: own,
    valid: (f) => ({ searchOption: f.invited.email, pageNum: 1 }),
  },
  "api.read-power.invite": {
    method: "POST",
    path: "/api/read-power/invite",
    token: (f) => f.clinic.token,
    valid: (f) => ({ provideId: f.invited.id, message: "Dzień dobry" }),
  },
  "api.read-power.process": {
    method: "POST",
    path: "/api/read-power/process",
    token: (f) => f.reader.token,
    valid: (f) => ({ id: f.ids.pending, state: 1, nickName: "Mama", message: "ok" }),
  },
  "api.read-power.processFromEmail": {
    method: "POST",
    path: "/api/read-power/processFromEmail",
    token: none,
    valid: (f) => ({ data: f.inviteLink, state: 1 }),
  },
  "api.read-power.reinvite": {
    method: "POST",
    path: "/api/read-power/reinvite",
    token: (f) => f.clinic.token,
    valid: (f) => ({ id: f.ids.refused }),
  },
  "api.read-power.save": {
    method: "POST",
    path: "/api/read-power/save",
    token: own,
    valid: (f) => ({ readId: f.invited.id, message: "Zobacz" }),
  },
  "api.read-power.update": {
    method: "POST",
    path: "/api/read-power/update",
    token: (f) => f.reader.token,
    valid: (f) => ({ readPowerId: f.ids.accepted, nickName: "Babcia", uploadIsNew: 1 }),
  },
  "api.setting.findOne": {
    method: "GET",
    path: "/api/setting/findOne",
    token: own,
    valid: () => ({}),
  },
  "api.setting.getTimeZone": {
    method: "GET",
    path: "/api/setting/getTimeZone",
    token: own,
    valid: () => ({}),
  },
  "api.setting.update": {
    method: "POST",
    path: "/api/setting/update",
    token: own,
    valid: (f) => ({
      pid: f.patient.pid,
      timeZone: "Europe/Warsaw",
      breakfastTime: ["06:00:00", "10:00:00"],
      lunchTime: ["11:00:00", "14:00:00"],
      supperTime: ["17:00:00", "20:00:00"],
    }),
  },
  "api.user.getUserInfo": {
    method: "GET",
    path: "/api/user/getUserInfo",
    token: own,
    valid: () => ({}),
  },
  "api.user.logout": {
    method: "POST",
    path: "/api/user/logout",
    token: (f) => f.leaving.token,
    valid: () => ({}),
  },
  "api.user.login": {
    method: "POST",
    path: "/api/user/login",
    token: none,
    valid: (f) => ({ userName: f.signIn.email, password: PASSWORD, identity: 1 }),
    runs: 80,
  },
  "api.user.password": {
    method: "POST",
    path: "/api/user/password",
    token: (f) => f.changer.token,
    valid: () => ({
      currentPassword: PASSWORD,
      password: "fuzz password 2",
      confirmPassword: "fuzz password 2",
    }),
    runs: 0.5,
  },
  "api.user.register": {
    method: "POST",
    path: "/api/user/register",
    token: none,
    valid: (f) => ({
      email: "fuzz-register@fuzz.test",
      code: f.registrationCode,
      password: "fuzz password 3",
      confirmPassword: "fuzz password 3",
      firstName: "Ola",
      lastName: "Nowak",
      agree: true,
      identity: 1,
      birthDate: "1980-03-04",
      height: 170,
      weight: 70,
      unit: 1,
      lowLimit: 70,
      highLimit: 180,
    }),
    runs: 0.5,
  },
  "api.user.sendMail": {
    method: "POST",
    path: "/api/user/sendMail",
    token: none,
    valid: () => ({ email: "nobody@fuzz.test", type: "reset" }),
  },
  "api.user.updateIdentityInfo": {
    method: "POST",
    path: "/api/user/updateIdentityInfo",
    token: (f) => f.newClinic.token,
    valid: () => ({
      hospitalName: "Szpital",
      address: "ul. Długa 1",
      area: "Mazowieckie",
      country: "PL",
      connectName: "Anna Kowalska",
      connectPhone: "+48 22 123 45 67",
    }),
  },
};

// ---- hostile values and requests ----------------------------------------------------------------

const HOSTILE_CONSTANTS: unknown[] = [
  true,
  false,
  null,
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  Number.MAX_VALUE,
  "",
  " ",
  "NaN",
  "Infinity",
  "-1",
  "2147483648",
  "99999999999999999999",
  "1e3",
  "0x10",
  "\u0000",
  "Ann\u0000a",
  "\u202Eevil",
  "Ann\u2066a\u2069",
  "x\u202Ay",
  "\u001b[31mred",
  "tab\there",
  "\ud800",
  "\u0085",
  "🙂",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "x".repeat(10_000),
  "9".repeat(400),
  "2026-02-30",
  "9999-12-31",
  "2026/13/01",
  [],
  [1, 2],
  ["1"],
  {},
  { id: 1 },
  { $gt: 0 },
  { nested: { deeper: [null, true] } },
];

/** Tried in every field of every route before the random runs. */
const CORE_HOSTILE: unknown[] = [
  "Ann\u0000a",
  "\u202Eevil",
  true,
  2 ** 31,
  "2147483648",
  { nested: [1] },
];

/** The valid example with each field in turn replaced by each core hostile value. */
const fieldExamples = (valid: Payload): Payload[] =>
  Object.keys(valid).flatMap((key) => CORE_HOSTILE.map((value) => ({ ...valid, [key]: value })));

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt().map(String)) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** The valid example with fields replaced by hostile values, removed, or added. */
function mutated(valid: Payload): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const extraKey = fc.oneof(
    fc.constantFrom("__proto__", "constructor", "pid", "id", "userId", "role"),
    fc.string({ maxLength: 10 }),
  );
  const replace = keys.length
    ? fc
        .tuple(
          fc.subarray(keys, { minLength: 1 }),
          fc.array(hostileValue, { minLength: keys.length, maxLength: keys.length }),
        )
        .map(([picked, values]) => {
          const out: Payload = { ...valid };
          picked.forEach((key, i) => (out[key] = values[i]));
          return out;
        })
    : fc.constant(valid);
  const remove = fc
    .subarray(keys)
    .map((gone) =>
      Object.fromEntries(Object.entries(valid).filter(([key]) => !gone.includes(key))),
    );
  const add = fc
    .dictionary(extraKey, hostileValue, { maxKeys: 3 })
    .map((extra) => ({ ...valid, ...extra }));
  return fc.oneof(
    { weight: 6, arbitrary: replace },
    { weight: 1, arbitrary: remove },
    { weight: 1, arbitrary: add },
    { weight: 1, arbitrary: hostileValue },
  );
}

const MALFORMED_JSON = [
  "",
  "{",
  '{"pid":',
  "{'pid': 1}",
  '{"pid": NaN}',
  '{"pid": 1,}',
  "undefined",
  '{"a":1}}',
  "\u0000",
  '{"pid": 1e309}',
  '{"pid": -0}',
  '{"pid": 123456789012345678901234567890}',
  '{"__proto__": {"polluted": true}}',
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
  '"just a string"',
  "42",
  "null",
  "true",
];

/** How a hostile body is sent. */
type Body =
  | { kind: "json"; value: unknown }
  | { kind: "text"; type: string | null; text: string }
  | { kind: "form"; value: unknown }
  | { kind: "multipart"; value: unknown }
  | { kind: "none" };

/** Text a form or a query would carry for a value. */
const asText = (value: unknown) =>
  typeof value === "string"
    ? value
    : value === undefined
      ? ""
      : (JSON.stringify(value) ?? String(value));

/** The fields of a form or query for a value: each list item a repeated field, anything else its text. */
function textEntries(value: unknown): [string, string][] {
  const entries: [string, unknown][] =
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value)
      : [["value", value]];
  return entries.flatMap(([key, item]) =>
    (Array.isArray(item) ? item : [item]).map((one): [string, string] => [key, asText(one)]),
  );
}

function bodies(valid: Payload, multipart = false): fc.Arbitrary<Body> {
  return fc.oneof(
    {
      weight: multipart ? 6 : 0,
      arbitrary: mutated(valid).map((value): Body => ({ kind: "multipart", value })),
    },
    { weight: 6, arbitrary: mutated(valid).map((value): Body => ({ kind: "json", value })) },
    { weight: 2, arbitrary: mutated(valid).map((value): Body => ({ kind: "form", value })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.constantFrom(...MALFORMED_JSON), fc.string({ maxLength: 30 }))
        .map((text): Body => ({ kind: "text", type: "application/json", text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<string | null>(
          null,
          "text/plain",
          "application/xml",
          "application/octet-stream",
          "application/jsonp",
          "text/json",
          "multipart/form-data",
          "application/x-www-form-urlencoded; charset=utf-7",
        )
        .map((type): Body => ({ kind: "text", type, text: JSON.stringify(valid) })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: "none" }) },
  );
}

function postRequest(route: Route, body: Body, token: string | null): Request {
  const headers: Record<string, string> = {
    "Accept-Language": "pl",
    "X-Forwarded-For": "203.0.113.9",
    ...(token ? { token } : {}),
  };
  const url = `http://localhost${route.path}`;
  switch (body.kind) {
    case "json":
      return new Request(url, {
        method: "POST",
        body: JSON.stringify(body.value) ?? "",
        headers: { ...headers, "Content-Type": "application/json" },
      });
    case "text":
      return new Request(url, {
        method: "POST",
        body: body.text,
        headers: body.type ? { ...headers, "Content-Type": body.type } : headers,
      });
    case "form": {
      return new Request(url, {
        method: "POST",
        body: new URLSearchParams(textEntries(body.value)),
        headers,
      });
    }
    case "multipart": {
      const form = new FormData();
      const entries: [string, unknown][] =
        body.value && typeof body.value === "object" && !Array.isArray(body.value)
          ? Object.entries(body.value)
          : [["value", body.value]];
      for (const [key, item] of entries) {
        if (isFileValue(item))
          form.append(key, new File([item.file], item.name, { type: "text/csv" }));
        else for (const [k, text] of textEntries({ [key]: item })) form.append(k, text);
      }
      return new Request(url, { method: "POST", body: form, headers });
    }
    case "none":
      return new Request(url, { method: "POST", headers });
  }
}

function getRequest(route: Route, query: unknown, token: string | null): Request {
  const params = new URLSearchParams(textEntries(query));
  return new Request(`http://localhost${route.path}?${params}`, {
    headers: { "Accept-Language": "pl", ...(token ? { token } : {}) },
  });
}

// ---- what every answer must be ------------------------------------------------------------------

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<unknown>;

/** Runs a loader or action as Remix does: a thrown Response is the answer; anything else thrown is a 500. */
async function answer(handler: Handler, request: Request): Promise<Response> {
  try {
    const result = await handler({ request, params: {}, context: {} });
    if (!(result instanceof Response)) throw new Error(`not a Response: ${String(result)}`);
    return result;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** Every Polish message (interpolations as wildcards): a refused call's `msg` must be one of them. */
const polishMessages: RegExp[] = (() => {
  const dir = path.resolve("locales/pl");
  const out: RegExp[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string")
      out.push(
        new RegExp(
          `^${node.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{\\\{\s*\w+\s*\\\}\\\}/g, ".*")}$`,
          "s",
        ),
      );
    else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  for (const file of readdirSync(dir)) walk(JSON.parse(readFileSync(path.join(dir, file), "utf8")));
  return out;
})();

/** Tables whose rows count refused attempts by design (the throttles). */
const COUNTERS = new Set(["RateLimit"]);
/**
 * Reads the access gateway granted are logged whatever the answer (an AGP refused for too few
 * full days has read the data to say so); that refused reads log nothing is the access gateway
 * test's (tests/db/access-gateway.test.ts). Every other access-log row counts.
 */
const COUNTED_WHERE: Record<string, string> = { AuditLog: `WHERE action NOT LIKE 'read:%'` };
let countSql = "";

async function rowCounts(): Promise<Record<string, number>> {
  const rows = await db().$queryRawUnsafe<{ t: string; n: number }[]>(countSql);
  return Object.fromEntries(rows.map((row) => [row.t, row.n]));
}

type Checked = { status: number; code: number; msg: string };

async function check(
  handler: Handler,
  request: Request,
  before: Record<string, number>,
  fileAnswer?: string,
): Promise<{ checked: Checked; after: Record<string, number> }> {
  const response = await answer(handler, request);
  expect(response.status, "no 5xx").toBeLessThan(500);
  if (fileAnswer && response.status === 200) {
    expect(response.headers.get("Content-Type")).toMatch(new RegExp(`^${fileAnswer}`));
    await response.arrayBuffer();
    return { checked: { status: 200, code: 200, msg: "" }, after: await rowCounts() };
  }
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["code", "data", "msg"]);
  expectDocumented(request.method, request.url, response.status, body);
  expect(typeof body.code).toBe("number");
  expect(body.code).not.toBe(500);
  expect(typeof body.msg).toBe("string");
  const after = await rowCounts();
  if (response.status !== 200) {
    expect(
      polishMessages.some((re) => re.test(body.msg as string)),
      `translated message: ${String(body.msg)}`,
    ).toBe(true);
    expect(after, "a refused call writes no row").toEqual(before);
  }
  return {
    checked: { status: response.status, code: body.code as number, msg: body.msg as string },
    after,
  };
}

// ---- the test -----------------------------------------------------------------------------------

let fixture: Fixture;

beforeAll(async () => {
  // Every table once: a partitioned log counts through its parent, not its month partitions.
  const tables = await db().$queryRaw<{ table_name: string }[]>`
    SELECT c.relname::text AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'`;
  countSql = tables
    .map((t) => t.table_name)
    .filter((name) => !COUNTERS.has(name))
    .map(
      (name) =>
        `SELECT '${name}' AS t, count(*)::int AS n FROM "${name}" ${COUNTED_WHERE[name] ?? ""}`,
    )
    .join(" UNION ALL ");
  fixture = await makeFixture();
});

describe("every /api/ route under hostile input", () => {
  it("has a valid example for every route file", () => {
    expect(Object.keys(ROUTES).sort()).toEqual(ROUTE_FILES);
  });

  it.each(ROUTE_FILES)(
    "%s: no 5xx, the envelope, a translated refusal, no row written by a refused call",
    { timeout: 180_000 },
    async (name) => {
      const route = ROUTES[name];
      if (!route) throw new Error(`${name} has no valid example in ROUTES`);
      const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, `${name}.tsx`))) as {
        loader?: Handler;
        action?: Handler;
      };
      const handler = route.method === "GET" ? mod.loader : mod.action;
      if (!handler)
        throw new Error(`${name} has no ${route.method === "GET" ? "loader" : "action"}`);
      const token = route.token(fixture);
      const valid = route.valid(fixture);

      let counts = await rowCounts();
      const request =
        route.method === "GET"
          ? getRequest(route, valid, token)
          : postRequest(
              route,
              { kind: route.multipart ? "multipart" : "json", value: valid },
              token,
            );
      const first = await check(handler, request, counts, route.fileAnswer);
      expect(
        first.checked.code,
        `the valid example answers ${route.validCode ?? 200}: ${first.checked.msg}`,
      ).toBe(route.validCode ?? 200);
      // A password change ends the tokens issued before it.
      const fuzzToken =
        name === "api.user.password" ? await createApiToken(fixture.changer.id) : token;
      counts = await rowCounts();

      // Values, not Requests, are generated: a request body can be read once, and shrinking replays values.
      const settings = {
        numRuns: Math.ceil((route.runs ?? 1) * RUNS),
        seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
      };
      if (route.method === "GET") {
        const property = fc.asyncProperty(mutated(valid), async (query) => {
          counts = (
            await check(handler, getRequest(route, query, fuzzToken), counts, route.fileAnswer)
          ).after;
        });
        await fc.assert(property, {
          ...settings,
          examples: fieldExamples(valid).map((query): [unknown] => [query]),
        });
      } else {
        const property = fc.asyncProperty(bodies(valid, route.multipart), async (body) => {
          counts = (await check(handler, postRequest(route, body, fuzzToken), counts)).after;
        });
        const wholeBodies: Body[] = [
          { kind: "text", type: "application/json", text: "{" },
          { kind: "text", type: "text/plain", text: JSON.stringify(valid) },
          { kind: "none" },
        ];
        const examples = [
          ...fieldExamples(valid).map((value): Body => ({ kind: "json", value })),
          ...wholeBodies,
        ].map((body): [Body] => [body]);
        await fc.assert(property, { ...settings, examples });
      }
    },
  );
});

describe("the range rules of the patient-data reads", () => {
  // A range covers at most 90 days with both ends counted; a day after today is refused.
  const days91 = () => ({ pid: fixture.patient.pid, start: isoDay(-91), end: isoDay(-1) });
  const days90 = () => ({ pid: fixture.patient.pid, start: isoDay(-90), end: isoDay(-1) });
  it.each([
    ["api.patient-data.sugarData", "91 days", days91, 400],
    ["api.patient-data.pdf", "91 days", days91, 400],
    ["api.patient-data.sugarData", "90 days", days90, 200],
    [
      "api.patient-data.findPatientData",
      "a day after tomorrow",
      () => ({ pid: fixture.patient.pid, date: isoDay(2) }),
      400,
    ],
  ] as const)("%s with %s answers %i", async (name, _label, payload, code) => {
    const route = ROUTES[name]!;
    const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, `${name}.tsx`))) as {
      loader?: Handler;
      action?: Handler;
    };
    const handler = (route.method === "GET" ? mod.loader : mod.action)!;
    const request =
      route.method === "GET"
        ? getRequest(route, payload(), route.token(fixture))
        : postRequest(route, { kind: "json", value: payload() }, route.token(fixture));
    const { checked } = await check(handler, request, await rowCounts());
    expect(checked.code).toBe(code);
  });
});
