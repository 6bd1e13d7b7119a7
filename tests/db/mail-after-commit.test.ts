import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPasswordReset, sendSignUpCode } from "~/models/account.server";
import { invitePatient, reinvite } from "~/models/read-power-request.server";
import { db } from "~/utils/db.server";
import { closeMailTransport } from "~/utils/mail.server";
import { recipientsOf, startSmtpCatcher, type SmtpCatcher } from "../support/smtp-catcher";

// Mail goes out after the database work has committed. The app's SMTP_URL points at a switch in
// front of a real SMTP catcher: "forward" passes the connection through, "hang" accepts it and
// never answers (a slow or stuck mail server), "refuse" closes it at once.

type Mode = "forward" | "hang" | "refuse";
let mode: Mode = "forward";
let catcher: SmtpCatcher;
const hung = new Set<net.Socket>();
const front = net.createServer((socket) => {
  socket.on("error", () => undefined);
  if (mode === "refuse") return void socket.destroy();
  if (mode === "hang") return void hung.add(socket);
  const upstream = net.connect(catcher.port, "127.0.0.1");
  upstream.on("error", () => socket.destroy());
  socket.pipe(upstream).pipe(socket);
});
const saved = { SMTP_URL: process.env.SMTP_URL, APP_URL: process.env.APP_URL };

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const { port } = front.address() as net.AddressInfo;
  // Short timeouts so that a hanging server fails the send within the test.
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}?greetingTimeout=1500&connectionTimeout=1500&socketTimeout=3000`;
  process.env.APP_URL = "https://care.diacare.test";
});

afterAll(async () => {
  closeMailTransport();
  for (const socket of hung) socket.destroy();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await catcher.stop();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const mailTo = (address: string) => (mail: Parameters<typeof recipientsOf>[0]) =>
  recipientsOf(mail).includes(address);

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 8_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function openTransactions(): Promise<number> {
  const [row] = await db().$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
  return row.n;
}

let serial = 0;
async function pair() {
  serial += 1;
  const clinic = await db().user.create({
    data: {
      email: `clinic-${serial}@mail-commit.test`,
      identity: 2,
      isPass: 1,
      firstName: "Dr",
      lastName: `Slow${serial}`,
    },
  });
  const patient = await db().user.create({
    data: { email: `patient-${serial}@mail-commit.test`, identity: 1, patient: { create: {} } },
  });
  return { viewer: { id: clinic.id, identity: 2, isPass: 1, role: clinic.role }, patient };
}

describe("invitations: the email goes out after the commit", () => {
  it("a stuck mail server holds no transaction open; the invitation is kept and 'reinvite' sends it", async () => {
    mode = "hang";
    const { viewer, patient } = await pair();
    const answer = invitePatient(viewer, { provideId: patient.id });
    await until(() => hung.size > 0);
    expect(await openTransactions()).toBe(0);
    expect(await answer).toEqual({
      ok: false,
      status: 500,
      error: "sharing:messages.inviteMailFailed",
    });
    const row = await db().readPower.findUniqueOrThrow({
      where: { providerId_readerId: { providerId: patient.id, readerId: viewer.id } },
      include: { inviteTokens: true },
    });
    expect(row).toMatchObject({ state: 0, sourceType: 1 });
    expect(row.inviteTokens).toHaveLength(1);

    mode = "forward";
    expect(await reinvite(viewer, { id: row.id })).toMatchObject({
      ok: true,
      data: { readPowerId: row.id, state: 0 },
    });
    const mail = await catcher.waitFor(mailTo(patient.email));
    expect(mail.text).toContain("https://care.diacare.test/invite_result?");
    expect(await db().inviteToken.count({ where: { readPowerId: row.id } })).toBe(1);
  });

  it("a refused connection keeps the invitation too, and says to send it again", async () => {
    mode = "refuse";
    const { viewer, patient } = await pair();
    expect(await invitePatient(viewer, { provideId: patient.id })).toEqual({
      ok: false,
      status: 500,
      error: "sharing:messages.inviteMailFailed",
    });
    expect(
      await db().readPower.count({
        where: { providerId: patient.id, readerId: viewer.id, state: 0 },
      }),
    ).toBe(1);
    mode = "forward";
  });
});

describe("emailed codes: answered before the email goes out", () => {
  it("sign-up: the answer comes while the mail server hangs; the failed send withdraws the code, so 'send again' works at once", async () => {
    mode = "hang";
    const email = "late-mail@mail-commit.test";
    const connections = hung.size;
    expect(await sendSignUpCode({ email, locale: "en", ip: "192.0.2.77" })).toEqual({
      ok: true,
      mailed: null,
    });
    // Answered, and the send is still waiting for the server's greeting.
    expect(await db().emailCode.count({ where: { email, purpose: "verify_email" } })).toBe(1);
    await until(() => hung.size > connections);
    await until(async () => (await db().emailCode.count({ where: { email } })) === 0);

    mode = "forward";
    expect(await sendSignUpCode({ email, locale: "en", ip: "192.0.2.77" })).toEqual({
      ok: true,
      mailed: null,
    });
    const mail = await catcher.waitFor(mailTo(email));
    expect(mail.text).toMatch(/\b\d{6}\b/);
    expect(await db().emailCode.count({ where: { email, usedAt: null } })).toBe(1);
  });

  it("password reset: a known and an unknown email get the same answer after the same work, even while the mail server hangs", async () => {
    mode = "hang";
    const known = await db().user.create({
      data: { email: "known-reset@mail-commit.test", identity: 1 },
    });
    const unknown = "unknown-reset@mail-commit.test";
    const answers = [
      await requestPasswordReset({ email: known.email, locale: "en", ip: "192.0.2.78" }),
      await requestPasswordReset({ email: unknown, locale: "en", ip: "192.0.2.78" }),
    ];
    expect(answers[0]).toEqual({ ok: true, mailed: null });
    expect(answers[1]).toEqual(answers[0]);
    expect(
      await db().emailCode.count({ where: { email: known.email, purpose: "reset_password" } }),
    ).toBe(1);
    expect(
      await db().emailCode.count({ where: { email: unknown, purpose: "reset_password" } }),
    ).toBe(1);
    // The known address's email fails in the background; its code is withdrawn.
    await until(async () => (await db().emailCode.count({ where: { email: known.email } })) === 0);
    mode = "forward";
  });
});
