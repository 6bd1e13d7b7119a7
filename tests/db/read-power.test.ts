import type { ParsedMail } from "mailparser";
import { describe, expect, it } from "vitest";
import { findVisiblePatient, type Viewer } from "~/models/access.server";
import { createApiToken } from "~/models/api-token.server";
import { describeInvitationLink } from "~/models/read-power-answer.server";
import { markUploadsSeen } from "~/models/read-power-change.server";
import { markNewUploadForReaders } from "~/models/upload-task.server";
import { action as deleteRoute } from "~/routes/api.read-power.delete";
import { loader as findListRoute } from "~/routes/api.read-power.findList";
import { loader as findShareListRoute } from "~/routes/api.read-power.findShareList";
import { action as inviteRoute } from "~/routes/api.read-power.invite";
import { action as processRoute } from "~/routes/api.read-power.process";
import { action as processFromEmailRoute } from "~/routes/api.read-power.processFromEmail";
import { action as reinviteRoute } from "~/routes/api.read-power.reinvite";
import { action as saveRoute } from "~/routes/api.read-power.save";
import { action as updateRoute } from "~/routes/api.read-power.update";
import { loader as addPageLoader } from "~/routes/patientShow.add";
import { db } from "~/utils/db.server";
import { createUserSession } from "~/services/session.server";
import { createInviteToken, INVITE_TOKEN_TTL_MS } from "~/models/invite-token.server";
import enMail from "../../locales/en/mail.json";
import enSharing from "../../locales/en/sharing.json";
import plMail from "../../locales/pl/mail.json";
import plSharing from "../../locales/pl/sharing.json";
import enApi from "../../locales/en/api.json";
import { catchMail } from "../support/catch-mail";
import { recipientsOf } from "../support/smtp-catcher";
import { getApi, postApi, type Handler } from "./api-client";

// Invitation emails go over real SMTP to an in-process catcher. env() parses process.env once per
// test file, on first use: SMTP_URL and APP_URL are set in beforeAll, before any test runs.

const APP_URL = "https://care.diacare.test";
const smtp = catchMail({ APP_URL });

// ---- calling the routes ---------------------------------------------------------------------

const get = getApi;

/** The raw Response of a GET, to read its headers. */
async function callRaw(
  handler: Handler,
  path: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  try {
    return await handler({
      request: new Request(`http://localhost${path}`, { headers: { token, ...headers } }),
      params: {},
      context: {},
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A page session cookie for a user, as the sign-in makes it. */
async function sessionCookie(userId: number): Promise<string> {
  const setCookie = await createUserSession(new Request("http://localhost/login"), userId);
  return setCookie.split(";")[0]!;
}
const post = postApi;

const addPage = addPageLoader as unknown as (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<unknown>;

const api = {
  findList: (token: string | undefined, query = "", extra?: Record<string, string>) =>
    get(findListRoute as Handler, `/api/read-power/findList?${query}`, token, extra),
  findShareList: (token: string | undefined, query: string, extra?: Record<string, string>) =>
    get(findShareListRoute as Handler, `/api/read-power/findShareList?${query}`, token, extra),
  save: (token: string | undefined, body: unknown, extra?: Record<string, string>) =>
    post(saveRoute as Handler, "/api/read-power/save", body, token, extra),
  invite: (token: string | undefined, body: unknown) =>
    post(inviteRoute as Handler, "/api/read-power/invite", body, token),
  reinvite: (token: string | undefined, body: unknown) =>
    post(reinviteRoute as Handler, "/api/read-power/reinvite", body, token),
  process: (token: string | undefined, body: unknown) =>
    post(processRoute as Handler, "/api/read-power/process", body, token),
  processFromEmail: (body: unknown, extra?: Record<string, string>) =>
    post(
      processFromEmailRoute as Handler,
      "/api/read-power/processFromEmail",
      body,
      undefined,
      extra,
    ),
  update: (token: string | undefined, body: unknown) =>
    post(updateRoute as Handler, "/api/read-power/update", body, token),
  remove: (token: string | undefined, body: unknown) =>
    post(deleteRoute as Handler, "/api/read-power/delete", body, token),
};

// ---- accounts -------------------------------------------------------------------------------

type Account = { id: number; email: string; pid: number | null; token: string; viewer: Viewer };
let serial = 0;

async function account(
  kind: "person" | "clinic",
  name: string,
  extra: {
    isPass?: number;
    firstName?: string | null;
    lastName?: string;
    lang?: string;
    active?: boolean;
    disabled?: boolean;
    deletedAt?: Date;
    birthDate?: Date;
  } = {},
): Promise<Account> {
  serial += 1;
  const { lang, firstName, ...rest } = extra;
  const identity = kind === "person" ? 1 : 2;
  const user = await db().user.create({
    data: {
      email: `${name}-${serial}@share.test`.toLowerCase(),
      identity,
      firstName: firstName === undefined ? name : firstName,
      ...rest,
      ...(kind === "person" ? { patient: { create: {} } } : {}),
      ...(lang ? { setting: { create: { lang } } } : {}),
    },
    include: { patient: true },
  });
  return {
    id: user.id,
    email: user.email,
    pid: user.patient?.id ?? null,
    token: await createApiToken(user.id),
    viewer: { id: user.id, identity, isPass: user.isPass, role: user.role },
  };
}

const person = (name: string, extra: Parameters<typeof account>[2] = {}) =>
  account("person", name, extra);
const clinic = (name: string, extra: Parameters<typeof account>[2] = {}) =>
  account("clinic", name, { isPass: 1, ...extra });

const mailTo = (address: string) => (mail: ParsedMail) => recipientsOf(mail).includes(address);
const linkIn = (mail: ParsedMail) => {
  const link = /https?:\/\/\S+\/invite_result\?\S+/.exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`no invitation link in: ${mail.text}`);
  return new URL(link);
};
const mailsTo = (address: string) => smtp.catcher.messages.filter(mailTo(address));

async function share(provider: Account, reader: Account, message = "please look") {
  const answer = await api.save(provider.token, { readId: reader.id, message });
  expect(answer).toMatchObject({ status: 200, code: 200 });
  return answer.data.readPowerId as number;
}

const row = (id: number) => db().readPower.findUnique({ where: { id } });
const sees = async (viewer: Account, patient: Account) =>
  (await findVisiblePatient(viewer.viewer, patient.pid!, patient.id)) !== null;

// ---- share requests ---------------------------------------------------------------------------

describe("share requests (sourceType 0)", () => {
  it("a patient shares, the reader sees the pending request and accepts with a nickname", async () => {
    const patient = await person("Paula", { lastName: "Share", birthDate: new Date("1980-03-04") });
    const reader = await person("Rita");
    const saved = await api.save(patient.token, { readId: reader.id, message: "my numbers" });
    expect(saved).toMatchObject({ status: 200, code: 200, msg: enSharing.messages.shareSuccess });
    expect(saved.data).toMatchObject({
      sourceType: 0,
      state: 0,
      isNew: 0,
      provideId: patient.id,
      readId: reader.id,
      pid: patient.pid,
      email: reader.email,
      message: "my numbers",
    });
    const id = saved.data.readPowerId as number;
    expect(await sees(reader, patient)).toBe(false);

    const pending = await api.findList(reader.token);
    expect(pending).toMatchObject({ code: 200, data: { count: 1 } });
    expect(pending.data.data[0]).toMatchObject({
      readPowerId: id,
      pid: patient.pid,
      userId: patient.id,
      firstName: "Paula",
      lastName: "Share",
      name: "Paula Share",
      email: patient.email,
      state: 0,
      isNew: 0,
      sourceType: 0,
      identity: 1,
      code: null,
      birthDate: null, // patient data: not before the share is accepted
      message: "my numbers",
    });

    const accepted = await api.process(reader.token, {
      id,
      state: 1,
      message: "thanks",
      nickName: "Mum",
    });
    expect(accepted).toMatchObject({
      status: 200,
      code: 200,
      msg: enSharing.messages.operateSuccess,
      data: { state: 1, nickName: "Mum" },
    });
    expect(await row(id)).toMatchObject({
      state: 1,
      isNew: 1,
      nickName: "Mum",
      processedAt: expect.any(Date),
    });
    expect(await sees(reader, patient)).toBe(true);
    expect((await api.findList(reader.token)).data.data[0]).toMatchObject({
      state: 1,
      isNew: 1,
      nickName: "Mum",
      birthDate: "1980-03-04",
    });

    const log = await db().auditLog.findMany({
      where: { patientId: patient.pid },
      orderBy: { id: "asc" },
    });
    expect(log.map((entry) => [entry.action, entry.actorId])).toEqual([
      ["share:save", patient.id],
      ["share:process", reader.id],
    ]);
    expect(log[1]!.detail).toMatchObject({
      readPowerId: id,
      state: 1,
      via: "app",
      reply: "thanks",
    });
  });

  it("an empty nickname keeps the previous nickname, or none so that the display name shows", async () => {
    const patient = await person("Nora", { lastName: "Nick" });
    const withNick = await person("Carer");
    const without = await person("Friend");
    const first = await share(patient, withNick);
    expect(
      await api.update(withNick.token, { readPowerId: first, nickName: "Granny" }),
    ).toMatchObject({ code: 200 });
    expect(
      await api.process(withNick.token, { id: first, state: 1, nickName: "   " }),
    ).toMatchObject({ code: 200, data: { nickName: "Granny" } });
    expect(await row(first)).toMatchObject({ state: 1, nickName: "Granny" });

    const second = await share(patient, without);
    expect(await api.process(without.token, { id: second, state: 1, nickName: "" })).toMatchObject({
      code: 200,
    });
    expect(await row(second)).toMatchObject({ state: 1, nickName: null });
    const listed = await api.findList(without.token);
    expect(listed.data.data[0]).toMatchObject({
      nickName: null,
      name: "Nora Nick",
      state: 1,
      isNew: 1,
    });
  });

  it("the reader refuses: no access, gone from their list, shown as refused to the patient", async () => {
    const patient = await person("Rhea");
    const reader = await person("Ross");
    const id = await share(patient, reader);
    expect(await api.process(reader.token, { id, state: 2, message: "no, thanks" })).toMatchObject({
      code: 200,
      data: { state: 2 },
    });
    expect(await row(id)).toMatchObject({ state: 2, isNew: 1, nickName: null });
    expect(await sees(reader, patient)).toBe(false);
    expect((await api.findList(reader.token)).data).toEqual({ count: 0, data: [] });
    const others = await api.findList(patient.token, "tab=others");
    expect(others.data.count).toBe(1);
    expect(others.data.data[0]).toMatchObject({
      readPowerId: id,
      state: 2,
      email: reader.email,
      name: "Ross",
      pid: patient.pid,
      userId: patient.id,
    });
  });

  it("sharing again after a refusal re-opens the same row as a new request", async () => {
    const patient = await person("Rene");
    const reader = await person("Remy");
    const id = await share(patient, reader);
    await api.process(reader.token, { id, state: 2 });
    const again = await api.save(patient.token, { readId: reader.id, message: "second try" });
    expect(again).toMatchObject({
      code: 200,
      data: { readPowerId: id, state: 0, isNew: 0, message: "second try" },
    });
    expect(
      await db().readPower.count({ where: { providerId: patient.id, readerId: reader.id } }),
    ).toBe(1);
    expect(await row(id)).toMatchObject({ state: 0, isNew: 0, processedAt: null });
    expect(await api.process(reader.token, { id, state: 1 })).toMatchObject({ code: 200 });
    expect(await sees(reader, patient)).toBe(true);
  });

  it("refuses sharing with yourself, with unknown or inactive users, twice, and by a clinic", async () => {
    const patient = await person("Eve");
    const other = await person("Otto");
    const inactive = await person("Ina", { active: false });
    const deleted = await person("Del", { deletedAt: new Date() });
    const self = await api.save(patient.token, { readId: patient.id });
    expect(self).toMatchObject({ status: 400, code: 400, msg: enSharing.errors.selfShare });
    expect(await api.save(patient.token, { readId: 987_654 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.userNotFound,
    });
    expect(await api.save(patient.token, { readId: inactive.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.userNotFound,
    });
    expect(await api.save(patient.token, { readId: deleted.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.userNotFound,
    });
    const id = await share(patient, other);
    expect(await api.save(patient.token, { readId: other.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyShared,
    });
    await api.process(other.token, { id, state: 1 });
    expect(await api.save(patient.token, { readId: other.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyShared,
    });
    expect(await db().readPower.count({ where: { providerId: patient.id } })).toBe(1);
    const doctor = await clinic("Doc");
    expect(await api.save(doctor.token, { readId: patient.id })).toMatchObject({
      status: 403,
      msg: enSharing.errors.notAPatient,
    });
  });

  it("validates the payload with translated messages", async () => {
    const patient = await person("Val");
    expect(await api.save(patient.token, {}, { "Accept-Language": "pl" })).toMatchObject({
      status: 400,
      msg: plSharing.errors.readIdRequired,
    });
    expect(await api.save(patient.token, { readId: "abc" })).toMatchObject({
      status: 400,
      msg: enSharing.errors.readIdRequired,
    });
    expect(await api.save(patient.token, { readId: 5, message: "x".repeat(501) })).toMatchObject({
      status: 400,
      msg: enSharing.errors.messageTooLong,
    });
    expect(await api.process(patient.token, { id: 1, state: 3 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.stateInvalid,
    });
    expect(await api.update(patient.token, { readPowerId: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.nothingToUpdate,
    });
  });
});

describe("who may process, update and delete", () => {
  it("only the recipient of a pending request may process it; unknown ids look the same", async () => {
    const patient = await person("Olga");
    const reader = await person("Pia");
    const stranger = await person("Stan");
    const id = await share(patient, reader);
    const forbidden = { status: 403, code: 403, msg: enApi.forbidden };
    expect(await api.process(patient.token, { id, state: 1 })).toMatchObject(forbidden);
    expect(await api.process(stranger.token, { id, state: 1 })).toMatchObject(forbidden);
    expect(await api.process(reader.token, { id: id + 10_000, state: 1 })).toMatchObject(forbidden);
    expect(await row(id)).toMatchObject({ state: 0 });
    expect(await api.process(reader.token, { id, state: 1 })).toMatchObject({ code: 200 });
    expect(await api.process(reader.token, { id, state: 2 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyProcessed,
    });
    expect(await row(id)).toMatchObject({ state: 1 });
  });

  it("the reader sets nickname and upload badge, the recipient sets isNew; nobody else", async () => {
    const patient = await person("Uma");
    const reader = await person("Ugo");
    const stranger = await person("Ulf");
    const id = await share(patient, reader);
    await api.process(reader.token, { id, state: 1 });
    await db().readPower.update({ where: { id }, data: { uploadIsNew: 0, isNew: 0 } });
    expect(await api.update(patient.token, { readPowerId: id, nickName: "me" })).toMatchObject({
      status: 403,
    });
    expect(await api.update(patient.token, { readPowerId: id, uploadIsNew: 1 })).toMatchObject({
      status: 403,
    });
    expect(await api.update(patient.token, { readPowerId: id, isNew: 1 })).toMatchObject({
      status: 403,
    });
    expect(await api.update(stranger.token, { readPowerId: id, nickName: "x" })).toMatchObject({
      status: 403,
    });
    expect(await row(id)).toMatchObject({ nickName: null, uploadIsNew: 0, isNew: 0 });
    expect(
      await api.update(reader.token, {
        readPowerId: id,
        nickName: " Auntie ",
        uploadIsNew: 1,
        isNew: 1,
      }),
    ).toMatchObject({ code: 200, data: { nickName: "Auntie", uploadIsNew: 1, isNew: 1 } });
    expect(await row(id)).toMatchObject({ nickName: "Auntie", uploadIsNew: 1, isNew: 1 });
    expect(await api.update(reader.token, { readPowerId: id, nickName: "" })).toMatchObject({
      code: 200,
    });
    expect(await row(id)).toMatchObject({ nickName: null });
    expect(await api.update(reader.token, { readPowerId: id, uploadIsNew: 2 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.flagInvalid,
    });
    expect(
      await db().auditLog.count({ where: { action: "share:update", patientId: patient.pid } }),
    ).toBe(2);
  });

  it("either side may delete a share, which ends access at once", async () => {
    const patient = await person("Dora");
    const first = await person("Dan");
    const second = await person("Dina");
    const stranger = await person("Drew");
    const a = await share(patient, first);
    const b = await share(patient, second);
    await api.process(first.token, { id: a, state: 1 });
    await api.process(second.token, { id: b, state: 1 });
    expect(await api.remove(stranger.token, { readPowerId: a })).toMatchObject({
      status: 403,
      msg: enApi.forbidden,
    });
    expect(await row(a)).not.toBeNull();

    expect(await api.remove(first.token, { readPowerId: a })).toMatchObject({
      status: 200,
      msg: enSharing.messages.operateSuccess,
      data: { readPowerId: a },
    });
    expect(await row(a)).toBeNull();
    expect(await sees(first, patient)).toBe(false);

    expect(await api.remove(patient.token, { readPowerId: b })).toMatchObject({ status: 200 });
    expect(await sees(second, patient)).toBe(false);
    expect(await api.remove(patient.token, { readPowerId: b })).toMatchObject({ status: 403 });
    const log = await db().auditLog.findMany({
      where: { action: "share:delete", patientId: patient.pid },
      orderBy: { id: "asc" },
    });
    expect(log.map((entry) => entry.actorId)).toEqual([first.id, patient.id]);
  });
});

// ---- invitations ----------------------------------------------------------------------------

describe("invitations (sourceType 1)", () => {
  it("a clinic invites, the patient is emailed a link and accepts in the app", async () => {
    const doctor = await clinic("Ivy", { lastName: "Clinic" });
    const patient = await person("Ian");
    const invited = await api.invite(doctor.token, { provideId: patient.id, message: "join us" });
    expect(invited).toMatchObject({
      status: 200,
      msg: enSharing.messages.inviteSuccess,
      data: {
        sourceType: 1,
        state: 0,
        isNew: 0,
        pid: patient.pid,
        provideId: patient.id,
        readId: doctor.id,
      },
    });
    const id = invited.data.readPowerId as number;

    const mail = await smtp.catcher.waitFor(mailTo(patient.email));
    expect(mail.subject).toBe(enMail.invitation.subject.replace("{{doctorName}}", "Ivy Clinic"));
    const link = linkIn(mail);
    expect(link.origin + link.pathname).toBe(`${APP_URL}/invite_result`);
    expect(link.searchParams.get("doctorName")).toBe("Ivy Clinic");
    expect(link.searchParams.get("data")).toMatch(/^[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]+$/);
    expect(await describeInvitationLink(link.searchParams.get("data")!)).toEqual({
      ok: true,
      data: { readPowerId: id, doctorName: "Ivy Clinic", state: 0 },
    });

    expect((await api.findList(doctor.token)).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 0,
      sourceType: 1,
      pid: patient.pid,
    });
    const incoming = await api.findList(patient.token, "tab=others");
    expect(incoming.data.data[0]).toMatchObject({
      readPowerId: id,
      state: 0,
      isNew: 0,
      sourceType: 1,
      name: "Ivy Clinic",
      identity: 2,
    });

    expect(await api.process(doctor.token, { id, state: 1 })).toMatchObject({ status: 403 });
    expect(await api.process(patient.token, { id, state: 1, nickName: "ignored" })).toMatchObject({
      code: 200,
      data: { state: 1 },
    });
    expect(await row(id)).toMatchObject({ state: 1, isNew: 1, nickName: null });
    expect(await sees(doctor, patient)).toBe(true);
    expect((await api.findList(doctor.token)).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 1,
    });
    expect(
      await db().auditLog.count({
        where: { action: "share:invite", patientId: patient.pid, actorId: doctor.id },
      }),
    ).toBe(1);
  });

  it("emails the patient in their own language", async () => {
    const doctor = await clinic("Lena");
    const patient = await person("Piotr", { lang: "pl" });
    expect(await api.invite(doctor.token, { provideId: patient.id })).toMatchObject({ code: 200 });
    const mail = await smtp.catcher.waitFor(mailTo(patient.email));
    expect(mail.subject).toBe(plMail.invitation.subject.replace("{{doctorName}}", "Lena"));
  });

  it("refused, then reinvited with a new link, then accepted from the email", async () => {
    const doctor = await clinic("Rex");
    const patient = await person("Rosa");
    const otherClinic = await clinic("Other");
    const id = (await api.invite(doctor.token, { provideId: patient.id })).data
      .readPowerId as number;
    const firstLink = linkIn(await smtp.catcher.waitFor(mailTo(patient.email))).searchParams.get(
      "data",
    )!;
    // "Reinvite" on a pending invitation sends it again with a new link; the first link stops working.
    expect(await api.reinvite(doctor.token, { id })).toMatchObject({
      status: 200,
      data: { state: 0 },
    });
    await expect.poll(() => mailsTo(patient.email).length).toBe(2);
    const resentLink = linkIn(mailsTo(patient.email)[1]!).searchParams.get("data")!;
    expect(resentLink).not.toBe(firstLink);
    expect(await api.processFromEmail({ data: firstLink, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkInvalid,
    });

    expect(await api.process(patient.token, { id, state: 2 })).toMatchObject({ code: 200 });
    expect(await row(id)).toMatchObject({ state: 2, isNew: 1 });
    expect((await api.findList(doctor.token)).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 2,
    });
    expect(await api.reinvite(otherClinic.token, { id })).toMatchObject({ status: 403 });
    expect(await api.reinvite(patient.token, { id })).toMatchObject({ status: 403 });

    expect(await api.reinvite(doctor.token, { id })).toMatchObject({
      status: 200,
      msg: enSharing.messages.inviteSuccess,
      data: { state: 0 },
    });
    expect(await row(id)).toMatchObject({ state: 0, isNew: 0, processedAt: null });
    await expect.poll(() => mailsTo(patient.email).length).toBe(3);
    const secondLink = linkIn(mailsTo(patient.email)[2]!).searchParams.get("data")!;
    expect(secondLink).not.toBe(resentLink);
    expect(await api.processFromEmail({ data: resentLink, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkInvalid,
    });
    expect(await api.processFromEmail({ data: secondLink, state: 1 })).toMatchObject({
      status: 200,
      data: { state: 1 },
    });
    expect(await sees(doctor, patient)).toBe(true);
    expect(await api.reinvite(doctor.token, { id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.notRefused,
    });
    expect(
      await db().auditLog.count({ where: { action: "share:reinvite", patientId: patient.pid } }),
    ).toBe(2);
  });

  it("inviting again after a refusal re-opens the row; a pending or accepted one is an error", async () => {
    const doctor = await clinic("Ari");
    const patient = await person("Abe");
    const id = (await api.invite(doctor.token, { provideId: patient.id })).data
      .readPowerId as number;
    expect(await api.invite(doctor.token, { provideId: patient.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyInvited,
    });
    await api.process(patient.token, { id, state: 2 });
    expect(
      await api.invite(doctor.token, { provideId: patient.id, message: "again" }),
    ).toMatchObject({ code: 200, data: { readPowerId: id, state: 0 } });
    await api.process(patient.token, { id, state: 1 });
    expect(await api.invite(doctor.token, { provideId: patient.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyInvited,
    });
  });

  it("approved clinics and persons (remote caring) invite, only active persons with a health record, never themselves", async () => {
    const patient = await person("Tim");
    const pendingClinic = await clinic("Wait", { isPass: 3 });
    const otherPerson = await person("Tom");
    const doctor = await clinic("Ok");
    const otherClinic = await clinic("Peer");
    const inactive = await person("Idle", { active: false });
    expect(await api.invite(pendingClinic.token, { provideId: patient.id })).toMatchObject({
      status: 403,
      msg: enSharing.errors.auditRequired,
    });
    expect(await api.invite(otherPerson.token, { provideId: otherPerson.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.selfInvite,
    });
    expect(await api.invite(otherPerson.token, { provideId: otherClinic.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.patientNotFound,
    });
    expect(await api.invite(doctor.token, { provideId: otherClinic.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.patientNotFound,
    });
    expect(await api.invite(doctor.token, { provideId: inactive.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.patientNotFound,
    });
    expect(await api.invite(doctor.token, { provideId: 987_654 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.patientNotFound,
    });
    expect(await db().readPower.count({ where: { providerId: patient.id } })).toBe(0);
    expect(mailsTo(patient.email)).toEqual([]);
    // A person caring for a relative invites them like a clinic: the relative must accept.
    const invited = await api.invite(otherPerson.token, { provideId: patient.id });
    expect(invited).toMatchObject({ code: 200, data: { state: 0, sourceType: 1 } });
    expect(await sees(otherPerson, patient)).toBe(false);
    await api.process(patient.token, { id: invited.data.readPowerId as number, state: 1 });
    expect(await sees(otherPerson, patient)).toBe(true);
  });
});

describe("the email link (processFromEmail)", () => {
  async function invitation() {
    const doctor = await clinic("Mail");
    const patient = await person("Link");
    const id = (await api.invite(doctor.token, { provideId: patient.id })).data
      .readPowerId as number;
    const data = linkIn(await smtp.catcher.waitFor(mailTo(patient.email))).searchParams.get(
      "data",
    )!;
    return { doctor, patient, id, data };
  }

  it("works once without any token header; a second use is a clear 400", async () => {
    const { doctor, patient, id, data } = await invitation();
    const first = await api.processFromEmail({ data, state: 1 });
    expect(first).toMatchObject({
      status: 200,
      code: 200,
      msg: enSharing.messages.operateSuccess,
      data: { readPowerId: id, state: 1 },
    });
    expect(await sees(doctor, patient)).toBe(true);
    const log = await db().auditLog.findFirstOrThrow({
      where: { action: "share:process", patientId: patient.pid },
    });
    expect(log).toMatchObject({
      actorId: patient.id,
      detail: expect.objectContaining({ via: "email" }),
    });
    expect(await api.processFromEmail({ data, state: 2 })).toMatchObject({
      status: 400,
      code: 400,
      msg: enSharing.errors.linkUsed,
    });
    expect(
      await api.processFromEmail({ data, state: 2 }, { "Accept-Language": "pl" }),
    ).toMatchObject({ status: 400, msg: plSharing.errors.linkUsed });
    expect(await row(id)).toMatchObject({ state: 1 });
  });

  it("refuses from the link", async () => {
    const { doctor, patient, id, data } = await invitation();
    expect(await api.processFromEmail({ data, state: "2" })).toMatchObject({ status: 200 });
    expect(await row(id)).toMatchObject({ state: 2, isNew: 1 });
    expect(await sees(doctor, patient)).toBe(false);
  });

  it("an expired link is a clear 400 and changes nothing", async () => {
    const { id } = await invitation();
    const old = await createInviteToken(id, { now: Date.now() - INVITE_TOKEN_TTL_MS - 60_000 });
    expect(await api.processFromEmail({ data: old, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkExpired,
    });
    expect(await row(id)).toMatchObject({ state: 0 });
  });

  it("a forged link is a clear 400: changed signature, changed expiry, garbage, missing", async () => {
    const { id, data } = await invitation();
    const [nonce, expires, signature] = data.split(".") as [string, string, string];
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const forged of [
      `${nonce}.${expires}.${flipped}`,
      `${nonce}.${Number(expires) + 86_400_000}.${signature}`,
      "not-a-link",
      `${nonce}.${expires}`,
    ]) {
      expect(await api.processFromEmail({ data: forged, state: 1 })).toMatchObject({
        status: 400,
        msg: enSharing.errors.linkInvalid,
      });
    }
    expect(await api.processFromEmail({ state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkInvalid,
    });
    expect(await row(id)).toMatchObject({ state: 0 });
    expect(await api.processFromEmail({ data, state: 1 })).toMatchObject({ status: 200 });
  });

  it("the link of a deleted invitation, or of one answered in the app, is a clear 400", async () => {
    const gone = await invitation();
    expect(await api.remove(gone.doctor.token, { readPowerId: gone.id })).toMatchObject({
      status: 200,
    });
    expect(await db().inviteToken.count({ where: { readPowerId: gone.id } })).toBe(0);
    expect(await api.processFromEmail({ data: gone.data, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkInvalid,
    });
    expect(await sees(gone.doctor, gone.patient)).toBe(false);

    const answered = await invitation();
    await api.process(answered.patient.token, { id: answered.id, state: 2 });
    expect(await api.processFromEmail({ data: answered.data, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyProcessed,
    });
    expect(await row(answered.id)).toMatchObject({ state: 2 });
  });
});

// ---- lists and search -----------------------------------------------------------------------

describe("findShareList (the drawers' search)", () => {
  it("needs a non-blank search of at least 3 characters, with the drawer's own message", async () => {
    const me = await person("Sam");
    const doctor = await clinic("Sid");
    expect(await api.findShareList(me.token, "searchOption=%20%20")).toMatchObject({
      status: 400,
      msg: enSharing.errors.addShareTxt,
    });
    expect(await api.findShareList(me.token, "")).toMatchObject({
      status: 400,
      msg: enSharing.errors.addShareTxt,
    });
    expect(
      await api.findShareList(doctor.token, "type=2&searchOption=", { "Accept-Language": "pl" }),
    ).toMatchObject({ status: 400, msg: plSharing.errors.addInviteTxt });
    expect(await api.findShareList(me.token, "searchOption=ab")).toMatchObject({
      status: 400,
      msg: enSharing.errors.searchTooShort,
    });
  });

  it("finds only the account with exactly that whole email (trimmed, any case): a fragment lists no one", async () => {
    const me = await person("zed-searcher");
    const alice = await person("zed-alice", { firstName: "Alice" });
    await person("zed-bob");
    await person("zed-carol");
    // Any 3-letter fragment of the addresses, or the whole of them but one letter, finds no one.
    for (const fragment of [
      "zed",
      "ZED-",
      "@share.test",
      alice.email.slice(0, -1),
      alice.email.slice(1),
      "%%%",
      "zed%",
      "_ed-alice%",
    ]) {
      expect(
        await api.findShareList(me.token, `searchOption=${encodeURIComponent(fragment)}`),
      ).toMatchObject({ status: 200, data: { count: 0, data: [] } });
    }
    const found = await api.findShareList(
      me.token,
      `searchOption=${encodeURIComponent(`  ${alice.email.toUpperCase()} `)}&pageNum=1&pageSize=10`,
    );
    expect(found).toMatchObject({ status: 200, code: 200 });
    expect(found.data).toEqual({
      count: 1,
      data: [
        {
          userId: alice.id,
          name: "Alice",
          email: alice.email,
          identity: 1,
          readPowerId: null,
          state: null,
        },
      ],
    });

    const id = await share(me, alice);
    const after = await api.findShareList(
      me.token,
      `searchOption=${encodeURIComponent(alice.email)}`,
    );
    expect(after.data).toEqual({
      count: 1,
      data: [
        {
          userId: alice.id,
          name: "Alice",
          email: alice.email,
          identity: 1,
          readPowerId: id,
          state: 0,
        },
      ],
    });
  });

  it("never finds the searcher, nor a deleted, disabled or not activated account", async () => {
    const me = await person("xo-searcher");
    const hidden = [
      await person("xo-inactive", { active: false }),
      await person("xo-disabled", { disabled: true }),
      await person("xo-deleted", { deletedAt: new Date() }),
      me,
    ];
    for (const account of hidden) {
      expect(
        (await api.findShareList(me.token, `searchOption=${encodeURIComponent(account.email)}`))
          .data,
      ).toEqual({ count: 0, data: [] });
    }
  });

  it("allows 20 searches per account in 10 minutes, then answers 429 with Retry-After and a translated message; others still search", async () => {
    const me = await person("throttled");
    const other = await person("not-throttled");
    const target = await person("target");
    for (let i = 0; i < 20; i++)
      expect((await api.findShareList(me.token, `searchOption=guess-${i}@share.test`)).status).toBe(
        200,
      );
    const refused = await callRaw(
      findShareListRoute as Handler,
      `/api/read-power/findShareList?searchOption=${encodeURIComponent(target.email)}`,
      me.token,
      { "Accept-Language": "pl" },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(9 * 60);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(10 * 60);
    const body = await refused.json();
    expect(body).toEqual({
      code: 429,
      msg: plSharing.errors.searchThrottled.replace("{{minutes}}", "10"),
      data: null,
    });
    expect(
      (await api.findShareList(other.token, `searchOption=${encodeURIComponent(target.email)}`))
        .data.count,
    ).toBe(1);
  });

  it("a clinic's invite search (type 2) finds persons only; an unapproved clinic may not search", async () => {
    const doctor = await clinic("yak-doctor");
    const target = await person("yak-patient");
    const peer = await clinic("yak-peer");
    const found = await api.findShareList(
      doctor.token,
      `type=2&searchOption=${encodeURIComponent(target.email)}`,
    );
    expect(found.data.data.map((r: { userId: number }) => r.userId)).toEqual([target.id]);
    expect(
      (
        await api.findShareList(
          doctor.token,
          `type=2&searchOption=${encodeURIComponent(peer.email)}`,
        )
      ).data.count,
    ).toBe(0);
    const id = (await api.invite(doctor.token, { provideId: target.id })).data.readPowerId;
    expect(
      (
        await api.findShareList(
          doctor.token,
          `type=2&searchOption=${encodeURIComponent(target.email)}`,
        )
      ).data.data[0],
    ).toMatchObject({ userId: target.id, readPowerId: id, state: 0 });
    const unapproved = await clinic("yak-new", { isPass: 0 });
    expect(
      await api.findShareList(
        unapproved.token,
        `type=2&searchOption=${encodeURIComponent(target.email)}`,
      ),
    ).toMatchObject({ status: 403, msg: enSharing.errors.auditRequired });
  });

  it("the /patientShow/add page: an exact email finds the one account; past the limit, 429 with Retry-After", async () => {
    const me = await person("page-searcher");
    const target = await person("page-target", { firstName: "Tia" });
    const cookie = await sessionCookie(me.id);
    const page = (find: string) =>
      addPage({
        request: new Request(`http://localhost/patientShow/add?find=${encodeURIComponent(find)}`, {
          headers: { Cookie: cookie },
        }),
        params: {},
        context: {},
      });
    const fragment = await page("page-");
    expect(fragment).toMatchObject({ results: [], count: 0, searched: true });
    const exact = await page(target.email.toUpperCase());
    expect(exact).toMatchObject({
      count: 1,
      results: [{ userId: target.id, email: target.email, name: "Tia" }],
    });
    for (let i = 0; i < 18; i++) await page(`nobody-${i}@share.test`);
    const refused = await page(target.email);
    expect(refused).toBeInstanceOf(Object);
    const init = refused as unknown as {
      init: { status: number; headers: Record<string, string> };
      data: { results: unknown[]; errors: string[] };
    };
    expect(init.init.status).toBe(429);
    expect(Number(new Headers(init.init.headers).get("Retry-After"))).toBeGreaterThan(0);
    expect(init.data.results).toEqual([]);
    expect(init.data.errors[0]).toMatch(/^sharing:errors\.searchThrottled\|/);
  });
});

describe("findList (the patient lists)", () => {
  it("pages by 10 with the count: page 2 has the 11th entry", async () => {
    const doctor = await clinic("Many");
    const patients: Account[] = [];
    for (let i = 0; i < 11; i++) {
      const patient = await person(`List${i}`);
      patients.push(patient);
      await db().readPower.create({
        data: {
          providerId: patient.id,
          readerId: doctor.id,
          sourceType: 1,
          state: 1,
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)),
        },
      });
    }
    const page1 = await api.findList(doctor.token, "pageNum=1&pageSize=10");
    expect(page1.data.count).toBe(11);
    expect(page1.data.data).toHaveLength(10);
    expect(page1.data.data[0].userId).toBe(patients[10]!.id);
    const page2 = await api.findList(doctor.token, "pageNum=2&pageSize=10");
    expect(page2.data).toMatchObject({
      count: 11,
      data: [{ userId: patients[0]!.id, pid: patients[0]!.pid }],
    });
    expect((await api.findList(doctor.token, "pageSize=100")).data.data).toHaveLength(10);
    expect(await api.findList(doctor.token, "pageNum=0")).toMatchObject({
      status: 400,
      msg: enSharing.errors.pageInvalid,
    });
  });

  it("filters by name, email or nickname", async () => {
    const reader = await person("Finder");
    const a = await person("Anna", { lastName: "Berg" });
    const b = await person("Boris", { lastName: "Kale" });
    const idA = await share(a, reader);
    const idB = await share(b, reader);
    await api.process(reader.token, { id: idA, state: 1, nickName: "Sis" });
    await api.process(reader.token, { id: idB, state: 1 });
    const ids = async (search: string) =>
      (
        await api.findList(reader.token, `searchOption=${encodeURIComponent(search)}`)
      ).data.data.map((r: { readPowerId: number }) => r.readPowerId);
    expect(await ids("sis")).toEqual([idA]);
    expect(await ids("boris kale")).toEqual([idB]);
    expect(await ids(b.email.toUpperCase())).toEqual([idB]);
    expect(await ids("nobody")).toEqual([]);
    expect((await ids("  ")).sort()).toEqual([idA, idB].sort());
  });

  it("a clinic sees its invitations in every state, accepted and pending shares, never a refused share", async () => {
    const doctor = await clinic("Mix");
    const [p1, p2, p3, p4, p5] = await Promise.all(
      ["M1", "M2", "M3", "M4", "M5"].map((n) => person(n)),
    );
    await db().readPower.createMany({
      data: [
        { providerId: p1!.id, readerId: doctor.id, sourceType: 1, state: 0 },
        { providerId: p2!.id, readerId: doctor.id, sourceType: 1, state: 2 },
        { providerId: p3!.id, readerId: doctor.id, sourceType: 0, state: 1 },
        { providerId: p4!.id, readerId: doctor.id, sourceType: 0, state: 0 },
        { providerId: p5!.id, readerId: doctor.id, sourceType: 0, state: 2 },
      ],
    });
    const listed = await api.findList(doctor.token);
    expect(listed.data.count).toBe(4);
    expect(listed.data.data.map((r: { userId: number }) => r.userId).sort()).toEqual(
      [p1!.id, p2!.id, p3!.id, p4!.id].sort(),
    );
    expect(await api.findList(doctor.token, "tab=others")).toMatchObject({ status: 403 });
  });

  it("an unapproved clinic gets an empty list, whatever its shares", async () => {
    for (const isPass of [0, 2, 3]) {
      const doctor = await clinic(`Unapproved${isPass}`, { isPass });
      const patient = await person(`Theirs${isPass}`);
      await db().readPower.create({
        data: { providerId: patient.id, readerId: doctor.id, sourceType: 1, state: 1 },
      });
      expect(await api.findList(doctor.token)).toMatchObject({
        status: 200,
        data: { count: 0, data: [] },
      });
    }
  });

  it("the upload badge: new uploads set uploadIsNew 0 for accepted readers, opening clears it", async () => {
    const patient = await person("Badge");
    const reader = await person("Looker");
    const pending = await person("Waiter");
    const id = await share(patient, reader);
    const waiting = await share(patient, pending);
    await api.process(reader.token, { id, state: 1 });
    const record = await db().patient.findUniqueOrThrow({ where: { userId: patient.id } });
    await markNewUploadForReaders(db(), record.id);
    expect(await row(id)).toMatchObject({ uploadIsNew: 0 });
    expect(await row(waiting)).toMatchObject({ uploadIsNew: 1 });
    expect((await api.findList(reader.token)).data.data[0]).toMatchObject({ uploadIsNew: 0 });
    await markUploadsSeen(reader.viewer, patient.id);
    expect(await row(id)).toMatchObject({ uploadIsNew: 1 });
  });
});
