import { beforeAll, describe, expect, it } from "vitest";
import { activateAccount } from "~/models/account.server";
import { createApiToken } from "~/models/api-token.server";
import { action as saveRoute } from "~/routes/api.patient.save";
import { loader as findOneRoute } from "~/routes/api.patient.findOne";
import { action as recordAction, loader as recordLoader } from "~/routes/patient";
import { action as addAction, loader as addLoader } from "~/routes/patientAdd";
import { db } from "~/utils/db.server";
import { sessionStorage } from "~/services/session.server";
import enApi from "../../locales/en/api.json";
import enRecord from "../../locales/en/record.json";
import plApi from "../../locales/pl/api.json";
import plRecord from "../../locales/pl/record.json";
import { catchMail } from "../support/catch-mail";
import { recipientsOf } from "../support/smtp-catcher";
import { getApi, postApi, type Handler } from "./api-client";

// The activation email goes over real SMTP to an in-process catcher (env() reads SMTP_URL on
// first use, after catchMail's beforeAll).
const smtp = catchMail({ APP_URL: "https://care.diacare.test" });

const save = (token: string | undefined, body: unknown, extra?: Record<string, string>) =>
  postApi(saveRoute as Handler, "/api/patient/save", body, token, extra);
const findOne = (token: string | undefined, pid: number | string, extra?: Record<string, string>) =>
  getApi(findOneRoute as Handler, `/api/patient/findOne?pid=${pid}`, token, extra);

// ---- accounts and options -------------------------------------------------------------------

type Account = { id: number; email: string; pid: number | null; token: string; cookie: string };
let serial = 0;

async function cookieFor(userId: number) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0]!;
}

async function account(
  kind: "person" | "clinic",
  extra: { isPass?: number; unit?: number } = {},
): Promise<Account> {
  serial += 1;
  const user = await db().user.create({
    data: {
      email: `${kind}-${serial}@record.test`,
      identity: kind === "person" ? 1 : 2,
      isPass: extra.isPass ?? (kind === "clinic" ? 1 : 0),
      firstName: kind === "person" ? "Pat" : "Clinic",
      lastName: String(serial),
      setting: { create: { lang: "en", unit: extra.unit ?? 0 } },
      ...(kind === "person" ? { patient: { create: {} } } : {}),
    },
    include: { patient: true },
  });
  return {
    id: user.id,
    email: user.email,
    pid: user.patient?.id ?? null,
    token: await createApiToken(user.id),
    cookie: await cookieFor(user.id),
  };
}

let option: Record<string, number> = {};
const opt = (code: string): number => option[code]!;
beforeAll(async () => {
  option = Object.fromEntries((await db().option.findMany()).map((o) => [o.code, o.id]));
});

function newPatient(email: string, extra: Record<string, unknown> = {}) {
  return {
    email,
    firstName: "Nina",
    lastName: "Novak",
    gender: "female",
    diabetesType: opt("type1"),
    basicDiseases: `${opt("hypertension")},${opt("obesity")}`,
    complication: String(opt("retinopathy")),
    birthDate: "1985/07/04",
    lowLimit: 3.9,
    highLimit: 10,
    timeZone: "Europe/Warsaw",
    ...extra,
  };
}

async function counts() {
  const [users, patients, shares, conditions] = await Promise.all([
    db().user.count(),
    db().patient.count(),
    db().readPower.count(),
    db().patientCondition.count(),
  ]);
  return { users, patients, shares, conditions };
}

function form(values: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values))
    for (const v of [value].flat()) data.append(key, v);
  return data;
}

async function runPage<T>(run: () => Promise<T>): Promise<{ status: number; body: unknown }> {
  try {
    const result = await run();
    if (result instanceof Response) return { status: result.status, body: null };
    // `data(...)` from an action: { type: "DataWithResponseInit", data, init }.
    const wrapped = result as { type?: string; data?: unknown; init?: { status?: number } };
    if (wrapped?.type === "DataWithResponseInit")
      return { status: wrapped.init?.status ?? 200, body: wrapped.data };
    return { status: 200, body: result };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: null };
    throw thrown;
  }
}

const pageRequest = (path: string, cookie: string, body?: FormData) =>
  new Request(`http://localhost${path}`, {
    method: body ? "POST" : "GET",
    headers: { Cookie: cookie },
    ...(body ? { body } : {}),
  });

// ---- creating a record ----------------------------------------------------------------------

describe("POST /api/patient/save without pid: a new person's record", () => {
  it("creates, in one go, the inactive person, the record, its conditions and the creator's pending share; then mails the activation code", async () => {
    const clinic = await account("clinic", { unit: 0 });
    const email = `new-${Date.now()}@record.test`;
    const answer = await save(clinic.token, [newPatient(` ${email.toUpperCase()} `)]);
    expect(answer).toMatchObject({
      status: 200,
      code: 200,
      msg: enApi.addSuccess,
      data: { mailed: true },
    });

    const user = await db().user.findUniqueOrThrow({
      where: { email },
      include: { patient: { include: { conditions: true } }, setting: true, provided: true },
    });
    expect(user).toMatchObject({
      id: answer.data.userId,
      identity: 1,
      active: false,
      passwordHash: null,
      gender: "female",
      firstName: "Nina",
      lastName: "Novak",
    });
    expect(user.birthDate?.toISOString().slice(0, 10)).toBe("1985-07-04");
    expect(user.setting).toMatchObject({ lang: "en", unit: 0 });
    expect(user.patient).toMatchObject({
      id: answer.data.pid,
      createdById: clinic.id,
      diabetesTypeId: opt("type1"),
      lowLimit: 70,
      highLimit: 180,
      timeZone: "Europe/Warsaw",
      breakfastStart: 21600,
    });
    expect(user.patient!.conditions.map((c) => c.optionId).sort((a, b) => a - b)).toEqual(
      [opt("hypertension"), opt("obesity"), opt("retinopathy")].sort((a, b) => a - b),
    );
    expect(user.provided).toEqual([
      expect.objectContaining({ readerId: clinic.id, sourceType: 2, state: 0 }),
    ]);

    const mail = await smtp.catcher.waitFor((m) => recipientsOf(m).includes(email));
    const code = mail.text?.match(/\b(\d{6})\b/)?.[1];
    expect(code).toBeDefined();
    // The existing activation flow takes the emailed code (the person chooses a password).
    expect(
      await activateAccount({ email, code: code!, password: "a new password 1" }),
    ).toMatchObject({ ok: true, userId: user.id });

    // The creator reads nothing until the owner accepts the share, then sees the record through the access rules.
    expect(await findOne(clinic.token, answer.data.pid)).toMatchObject({ status: 404 });
    await db().readPower.updateMany({
      where: { providerId: user.id, readerId: clinic.id },
      data: { state: 1 },
    });
    const seen = await findOne(clinic.token, answer.data.pid);
    expect(seen).toMatchObject({
      code: 200,
      data: {
        pid: answer.data.pid,
        email,
        own: false,
        lowLimit: 3.9,
        highLimit: 10,
        lowLimitMgdl: 70,
        diabetesType: { code: "type1", name: "Type 1 diabetes" },
      },
    });
  });

  it("refuses an email that is already registered (409 'Add Failed') and writes nothing", async () => {
    const clinic = await account("clinic");
    const person = await account("person");
    const before = await counts();
    const answer = await save(clinic.token, [newPatient(person.email)]);
    expect(answer).toMatchObject({
      status: 409,
      code: 409,
      msg: enApi.addFailed,
      data: { error: enRecord.errors.emailTaken, field: "email" },
    });
    expect(await counts()).toEqual(before);
  });

  it("two simultaneous adds of one email: one wins, the other is refused, one account exists", async () => {
    const clinic = await account("clinic");
    const email = `race-${Date.now()}@record.test`;
    const answers = await Promise.all([
      save(clinic.token, [newPatient(email)]),
      save(clinic.token, [newPatient(email)]),
    ]);
    expect(answers.map((a) => a.code).sort()).toEqual([200, 409]);
    expect(await db().user.count({ where: { email } })).toBe(1);
    expect(await db().readPower.count({ where: { provider: { email } } })).toBe(1);
  });

  it("validates with translated messages: the range, required gender and type, option types, the list", async () => {
    const clinic = await account("clinic");
    const before = await counts();
    const wrong = await save(clinic.token, [
      newPatient("range@record.test", { lowLimit: 10, highLimit: 3.9 }),
    ]);
    expect(wrong).toMatchObject({
      status: 400,
      code: 400,
      msg: enRecord.errors.glucoseRangeWrong,
      data: { fields: { highLimit: ["errors.glucoseRangeWrong"] } },
    });
    const missing = await save(clinic.token, [newPatient("range@record.test", { highLimit: "" })], {
      "Accept-Language": "pl",
    });
    expect(missing).toMatchObject({ code: 400, msg: plRecord.errors.glucoseRangeRequired });
    expect(
      (await save(clinic.token, [newPatient("g@record.test", { gender: undefined })])).msg,
    ).toBe(enRecord.errors.genderMsg);
    expect(
      (await save(clinic.token, [newPatient("g@record.test", { diabetesType: null })])).msg,
    ).toBe(enRecord.errors.diabetesTypeMsg);
    expect(
      (await save(clinic.token, [newPatient("g@record.test", { birthDate: "2999/01/01" })])).msg,
    ).toBe(enRecord.errors.birthDateFuture);
    // An option of the wrong type (a complication offered as the diabetes type).
    expect(
      await save(clinic.token, [newPatient("g@record.test", { diabetesType: opt("retinopathy") })]),
    ).toMatchObject({ code: 400, msg: enRecord.errors.diabetesTypeMsg });
    expect(
      await save(clinic.token, [newPatient("g@record.test", { complication: `${opt("type2")}` })]),
    ).toMatchObject({ code: 400, data: { fields: { complication: ["errors.optionInvalid"] } } });
    expect(await save(clinic.token, [])).toMatchObject({
      code: 400,
      msg: enRecord.errors.listOfOne,
    });
    expect(
      await save(clinic.token, [newPatient("a@record.test"), newPatient("b@record.test")]),
    ).toMatchObject({ code: 400, msg: enRecord.errors.listOfOne });
    expect(await counts()).toEqual(before);
  });

  it("takes the limits in the caller's unit (mg/dL setting, or `unit` in the object)", async () => {
    const clinic = await account("clinic", { unit: 1 });
    const a = await save(clinic.token, [
      newPatient(`mgdl-${Date.now()}@record.test`, { lowLimit: 80, highLimit: 160 }),
    ]);
    expect(a.code).toBe(200);
    expect(await db().patient.findUniqueOrThrow({ where: { id: a.data.pid } })).toMatchObject({
      lowLimit: 80,
      highLimit: 160,
    });
    const b = await save(clinic.token, [
      newPatient(`mmol-${Date.now()}@record.test`, { unit: 0, lowLimit: 4.4, highLimit: 7.8 }),
    ]);
    expect(await db().patient.findUniqueOrThrow({ where: { id: b.data.pid } })).toMatchObject({
      lowLimit: 79,
      highLimit: 140,
    });
    // findOne answers in the caller's unit (once the owner has accepted the creator's share).
    await db().readPower.updateMany({
      where: { provider: { patient: { id: b.data.pid } }, readerId: clinic.id },
      data: { state: 1 },
    });
    expect((await findOne(clinic.token, b.data.pid)).data).toMatchObject({
      unit: 1,
      lowLimit: 79,
      highLimit: 140,
    });
  });

  it("a clinic whose organisation is not approved may not add patients (403 'Add Failed'), nothing written", async () => {
    const before = await counts();
    for (const isPass of [0, 2, 3]) {
      const clinic = await account("clinic", { isPass });
      const after = await counts();
      const answer = await save(clinic.token, [newPatient(`unapproved-${isPass}@record.test`)], {
        "Accept-Language": "pl",
      });
      expect(answer).toMatchObject({
        status: 403,
        code: 403,
        msg: plApi.addFailed,
        data: { error: plRecord.errors.clinicNotApproved },
      });
      expect(await counts()).toEqual(after);
    }
    expect((await counts()).users).toBe(before.users + 3);
  });

  it("needs a token", async () => {
    expect((await save(undefined, [newPatient("x@record.test")])).code).toBe(800);
    expect((await findOne(undefined, 1)).code).toBe(800);
  });
});

// ---- reading and saving -----------------------------------------------------------------------

describe("findOne and save with pid: through the access rules", () => {
  async function scenario() {
    const owner = await account("person");
    const reader = await account("clinic");
    const stranger = await account("person");
    const unapproved = await account("clinic", { isPass: 3 });
    await db().readPower.createMany({
      data: [
        { providerId: owner.id, readerId: reader.id, sourceType: 1, state: 1 },
        { providerId: owner.id, readerId: unapproved.id, sourceType: 1, state: 1 },
      ],
    });
    return { owner, reader, stranger, unapproved };
  }

  it("findOne: the owner and an accepted reader see it; a stranger and an unapproved clinic get 404, like a missing pid", async () => {
    const { owner, reader, stranger, unapproved } = await scenario();
    expect(await findOne(owner.token, owner.pid!)).toMatchObject({
      code: 200,
      data: { own: true, pid: owner.pid, userId: owner.id },
    });
    expect(await findOne(reader.token, owner.pid!)).toMatchObject({
      code: 200,
      data: { own: false },
    });
    expect(await findOne(stranger.token, owner.pid!)).toMatchObject({
      status: 404,
      code: 404,
      msg: enApi.notFound,
      data: null,
    });
    expect((await findOne(unapproved.token, owner.pid!)).code).toBe(404);
    expect((await findOne(owner.token, 99_999_999)).code).toBe(404);
    expect(await findOne(owner.token, "abc")).toMatchObject({
      code: 400,
      msg: enRecord.errors.pidInvalid,
    });
    expect(
      await db().auditLog.count({
        where: { patientId: owner.pid!, actorId: reader.id, action: "read:record" },
      }),
    ).toBe(1);
  });

  it("the owner saves: health fields replaced, conditions replaced, names and meal times kept when absent", async () => {
    const { owner } = await scenario();
    const first = await save(owner.token, [
      {
        pid: owner.pid,
        gender: "male",
        pronoun: "he",
        diabetesType: opt("type2"),
        basicDiseases: [opt("hypertension")],
        complication: "",
        lowLimit: 4,
        highLimit: 9,
        breakfastTime: ["07:00:00", "09:00:00"],
      },
    ]);
    expect(first).toMatchObject({
      code: 200,
      msg: enApi.addSuccess,
      data: { pid: owner.pid, userId: owner.id },
    });
    const record = (await findOne(owner.token, owner.pid!)).data;
    expect(record).toMatchObject({
      gender: "male",
      pronoun: "he",
      firstName: "Pat",
      diabetesType: { code: "type2" },
      basicDiseases: [{ code: "hypertension" }],
      complications: [],
      lowLimit: 4,
      highLimit: 9,
      lowLimitMgdl: 72,
      highLimitMgdl: 162,
      breakfastTime: ["07:00:00", "09:00:00"],
      lunchTime: ["11:00:00", "14:00:00"],
    });
    // findOne's answer can be sent back as it is.
    const again = await save(owner.token, [
      { ...record, pronoun: null, complications: [{ id: opt("neuropathy") }] },
    ]);
    expect(again.code).toBe(200);
    expect((await findOne(owner.token, owner.pid!)).data).toMatchObject({
      ...record,
      pronoun: null,
      complications: [{ code: "neuropathy" }],
    });
  });

  it("the CGM goal set: standard by default, saved when sent, kept when an old caller leaves it out, a bad one refused", async () => {
    const { owner } = await scenario();
    const base = {
      pid: owner.pid,
      gender: "female",
      diabetesType: opt("type1"),
      lowLimit: 3.9,
      highLimit: 10,
    };
    expect((await findOne(owner.token, owner.pid!)).data.cgmGoalSet).toBe("standard");
    expect((await save(owner.token, [{ ...base, cgmGoalSet: "pregnancy" }])).code).toBe(200);
    expect((await findOne(owner.token, owner.pid!)).data.cgmGoalSet).toBe("pregnancy");
    // A caller that does not know the field keeps the patient's choice.
    expect((await save(owner.token, [base])).code).toBe(200);
    expect((await findOne(owner.token, owner.pid!)).data.cgmGoalSet).toBe("pregnancy");
    const bad = await save(owner.token, [{ ...base, cgmGoalSet: "toddler" }]);
    expect(bad).toMatchObject({
      code: 400,
      msg: enRecord.cgmGoalSet.invalid,
      data: { fields: { cgmGoalSet: ["cgmGoalSet.invalid"] } },
    });
    expect((await db().patient.findUniqueOrThrow({ where: { id: owner.pid! } })).cgmGoalSet).toBe(
      "pregnancy",
    );
    expect((await save(owner.token, [{ ...base, cgmGoalSet: "olderHighRisk" }])).code).toBe(200);
    expect((await findOne(owner.token, owner.pid!)).data.cgmGoalSet).toBe("olderHighRisk");
  });

  it("a reader may not save (403); a stranger gets 404; an invalid save writes nothing", async () => {
    const { owner, reader, stranger } = await scenario();
    const body = {
      pid: owner.pid,
      gender: "other",
      diabetesType: opt("type1"),
      lowLimit: 4,
      highLimit: 10,
    };
    expect(await save(reader.token, [body])).toMatchObject({
      status: 403,
      code: 403,
      msg: enApi.addFailed,
      data: { error: enRecord.errors.notOwner },
    });
    expect(await save(stranger.token, [body])).toMatchObject({
      status: 404,
      code: 404,
      msg: enApi.addFailed,
    });
    expect(
      await save(owner.token, [
        { ...body, basicDiseases: `${opt("hypertension")}`, complication: `${opt("type1")}` },
      ]),
    ).toMatchObject({ code: 400 });
    const user = await db().user.findUniqueOrThrow({
      where: { id: owner.id },
      include: { patient: { include: { conditions: true } } },
    });
    expect(user.gender).toBeNull();
    expect(user.patient).toMatchObject({ lowLimit: 70, highLimit: 180, conditions: [] });
  });
});

// ---- the pages --------------------------------------------------------------------------------

describe("the /patientAdd and /patient pages", () => {
  const addForm = (email: string, extra: Record<string, string | string[]> = {}) => ({
    email,
    gender: "unknown",
    diabetesType: String(opt("type1")),
    basicDiseases: [String(opt("hypertension"))],
    unit: "0",
    lowLimit: "3.9",
    highLimit: "10",
    timeZone: "UTC",
    breakfastStart: "06:00",
    breakfastEnd: "10:00",
    ...extra,
  });

  it("/patientAdd: a bad range answers 400 with the message and the typed values; success creates the record", async () => {
    const clinic = await account("clinic");
    const email = `page-${Date.now()}@record.test`;
    const before = await counts();
    const bad = await runPage(() =>
      addAction({
        request: pageRequest(
          "/patientAdd",
          clinic.cookie,
          form(addForm(email, { lowLimit: "9", highLimit: "4" })),
        ),
        params: {},
        context: {},
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      result: {
        status: "error",
        error: { highLimit: ["errors.glucoseRangeWrong"] },
        initialValue: { email, lowLimit: "9", highLimit: "4" },
      },
    });
    expect(await counts()).toEqual(before);

    const good = await runPage(() =>
      addAction({
        request: pageRequest("/patientAdd", clinic.cookie, form(addForm(email))),
        params: {},
        context: {},
      }),
    );
    expect(good).toMatchObject({ status: 200, body: { added: { email, mailed: true } } });
    expect(
      await db().user.findUniqueOrThrow({ where: { email }, include: { patient: true } }),
    ).toMatchObject({
      gender: "unknown",
      active: false,
      patient: { createdById: clinic.id, lowLimit: 70 },
    });
  });

  it("/patientAdd for a clinic not approved: the page says so and the action refuses (403)", async () => {
    const clinic = await account("clinic", { isPass: 3 });
    const page = await runPage(() =>
      addLoader({ request: pageRequest("/patientAdd", clinic.cookie), params: {}, context: {} }),
    );
    expect(page.body).toMatchObject({ allowed: false, isClinic: true, options: [] });
    const before = await counts();
    const refused = await runPage(() =>
      addAction({
        request: pageRequest("/patientAdd", clinic.cookie, form(addForm("nope@record.test"))),
        params: {},
        context: {},
      }),
    );
    expect(refused).toMatchObject({
      status: 403,
      body: { result: { error: { "": ["errors.clinicNotApproved"] } } },
    });
    expect(await counts()).toEqual(before);
  });

  it("/patient: the owner's form with their values; a reader read-only via ?pid; others 404", async () => {
    const owner = await account("person");
    const reader = await account("clinic");
    const stranger = await account("person");
    await db().readPower.create({
      data: { providerId: owner.id, readerId: reader.id, sourceType: 1, state: 1 },
    });

    const saved = await runPage(() =>
      recordAction({
        request: pageRequest(
          "/patient",
          owner.cookie,
          form({
            gender: "female",
            diabetesType: String(opt("lada")),
            complication: [String(opt("neuropathy"))],
            unit: "0",
            lowLimit: "4",
            highLimit: "8",
            timeZone: "Europe/Rome",
            lunchStart: "12:00",
            lunchEnd: "13:30",
          }),
        ),
        params: {},
        context: {},
      }),
    );
    expect(saved).toMatchObject({ status: 200, body: { notice: "record.saved" } });
    const mine = await runPage(() =>
      recordLoader({ request: pageRequest("/patient", owner.cookie), params: {}, context: {} }),
    );
    expect(mine.body).toMatchObject({
      view: { own: true, timeZone: "Europe/Rome" },
      defaults: {
        gender: "female",
        diabetesType: String(opt("lada")),
        complication: [String(opt("neuropathy"))],
        lowLimit: "4",
        highLimit: "8",
        lunchStart: "12:00",
        lunchEnd: "13:30",
        breakfastStart: "06:00",
      },
    });

    const shared = await runPage(() =>
      recordLoader({
        request: pageRequest(`/patient?pid=${owner.pid}`, reader.cookie),
        params: {},
        context: {},
      }),
    );
    expect(shared).toMatchObject({
      status: 200,
      body: { view: { own: false, gender: "female" }, defaults: null },
    });
    expect(
      (
        await runPage(() =>
          recordLoader({
            request: pageRequest(`/patient?pid=${owner.pid}`, stranger.cookie),
            params: {},
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await runPage(() =>
          recordLoader({
            request: pageRequest("/patient?pid=x", owner.cookie),
            params: {},
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    // A clinic has no record of its own.
    expect(
      (
        await runPage(() =>
          recordLoader({
            request: pageRequest("/patient", reader.cookie),
            params: {},
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
  });
});
