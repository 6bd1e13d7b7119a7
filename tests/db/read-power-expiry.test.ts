import type { ParsedMail } from "mailparser";
import { describe, expect, it } from "vitest";
import { findVisiblePatient, type Viewer } from "~/models/access.server";
import { createApiToken } from "~/models/api-token.server";
import { createInviteToken } from "~/models/invite-token.server";
import { describeInvitationLink } from "~/models/read-power-answer.server";
import { loader as findOneRoute } from "~/routes/api.patient.findOne";
import { loader as findListRoute } from "~/routes/api.read-power.findList";
import { loader as findShareListRoute } from "~/routes/api.read-power.findShareList";
import { action as inviteRoute } from "~/routes/api.read-power.invite";
import { action as processRoute } from "~/routes/api.read-power.process";
import { action as processFromEmailRoute } from "~/routes/api.read-power.processFromEmail";
import { action as reinviteRoute } from "~/routes/api.read-power.reinvite";
import { action as saveRoute } from "~/routes/api.read-power.save";
import { loader as addPageLoader } from "~/routes/patientShow.add";
import {
  action as sharePageAction,
  loader as sharePageLoader,
} from "~/routes/patientShow.share.$id";
import { createUserSession } from "~/services/session.server";
import { db } from "~/utils/db.server";
import enMail from "../../locales/en/mail.json";
import enSharing from "../../locales/en/sharing.json";
import plSharing from "../../locales/pl/sharing.json";
import roSharing from "../../locales/ro/sharing.json";
import { catchMail } from "../support/catch-mail";
import { recipientsOf } from "../support/smtp-catcher";
import { getApi, postApi, type Handler } from "./api-client";

// A share request or invitation still waiting 14 days after it was last sent is invalid
// (state 3): the lists and the API say so, it grants nothing, it cannot be answered (in the app
// or from the email link), and sending it again re-opens it for a new 14 days with a new email.
// Rows are aged by moving their `sentAt` back in the database.

const APP_URL = "https://care.diacare.test";
const smtp = catchMail({ APP_URL });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const api = {
  findList: (token: string, query = "") =>
    getApi(findListRoute as Handler, `/api/read-power/findList?${query}`, token),
  findShareList: (token: string, query: string) =>
    getApi(findShareListRoute as Handler, `/api/read-power/findShareList?${query}`, token),
  findOne: (token: string, pid: number) =>
    getApi(findOneRoute as Handler, `/api/patient/findOne?pid=${pid}`, token),
  save: (token: string, body: unknown) =>
    postApi(saveRoute as Handler, "/api/read-power/save", body, token),
  invite: (token: string, body: unknown) =>
    postApi(inviteRoute as Handler, "/api/read-power/invite", body, token),
  reinvite: (token: string, body: unknown) =>
    postApi(reinviteRoute as Handler, "/api/read-power/reinvite", body, token),
  process: (token: string, body: unknown, extra?: Record<string, string>) =>
    postApi(processRoute as Handler, "/api/read-power/process", body, token, extra),
  processFromEmail: (body: unknown, extra?: Record<string, string>) =>
    postApi(
      processFromEmailRoute as Handler,
      "/api/read-power/processFromEmail",
      body,
      undefined,
      extra,
    ),
};

type Account = { id: number; email: string; pid: number | null; token: string; viewer: Viewer };
let serial = 0;

async function account(kind: "person" | "clinic", name: string): Promise<Account> {
  serial += 1;
  const identity = kind === "person" ? 1 : 2;
  const user = await db().user.create({
    data: {
      email: `${name}-${serial}@expiry.test`.toLowerCase(),
      identity,
      isPass: kind === "clinic" ? 1 : 0,
      firstName: name,
      ...(kind === "person" ? { patient: { create: {} } } : {}),
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

const mailTo = (address: string) => (mail: ParsedMail) => recipientsOf(mail).includes(address);
const mailsTo = (address: string) => smtp.catcher.messages.filter(mailTo(address));
const linkData = (mail: ParsedMail) => {
  const link = /https?:\/\/\S+\/invite_result\?\S+/.exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`no invitation link in: ${mail.text}`);
  return new URL(link).searchParams.get("data")!;
};

const row = (id: number) => db().readPower.findUniqueOrThrow({ where: { id } });
/** Moves the row's last sending `age` milliseconds before now. */
const age = (id: number, ms: number) =>
  db().readPower.update({ where: { id }, data: { sentAt: new Date(Date.now() - ms) } });
const sees = async (viewer: Account, patient: Account) =>
  (await findVisiblePatient(viewer.viewer, patient.pid!, patient.id)) !== null;

async function invitation() {
  const doctor = await account("clinic", "Doc");
  const patient = await account("person", "Pat");
  const invited = await api.invite(doctor.token, { provideId: patient.id });
  expect(invited).toMatchObject({ code: 200 });
  const id = invited.data.readPowerId as number;
  const data = linkData(await smtp.catcher.waitFor(mailTo(patient.email)));
  return { doctor, patient, id, data };
}

async function shareRequest() {
  const owner = await account("person", "Owner");
  const reader = await account("person", "Reader");
  const saved = await api.save(owner.token, { readId: reader.id });
  expect(saved).toMatchObject({ code: 200 });
  return { owner, reader, id: saved.data.readPowerId as number };
}

async function cookieOf(userId: number) {
  return (await createUserSession(new Request("http://localhost/login"), userId)).split(";")[0]!;
}

type RouteArgs = {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
};
const run = (handler: unknown, args: RouteArgs) =>
  (handler as (args: RouteArgs) => Promise<unknown>)(args);

/** The share page's loader data for the user, or the status of the Response it throws. */
async function sharePage(userId: number, id: number) {
  try {
    return (await run(sharePageLoader, {
      request: new Request(`http://localhost/patientShow/share/${id}`, {
        headers: { Cookie: await cookieOf(userId) },
      }),
      params: { id: String(id) },
      context: {},
    })) as Record<string, unknown>;
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status };
    throw thrown;
  }
}

/** Posts the share page's form (as without JavaScript) and reads back its answer. */
async function postSharePage(userId: number, id: number, fields: Record<string, string>) {
  const answer = await run(sharePageAction, {
    request: new Request(`http://localhost/patientShow/share/${id}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: {
        Cookie: await cookieOf(userId),
        "Content-Type": "application/x-www-form-urlencoded",
      },
    }),
    params: { id: String(id) },
    context: {},
  });
  // `data(...)` answers carry their status in `init`; plain objects are 200.
  const wrapped = answer as { type?: string; data?: unknown; init?: { status?: number } };
  return wrapped.type === "DataWithResponseInit"
    ? { status: wrapped.init?.status ?? 200, ...(wrapped.data as object) }
    : { status: 200, ...(answer as object) };
}

describe("the state of a waiting request over time", () => {
  it("13 days 23 hours after sending an invitation is still waiting and can be accepted", async () => {
    const { doctor, patient, id } = await invitation();
    await age(id, 13 * DAY + 23 * HOUR);
    expect((await api.findList(doctor.token)).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 0,
    });
    expect((await api.findList(patient.token, "tab=others")).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 0,
    });
    expect(await api.process(patient.token, { id, state: 1 })).toMatchObject({
      status: 200,
      data: { state: 1 },
    });
    expect(await sees(doctor, patient)).toBe(true);
  });

  it("14 days after sending it is invalid (3) on both sides' lists, in the search and on the pages", async () => {
    const { doctor, patient, id } = await invitation();
    await age(id, 14 * DAY + 60_000);
    // The database still holds a pending row: nothing had to run when the time was up.
    expect(await row(id)).toMatchObject({ state: 0 });
    expect((await api.findList(doctor.token)).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 3,
      sourceType: 1,
    });
    expect((await api.findList(patient.token, "tab=others")).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 3,
    });
    expect(
      (await api.findShareList(doctor.token, `type=2&searchOption=${patient.email}`)).data.data[0],
    ).toMatchObject({ userId: patient.id, readPowerId: id, state: 3 });

    const drawer = (await run(addPageLoader, {
      request: new Request("http://localhost/patientShow/add", {
        headers: { Cookie: await cookieOf(doctor.id) },
      }),
      params: {},
      context: {},
    })) as { sent: { items: { readPowerId: number; state: number; status: string }[] } };
    expect(drawer.sent.items).toEqual([
      expect.objectContaining({ readPowerId: id, state: 3, status: "expired" }),
    ]);

    // The clinic may send it again; the patient may no longer answer it.
    expect(await sharePage(doctor.id, id)).toMatchObject({
      stateKey: "expired",
      canReinvite: true,
      canAnswer: false,
    });
    expect(await sharePage(patient.id, id)).toMatchObject({
      stateKey: "expired",
      canAnswer: false,
      canReinvite: false,
    });
  });

  it("a share request expires too; the share with the creator of one's account never does", async () => {
    const { owner, reader, id } = await shareRequest();
    await age(id, 20 * DAY);
    expect((await api.findList(reader.token)).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 3,
      sourceType: 0,
    });
    expect((await api.findList(owner.token, "tab=others")).data.data[0]).toMatchObject({
      readPowerId: id,
      state: 3,
    });
    expect(await sharePage(owner.id, id)).toMatchObject({
      stateKey: "expired",
      canShareAgain: true,
    });
    expect(await sharePage(reader.id, id)).toMatchObject({
      stateKey: "expired",
      canAnswer: false,
      canShareAgain: false,
    });

    const creator = await account("clinic", "Creator");
    const created = await db().readPower.create({
      data: {
        providerId: owner.id,
        readerId: creator.id,
        sourceType: 2,
        state: 0,
        sentAt: new Date(Date.now() - 60 * DAY),
      },
    });
    expect(
      (await api.findList(creator.token)).data.data.find(
        (entry: { readPowerId: number }) => entry.readPowerId === created.id,
      ),
    ).toMatchObject({ state: 0 });
    expect(await api.process(owner.token, { id: created.id, state: 1 })).toMatchObject({
      status: 200,
      data: { state: 1 },
    });
  });
});

describe("an expired request grants nothing and cannot be answered", () => {
  it("accepting or refusing an expired invitation in the app is a translated 400; nothing changes", async () => {
    const { doctor, patient, id } = await invitation();
    await age(id, 14 * DAY + 60_000);
    expect(await api.process(patient.token, { id, state: 1 })).toMatchObject({
      status: 400,
      code: 400,
      msg: enSharing.errors.invitationExpired,
    });
    expect(
      await api.process(patient.token, { id, state: 2 }, { "Accept-Language": "pl" }),
    ).toMatchObject({ status: 400, msg: plSharing.errors.invitationExpired });
    expect(await row(id)).toMatchObject({ state: 0, processedAt: null });
    expect(await sees(doctor, patient)).toBe(false);
    expect(await api.findOne(doctor.token, patient.pid!)).toMatchObject({ code: 404 });

    // The same through the share page's form.
    expect(await postSharePage(patient.id, id, { intent: "approve" })).toMatchObject({
      status: 400,
      errors: ["sharing:errors.invitationExpired"],
    });
    expect(await row(id)).toMatchObject({ state: 0 });
  });

  it("an expired share request: the reader's acceptance is refused with its own message and gives no access", async () => {
    const { owner, reader, id } = await shareRequest();
    await age(id, 14 * DAY);
    expect(
      await api.process(reader.token, { id, state: 1 }, { "Accept-Language": "ro" }),
    ).toMatchObject({ status: 400, msg: roSharing.errors.shareExpired });
    expect(await sees(reader, owner)).toBe(false);
    expect(await api.findOne(reader.token, owner.pid!)).toMatchObject({ code: 404 });
  });

  it("the email link of an expired invitation says that it has expired and stays unused", async () => {
    const { doctor, patient, id, data } = await invitation();
    await age(id, 15 * DAY);
    expect(await describeInvitationLink(data)).toEqual({
      ok: false,
      status: 400,
      error: "sharing:errors.invitationExpired",
    });
    expect(await api.processFromEmail({ data, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.invitationExpired,
    });
    expect(await row(id)).toMatchObject({ state: 0 });
    expect(await db().inviteToken.count({ where: { readPowerId: id, usedAt: null } })).toBe(1);
    expect(await sees(doctor, patient)).toBe(false);

    // A link sent 14 days ago has run out by itself, whatever the row says.
    const old = await createInviteToken(id, { now: Date.now() - 14 * DAY });
    expect(await api.processFromEmail({ data: old, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkExpired,
    });
  });

  it("the email link lives exactly as long as the invitation: 14 days from its sending", async () => {
    const { patient, id, data } = await invitation();
    const expiresAt = Number(data.split(".")[1]);
    const { sentAt } = await row(id);
    expect(expiresAt - sentAt.getTime()).toBe(1_209_600_000);
    // The email says how long the link works.
    expect(enMail.invitation.text_other).toContain("within {{count}} days");
    expect(mailsTo(patient.email)[0]!.text).toContain("can be used only once, within 14 days.");
  });
});

describe("sending again re-opens a refused or expired request for a new 14 days", () => {
  it("reinvite: an expired invitation gets a new email and link, waits again, and can be accepted", async () => {
    const { doctor, patient, id, data: firstLink } = await invitation();
    await age(id, 14 * DAY + 60_000);
    const before = Date.now();
    expect(await api.reinvite(doctor.token, { id })).toMatchObject({
      status: 200,
      msg: enSharing.messages.inviteSuccess,
      data: { readPowerId: id, state: 0 },
    });
    const reopened = await row(id);
    expect(reopened.state).toBe(0);
    expect(reopened.sentAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(reopened.sentAt.getTime()).toBeLessThanOrEqual(Date.now());
    await expect.poll(() => mailsTo(patient.email).length).toBe(2);
    const secondLink = linkData(mailsTo(patient.email)[1]!);
    expect(Number(secondLink.split(".")[1]) - reopened.sentAt.getTime()).toBe(14 * DAY);
    expect((await api.findList(doctor.token)).data.data[0]).toMatchObject({ state: 0 });
    expect(await api.processFromEmail({ data: firstLink, state: 1 })).toMatchObject({
      status: 400,
      msg: enSharing.errors.linkInvalid,
    });
    expect(await api.processFromEmail({ data: secondLink, state: 1 })).toMatchObject({
      status: 200,
      data: { state: 1 },
    });
    expect(await sees(doctor, patient)).toBe(true);
    // Accepted: nothing to send again.
    expect(await api.reinvite(doctor.token, { id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.notRefused,
    });
  });

  it("invite again (the drawer's 'Invite again'): an expired invitation re-opens with a new email; a waiting one is an error", async () => {
    const { doctor, patient, id } = await invitation();
    expect(await api.invite(doctor.token, { provideId: patient.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyInvited,
    });
    await age(id, 13 * DAY + 23 * HOUR);
    expect(await api.invite(doctor.token, { provideId: patient.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyInvited,
    });
    await age(id, 14 * DAY);
    expect(
      await api.invite(doctor.token, { provideId: patient.id, message: "once more" }),
    ).toMatchObject({ status: 200, data: { readPowerId: id, state: 0, message: "once more" } });
    await expect.poll(() => mailsTo(patient.email).length).toBe(2);
    expect(Date.now() - (await row(id)).sentAt.getTime()).toBeLessThan(60_000);
    expect(await db().readPower.count({ where: { providerId: patient.id } })).toBe(1);
  });

  it("share again: an expired share request re-opens (API and the share page's form), then the reader accepts", async () => {
    const { owner, reader, id } = await shareRequest();
    expect(await api.save(owner.token, { readId: reader.id })).toMatchObject({
      status: 400,
      msg: enSharing.errors.alreadyShared,
    });
    await age(id, 14 * DAY);
    expect(await api.save(owner.token, { readId: reader.id })).toMatchObject({
      status: 200,
      data: { readPowerId: id, state: 0 },
    });
    expect(Date.now() - (await row(id)).sentAt.getTime()).toBeLessThan(60_000);

    // Expired again, then sent again from the share page; the reader cannot do that for them.
    await age(id, 30 * DAY);
    expect(await postSharePage(reader.id, id, { intent: "shareAgain" })).toMatchObject({
      status: 403,
    });
    expect(await row(id)).toMatchObject({ state: 0 });
    expect((await api.findList(owner.token, "tab=others")).data.data[0]).toMatchObject({
      state: 3,
    });
    expect(await postSharePage(owner.id, id, { intent: "shareAgain" })).toMatchObject({
      status: 200,
      notice: "sharing:messages.shareSuccess",
    });
    expect((await api.findList(owner.token, "tab=others")).data.data[0]).toMatchObject({
      state: 0,
    });
    expect(await api.process(reader.token, { id, state: 1 })).toMatchObject({
      status: 200,
      data: { state: 1 },
    });
    expect(await sees(reader, owner)).toBe(true);
    // An accepted share is not sent again.
    expect(await postSharePage(owner.id, id, { intent: "shareAgain" })).toMatchObject({
      status: 400,
      errors: ["sharing:errors.alreadyShared"],
    });
  });

  it("a refused share request is sent again from the share page too", async () => {
    const { owner, reader, id } = await shareRequest();
    expect(await api.process(reader.token, { id, state: 2 })).toMatchObject({ status: 200 });
    expect(await sharePage(owner.id, id)).toMatchObject({
      stateKey: "refused",
      canShareAgain: true,
    });
    expect(await postSharePage(owner.id, id, { intent: "shareAgain" })).toMatchObject({
      status: 200,
    });
    expect(await row(id)).toMatchObject({ state: 0, processedAt: null });
  });
});
