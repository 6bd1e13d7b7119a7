import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as cgmFindList } from "~/routes/api.cgms.cgm-record.findList";
import { action as cgmReport } from "~/routes/api.patient-data.sugarDevicePdf";
import { makeLink } from "~/services/nightscout.server";
import { db } from "~/utils/db.server";
import { wallClockAt } from "~/ingest/device-time";
import { getApi, postApi, type Handler } from "./api-client";
import { patientAccount, serveNightscout, viewerOf } from "./nightscout-support";

// Two real uploaders from the npm registry, run unmodified against the app's Nightscout API: the
// Dexcom Share bridge (share2nightscout-bridge) and nightscout-connect's Dexcom Share source with
// its Nightscout output. A local stand-in answers the three Dexcom Share calls they make (account,
// session, latest glucose values) with fixture readings. The readings must arrive once, show in
// the CGM readings call (the CGMS view's data) and the CGM report, and a second run adds nothing.

const require = createRequire(import.meta.url);
const bridge = require("share2nightscout-bridge") as (opts: unknown) => () => void;
/** nightscout-connect's own axios (the one its package depends on). */
const axios = createRequire(require.resolve("nightscout-connect"))("axios") as {
  create: (c: Record<string, unknown>) => unknown;
};
const dexcomSource = require("nightscout-connect/lib/sources/dexcomshare") as (
  opts: Record<string, unknown>,
  axios: unknown,
) => {
  authFromCredentials: () => Promise<string>;
  sessionFromAuth: (account: string) => Promise<string>;
  dataFromSesssion: (session: string, lastKnown: unknown) => Promise<unknown[]>;
  transformGlucose: (data: unknown[]) => { entries: unknown[] };
};
const nightscoutOutput = require("nightscout-connect/lib/outputs/nightscout") as (
  config: { url: string; apiSecret: string },
  axios: unknown,
) => ((batch: { entries: unknown[]; treatments: unknown[] }) => Promise<unknown>) & {
  gap_for: () => Promise<unknown>;
};

const MIN = 60_000;
const newest = Math.floor((Date.now() - 2 * MIN) / 1000) * 1000;
/** 12 readings 5 minutes apart (an hour), newest first as Dexcom Share answers. */
const FIXTURE = Array.from({ length: 12 }, (_, i) => {
  const at = newest - i * 5 * MIN;
  return {
    WT: `Date(${at})`,
    ST: `Date(${at})`,
    DT: `Date(${at}+0100)`,
    Value: 100 + i * 3,
    Trend: i % 2 === 0 ? "Flat" : "FortyFiveDown",
  };
});

type StandIn = { server: Server; origin: string; calls: string[] };

/**
 * The Dexcom Share stand-in: account id, session id, then the newest `maxCount` fixture readings.
 * It answers as soon as a request's head arrives (no call needs its body) and closes a connection
 * on bytes past the declared body: the bridge's glucose call declares `Content-Length: 0` and
 * then sends `""` (its HTTP library writes the JSON of an empty body), which Node's parser refuses.
 */
async function dexcomStandIn(): Promise<StandIn> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? "/", "http://stand-in");
    calls.push(`${req.method} ${url.pathname}`);
    res.setHeader("Content-Type", "application/json");
    if (url.pathname.endsWith("/AuthenticatePublisherAccount"))
      return res.end(JSON.stringify("account-1"));
    if (url.pathname.endsWith("/LoginPublisherAccountById"))
      return res.end(JSON.stringify("session-1"));
    if (url.pathname.endsWith("/ReadPublisherLatestGlucoseValues")) {
      const max = Number(url.searchParams.get("maxCount") ?? "1");
      return res.end(JSON.stringify(FIXTURE.slice(0, Math.max(1, max))));
    }
    res.statusCode = 404;
    res.end("null");
  });
  server.on("clientError", (_error, socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, calls };
}

let app: { server: Server; origin: string };
let dexcom: StandIn;

beforeAll(async () => {
  // Both clients log every step (and the secret) to the console.
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  app = await serveNightscout();
  dexcom = await dexcomStandIn();
});
afterAll(async () => {
  await new Promise((resolve) => app.server.close(resolve));
  await new Promise((resolve) => dexcom.server.close(resolve));
});

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out");
}

/** The CGMS view's readings and the CGM report's count over the local days around the fixture. */
async function shownReadings(pid: number, userId: number) {
  const token = await createApiToken(userId);
  const day = (ms: number) => wallClockAt(ms, "Europe/Warsaw").slice(0, 10);
  const today = day(Date.now());
  const view = await getApi(
    cgmFindList as Handler,
    `/api/cgms/cgm-record/findList?pid=${pid}&start=${day(Date.now() - 86_400_000)}&end=${today}`,
    token,
  );
  const report = await postApi(
    cgmReport as Handler,
    "/api/patient-data/sugarDevicePdf",
    { pid, start: day(Date.now() - 2 * 86_400_000), end: today },
    token,
  );
  return {
    view: (view.data as { readings: { mgdl: number }[] }).readings
      .map((r) => r.mgdl)
      .sort((a, b) => a - b),
    report: (report.data as { numberOfValue: number }).numberOfValue,
  };
}

const expectedValues = FIXTURE.map((r) => r.Value).sort((a, b) => a - b);

describe("share2nightscout-bridge, unmodified", () => {
  it("posts the Dexcom Share readings once; they show in the CGMS view and the CGM report; a second run adds nothing", async () => {
    const patient = await patientAccount("bridge");
    const link = (await makeLink(viewerOf(patient.user), patient.pid, {
      name: "Share bridge",
      kind: "upload",
    }))!;
    const count = () => db().cgmRecord.count({ where: { patientId: patient.pid } });
    const run = () =>
      bridge({
        login: {
          accountName: "someone",
          password: "secret-password",
          auth: `${dexcom.origin}/ShareWebServices/Services/General/AuthenticatePublisherAccount`,
          login: `${dexcom.origin}/ShareWebServices/Services/General/LoginPublisherAccountById`,
        },
        fetch: {
          maxCount: 12,
          minutes: 1440,
          LatestGlucose: `${dexcom.origin}/ShareWebServices/Services/Publisher/ReadPublisherLatestGlucoseValues`,
        },
        nightscout: { API_SECRET: link.secret, endpoint: `${app.origin}/ns/${link.id}` },
        maxFailures: 3,
        firstFetchCount: 12,
      });
    run();
    await until(async () => (await count()) === 12);
    const stored = await db().cgmRecord.findMany({
      where: { patientId: patient.pid },
      orderBy: { dateTime: "desc" },
    });
    expect(stored.map((r) => [r.dateTime.getTime(), r.mgdl, r.direction, r.deviceSn])).toEqual(
      FIXTURE.map((f, i) => [newest - i * 5 * MIN, f.Value, f.Trend, "share2"]),
    );
    const writes = () =>
      db().auditLog.count({ where: { patientId: patient.pid, action: "write:nightscout" } });
    expect(await writes()).toBe(1);
    run();
    await until(async () => (await writes()) === 2);
    expect(await count()).toBe(12);
    const shown = await shownReadings(patient.pid, patient.user.id);
    expect(shown.view).toEqual(expectedValues);
    expect(shown.report).toBe(12);
  });
});

describe("nightscout-connect (Dexcom Share source, Nightscout output), unmodified", () => {
  it("asks for the newest reading, posts the readings once, and a second round adds nothing", async () => {
    const patient = await patientAccount("connect");
    const link = (await makeLink(viewerOf(patient.user), patient.pid, {
      name: "nightscout-connect",
      kind: "upload",
    }))!;
    // The source addresses Dexcom over https; the stand-in speaks plain http on this machine.
    const toStandIn = {
      create: (config: Record<string, unknown>) =>
        axios.create({
          ...config,
          baseURL: String(config.baseURL).replace(/^https:/, "http:"),
        }),
    };
    const source = dexcomSource(
      {
        shareServer: dexcom.origin.replace("http://", ""),
        shareAccountName: "someone",
        sharePassword: "secret-password",
      },
      toStandIn,
    );
    const output = nightscoutOutput(
      { url: `${app.origin}/ns/${link.id}`, apiSecret: link.secret },
      axios,
    );
    // One round as nightscout-connect's builder runs it: the gap, the session, the data, the batch.
    const round = async () => {
      const bookmark = await output.gap_for();
      const account = await source.authFromCredentials();
      const session = await source.sessionFromAuth(account);
      const data = await source.dataFromSesssion(session, bookmark);
      await output({ ...source.transformGlucose(data), treatments: [] });
    };
    await round();
    const count = () => db().cgmRecord.count({ where: { patientId: patient.pid } });
    expect(await count()).toBe(12);
    const stored = await db().cgmRecord.findMany({ where: { patientId: patient.pid } });
    expect(new Set(stored.map((r) => r.deviceSn))).toEqual(new Set(["nightscout-connect"]));
    await round();
    expect(await count()).toBe(12);
    const shown = await shownReadings(patient.pid, patient.user.id);
    expect(shown.view).toEqual(expectedValues);
    expect(shown.report).toBe(12);
    expect(dexcom.calls).toContain(
      "POST /ShareWebServices/Services/Publisher/ReadPublisherLatestGlucoseValues",
    );
  });
});
