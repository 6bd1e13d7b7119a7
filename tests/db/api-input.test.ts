import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as findOne } from "~/routes/api.patient.findOne";
import { action as savePatient } from "~/routes/api.patient.save";
import { action as saveShare } from "~/routes/api.read-power.save";
import { action as updateShare } from "~/routes/api.read-power.update";
import { action as cgmReport } from "~/routes/api.patient-data.sugarDevicePdf";
import { action as login } from "~/routes/api.user.login";
import { action as organisation } from "~/routes/api.user.updateIdentityInfo";
import { db } from "~/utils/db.server";
import plValidation from "../../locales/pl/validation.json";
import plReports from "../../locales/pl/reports.json";
import plAuth from "../../locales/pl/auth.json";
import plRecord from "../../locales/pl/record.json";
import plSharing from "../../locales/pl/sharing.json";
import { call, type Handler } from "./api-client";

// Malformed input answers 400 with a translated message: never a 500, never read as something else.

const send = (
  handler: unknown,
  path: string,
  body: string,
  token: string | null,
  type: string | null = "application/json",
) =>
  call(
    handler as Handler,
    new Request(`http://localhost${path}`, {
      method: "POST",
      body,
      headers: {
        "Accept-Language": "pl",
        ...(type ? { "Content-Type": type } : {}),
        ...(token ? { token } : {}),
      },
    }),
  );

let patient: { id: number; pid: number; token: string };
let reader: { id: number; token: string };
let clinic: { token: string };
let shareId: number;

beforeAll(async () => {
  const p = await db().user.create({
    data: { email: "input-p@input.test", identity: 1, patient: { create: {} } },
    include: { patient: true },
  });
  const r = await db().user.create({
    data: { email: "input-r@input.test", identity: 1, patient: { create: {} } },
  });
  const c = await db().user.create({ data: { email: "input-c@input.test", identity: 2 } });
  patient = { id: p.id, pid: p.patient!.id, token: await createApiToken(p.id) };
  reader = { id: r.id, token: await createApiToken(r.id) };
  clinic = { token: await createApiToken(c.id) };
  shareId = (await db().readPower.create({ data: { providerId: p.id, readerId: r.id, state: 1 } }))
    .id;
});

describe("control and bidirectional characters in text", () => {
  it.each(["Mum\u0000", "\u202EmuM", "Mu\u2066m\u2069", "Mum\u001b[0m"])(
    "a nickname %j is a 400, and nothing changes",
    async (nickName) => {
      const answer = await send(
        updateShare,
        "/api/read-power/update",
        JSON.stringify({ readPowerId: shareId, nickName }),
        reader.token,
      );
      expect(answer).toMatchObject({
        status: 400,
        code: 400,
        msg: plValidation.input.hiddenCharacters,
      });
      expect(
        (await db().readPower.findUniqueOrThrow({ where: { id: shareId } })).nickName,
      ).toBeNull();
    },
  );

  it("a name with U+202E in the patient record is a 400", async () => {
    const body = JSON.stringify([
      {
        pid: patient.pid,
        firstName: "\u202Eanna",
        gender: "female",
        diabetesType: 1,
        lowLimit: 4,
        highLimit: 10,
      },
    ]);
    expect(await send(savePatient, "/api/patient/save", body, patient.token)).toMatchObject({
      status: 400,
      msg: plValidation.input.hiddenCharacters,
    });
  });

  it("an organisation field with NUL is a 400", async () => {
    const body = JSON.stringify({
      hospitalName: "Szpital\u0000",
      address: "a",
      area: "b",
      country: "PL",
      connectName: "c",
      connectPhone: "+48 22 123 45 67",
    });
    expect(
      await send(organisation, "/api/user/updateIdentityInfo", body, clinic.token),
    ).toMatchObject({ status: 400, msg: plValidation.input.hiddenCharacters });
  });
});

describe("numbers are numbers", () => {
  it("{ pid: true } is a 400, not patient 1", async () => {
    const answer = await send(
      cgmReport,
      "/api/patient-data/sugarDevicePdf",
      JSON.stringify({ pid: true, start: "2026-01-01", end: "2026-01-10" }),
      patient.token,
    );
    expect(answer).toMatchObject({ status: 400, msg: plReports.common.pid });
  });

  it.each([true, "1e0", [1], { id: 1 }])("readId %j is a 400", async (readId) => {
    const answer = await send(
      saveShare,
      "/api/read-power/save",
      JSON.stringify({ readId }),
      patient.token,
    );
    expect(answer).toMatchObject({ status: 400, msg: plSharing.errors.readIdRequired });
  });

  it("identity true is a 400", async () => {
    const answer = await send(
      login,
      "/api/user/login",
      JSON.stringify({ userName: "input-p@input.test", password: "x", identity: true }),
      null,
    );
    expect(answer).toMatchObject({ status: 400, msg: plAuth.errors.identityMsg });
  });

  it.each(["2147483648", "99999999999999999999", "-1", "NaN"])("pid %s is a 400", async (pid) => {
    const answer = await call(
      findOne as Handler,
      new Request(`http://localhost/api/patient/findOne?pid=${pid}`, {
        headers: { token: patient.token, "Accept-Language": "pl" },
      }),
    );
    expect(answer).toMatchObject({ status: 400, msg: plRecord.errors.pidInvalid });
  });

  it("an id of 2^31 in a body is a 400", async () => {
    const answer = await send(
      updateShare,
      "/api/read-power/update",
      JSON.stringify({ readPowerId: 2 ** 31, nickName: "x" }),
      reader.token,
    );
    expect(answer).toMatchObject({ status: 400, msg: plSharing.errors.readPowerIdRequired });
  });
});

describe("bodies", () => {
  it.each(["{", '{"readId": 1,}', "{'readId': 1}", ""])(
    "malformed JSON %j is a 400 that says so",
    async (text) => {
      expect(await send(saveShare, "/api/read-power/save", text, patient.token)).toMatchObject({
        status: 400,
        code: 400,
        msg: plValidation.input.body.invalidJson,
      });
    },
  );

  it.each(["[1]", "42", "null", '"text"'])("JSON %s, not an object, is a 400", async (text) => {
    expect(await send(saveShare, "/api/read-power/save", text, patient.token)).toMatchObject({
      status: 400,
      msg: plValidation.input.body.notAnObject,
    });
  });

  it.each(["text/plain", "application/xml", null])("a body sent as %s is a 400", async (type) => {
    expect(
      await send(
        saveShare,
        "/api/read-power/save",
        JSON.stringify({ readId: reader.id }),
        patient.token,
        type,
      ),
    ).toMatchObject({ status: 400, msg: plValidation.input.body.contentType });
  });

  it("malformed JSON to the patient save is a 400 that says so", async () => {
    expect(
      await send(savePatient, "/api/patient/save", '[{"gender": "female",', patient.token),
    ).toMatchObject({ status: 400, msg: plValidation.input.body.invalidJson });
  });

  it("a form body still works", async () => {
    const other = await db().user.create({
      data: { email: "input-o@input.test", identity: 1, patient: { create: {} } },
    });
    const answer = await send(
      saveShare,
      "/api/read-power/save",
      new URLSearchParams({ readId: String(other.id), message: "hej" }).toString(),
      patient.token,
      "application/x-www-form-urlencoded",
    );
    expect(answer).toMatchObject({ status: 200, code: 200 });
  });
});
