import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as uploadErrorsPage } from "~/routes/admin.upload-errors";
import { action as uploadErrLog } from "~/routes/api.patient-data.uploadErrLog";
import { db } from "~/utils/db.server";
import plApi from "../../locales/pl/api.json";
import { postApi, type Handler } from "./api-client";
import { cookieFor, statusOf } from "./report-support";

// The upload wizard's error reports: who may send them, how many, how often, and the staff page
// that lists them.

const PL = { "Accept-Language": "pl" };
let serial = 0;

async function account(role: "admin" | "editor" | "guest" = "guest") {
  serial += 1;
  const user = await db().user.create({
    data: {
      email: `upload-errors-${serial}@errors.test`,
      identity: 1,
      role,
      patient: { create: {} },
    },
  });
  return { id: user.id, email: user.email, token: await createApiToken(user.id) };
}

const send = (body: unknown, token: string | null) =>
  postApi(uploadErrLog as Handler, "/api/patient-data/uploadErrLog", body, token, PL);
const stored = (operatorUserId: number) =>
  db().uploadErrorLog.findMany({
    where: { operatorUserId },
    orderBy: { id: "asc" },
    select: { operatorUserId: true, patientUserId: true, content: true },
  });

type PageData = {
  total: number;
  page: number;
  pages: number;
  timeZone: string;
  items: {
    id: number;
    at: string;
    when: string;
    operatorEmail: string | null;
    patientUserId: number | null;
    patientEmail: string | null;
    content: string;
  }[];
};
const page = async (userId: number, search = "") =>
  (await uploadErrorsPage({
    request: new Request(`http://localhost/admin/upload-errors${search}`, {
      headers: { Cookie: await cookieFor(userId) },
    }),
    params: {},
    context: {},
  })) as PageData;

describe("the staff page /admin/upload-errors (before any report)", () => {
  it("is empty", async () => {
    const admin = await account("admin");
    expect(await page(admin.id)).toEqual({
      total: 0,
      page: 1,
      pages: 1,
      timeZone: "UTC",
      items: [],
    });
  });
});

describe("POST /api/patient-data/uploadErrLog", () => {
  it("needs a token (800) and writes nothing without one", async () => {
    const before = await db().uploadErrorLog.count();
    expect(await send({ list: [{ operatorUserId: 1, content: "x" }] }, null)).toMatchObject({
      status: 401,
      code: 800,
      msg: plApi.token["800"],
    });
    expect(await db().uploadErrorLog.count()).toBe(before);
  });

  it("stores the caller's reports in one go, the patient optional", async () => {
    const operator = await account();
    const patient = await account();
    const list = [
      {
        operatorUserId: operator.id,
        patientUserId: patient.id,
        content: "Pump read failed\n  at record 120",
      },
      { operatorUserId: operator.id, patientUserId: null, content: "USB device disconnected" },
      { operatorUserId: operator.id, content: "<script>alert(1)</script>" },
    ];
    expect(await send({ list }, operator.token)).toMatchObject({
      status: 200,
      code: 200,
      data: { count: 3 },
    });
    expect(await stored(operator.id)).toEqual([
      {
        operatorUserId: operator.id,
        patientUserId: patient.id,
        content: "Pump read failed\n  at record 120",
      },
      { operatorUserId: operator.id, patientUserId: null, content: "USB device disconnected" },
      { operatorUserId: operator.id, patientUserId: null, content: "<script>alert(1)</script>" },
    ]);
  });

  it("takes 250 reports of 2048 characters; refuses 251 reports and 2049 characters (400, translated, nothing written)", async () => {
    const operator = await account();
    const report = (content: string) => ({ operatorUserId: operator.id, content });
    expect(
      await send({ list: Array.from({ length: 251 }, () => report("x")) }, operator.token),
    ).toMatchObject({ status: 400, code: 400, msg: plApi.uploadErrLog.tooMany });
    expect(
      await send({ list: [report("x"), report("y".repeat(2049))] }, operator.token),
    ).toMatchObject({ status: 400, code: 400, msg: plApi.uploadErrLog.contentTooLong });
    expect(await send({ list: [] }, operator.token)).toMatchObject({
      status: 400,
      msg: plApi.uploadErrLog.listInvalid,
    });
    expect(
      await send({ list: [{ ...report("x"), level: "error" }] }, operator.token),
    ).toMatchObject({ status: 400, msg: plApi.uploadErrLog.unknownField });
    expect(await stored(operator.id)).toEqual([]);
    expect(
      await send(
        { list: Array.from({ length: 250 }, () => report("z".repeat(2048))) },
        operator.token,
      ),
    ).toMatchObject({ code: 200, data: { count: 250 } });
    expect(await db().uploadErrorLog.count({ where: { operatorUserId: operator.id } })).toBe(250);
  });

  it("refuses a report under another operator (403, translated), even among the caller's own, and writes none of them", async () => {
    const operator = await account();
    const other = await account();
    const list = [
      { operatorUserId: operator.id, content: "mine" },
      { operatorUserId: other.id, content: "not mine" },
    ];
    expect(await send({ list }, operator.token)).toMatchObject({
      status: 403,
      code: 403,
      msg: plApi.uploadErrLog.notOperator,
    });
    expect([...(await stored(operator.id)), ...(await stored(other.id))]).toEqual([]);
  });

  it("takes 20 calls of an account in 10 minutes; the 21st is a 429 with Retry-After and nothing stored; another account is not affected", async () => {
    const operator = await account();
    const other = await account();
    const body = (id: number) => ({ list: [{ operatorUserId: id, content: "again" }] });
    for (let i = 0; i < 20; i++)
      expect((await send(body(operator.id), operator.token)).code).toBe(200);
    const response = (await uploadErrLog({
      request: new Request("http://localhost/api/patient-data/uploadErrLog", {
        method: "POST",
        body: JSON.stringify(body(operator.id)),
        headers: { "Content-Type": "application/json", token: operator.token, ...PL },
      }),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(540);
    expect(Number(response.headers.get("Retry-After"))).toBeLessThanOrEqual(600);
    expect(await response.json()).toEqual({
      code: 429,
      msg: plApi.uploadErrLog.throttled.replace("{{minutes}}", "10"),
      data: null,
    });
    expect(await db().uploadErrorLog.count({ where: { operatorUserId: operator.id } })).toBe(20);
    expect((await send(body(other.id), other.token)).code).toBe(200);
  });
});

describe("the staff page /admin/upload-errors", () => {
  it("admins and editors read the reports newest first, 50 a page, with the operator's and the patient's email", async () => {
    const admin = await account("admin");
    const editor = await account("editor");
    const operator = await account();
    const patient = await account();
    await db().uploadErrorLog.deleteMany();
    const start = Date.parse("2026-05-01T08:00:00Z");
    await db().uploadErrorLog.createMany({
      data: Array.from({ length: 51 }, (_, i) => ({
        operatorUserId: operator.id,
        patientUserId: i === 50 ? patient.id : null,
        content: `report ${i}`,
        createdAt: new Date(start + i * 60_000),
      })),
    });
    await db().uploadErrorLog.create({
      data: {
        operatorUserId: 2_000_000_000,
        patientUserId: 2_000_000_001,
        content: "from a deleted account",
        createdAt: new Date(start - 60_000),
      },
    });

    const first = await page(admin.id);
    expect([first.total, first.page, first.pages, first.items.length]).toEqual([52, 1, 2, 50]);
    expect(first.items[0]).toMatchObject({
      at: "2026-05-01T08:50:00.000Z",
      operatorEmail: operator.email,
      patientUserId: patient.id,
      patientEmail: patient.email,
      content: "report 50",
    });
    expect(first.items[1]).toMatchObject({
      operatorEmail: operator.email,
      patientUserId: null,
      patientEmail: null,
      content: "report 49",
    });
    expect(first.items.at(-1)?.content).toBe("report 1");

    const second = await page(editor.id, "?page=2");
    expect(second.items.map((i) => i.content)).toEqual(["report 0", "from a deleted account"]);
    expect(second.items[1]).toMatchObject({
      operatorEmail: null,
      patientUserId: 2_000_000_001,
      patientEmail: null,
    });
    // A page past the last is the last; a page that is no page number (text, 0, past 2^31 - 1) is the first.
    expect((await page(admin.id, "?page=99")).page).toBe(2);
    expect((await page(admin.id, "?page=2147483647")).page).toBe(2);
    for (const bad of ["abc", "0", "-1", "1.5", "2147483648"])
      expect([bad, (await page(admin.id, `?page=${bad}`)).page]).toEqual([bad, 1]);
  });

  it("anyone else is refused like on the audits page (403); signed out goes to the sign-in page", async () => {
    const guest = await account();
    const request = new Request("http://localhost/admin/upload-errors", {
      headers: { Cookie: await cookieFor(guest.id) },
    });
    expect(await statusOf(() => uploadErrorsPage({ request, params: {}, context: {} }))).toBe(403);
    expect(
      await statusOf(() =>
        uploadErrorsPage({
          request: new Request("http://localhost/admin/upload-errors"),
          params: {},
          context: {},
        }),
      ),
    ).toBe(302);
  });
});
