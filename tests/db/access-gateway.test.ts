/**
 * The access gateway, walked through every route that reads patient data: each granted read
 * writes exactly one access-log row with its channel, each refusal (every relationship of the
 * access matrix, signed out, dates outside the rule) writes none.
 */
import { readdirSync, readFileSync } from "node:fs";
import { Temporal } from "temporal-polyfill";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as agpPdf } from "~/routes/$id.agpprint[.]pdf";
import { loader as cgmPdf } from "~/routes/$id.cgmsprint[.]pdf";
import { loader as cgmPage } from "~/routes/$id.cgmsprint";
import { loader as pumpPdf } from "~/routes/$id.print[.]pdf";
import { loader as statisticsPdf } from "~/routes/$id.statisticsprint[.]pdf";
import { loader as bloodTestsPdf } from "~/routes/$id.bloodtestsprint[.]pdf";
import { loader as exportPage } from "~/routes/patientShow.$id.export[.]csv";
import { loader as patientsPage } from "~/routes/patientShow.patients";
import { loader as caringPatientsPage } from "~/routes/caringpatients";
import { errorPageStatusOf } from "~/utils/error-page";
import { createRenderToken } from "~/utils/render-token.server";
import { db } from "~/utils/db.server";
import { cookieFor, seedCgmWave, statusOf } from "./report-support";
import {
  CHANNEL,
  FROM,
  reportPage,
  ROUTES,
  TO,
  today,
  ZONE,
  type Caller,
  type Kind,
  type Route,
} from "./patient-data-routes";

/** 91 days, both ends counted: one day too many. */
const TOO_LONG = {
  start: today.subtract({ days: 91 }).toString(),
  end: today.subtract({ days: 1 }).toString(),
};
const TOMORROW = today.add({ days: 1 }).toString();
/** 367 days: one day more than the CSV export's year. */
const YEAR_AND_A_DAY = {
  start: today.subtract({ days: 367 }).toString(),
  end: today.subtract({ days: 1 }).toString(),
};

/**
 * Routes that list several patients' data: each patient shown is one read, a patient not shown
 * none. Remote caring's list asks for its patients first (`readPatientList`); the clinic's triage
 * list picks them through the access rule in its statement and logs those it shows
 * (`logListedReads`). Walked in their own tests below.
 */
const LIST_ROUTES = [
  { file: "caringpatients.tsx", purpose: "caringList" },
  { file: "patientShow.patients.tsx", purpose: "triage" },
  // The triage view's printable summary and its PDF (which prints the summary page with a render
  // token, so that the page logs its reads as the PDF's): tests/db/poptriage.test.ts and
  // tests/e2e/poptriage.spec.ts.
  { file: "triageprint.tsx", purpose: "triage" },
  { file: "triageprint[.]pdf.tsx", purpose: "triage" },
] as const;

/** What a refused caller gets, per kind of route: pages and PDFs hide whether the patient exists. */
const REFUSED: Record<Kind, number> = {
  page: 404,
  api: 404,
  pdf: 403,
  fhirApi: 404,
  fhirFile: 403,
};
/** Signed out: pages and PDFs send to the sign-in page, `/api/` calls answer "missing token". */
const SIGNED_OUT: Record<Kind, number> = {
  page: 302,
  api: 800,
  pdf: 302,
  fhirApi: 800,
  fhirFile: 302,
};

let n = 0;
async function scenario() {
  const tag = `${++n}-${Date.now()}`;
  // Names, and a person's gender and type of diabetes: remote caring's pages ask for them first.
  const mk = (name: string, identity: 1 | 2, isPass = 1) =>
    db().user.create({
      data: {
        email: `${name}-${tag}@gateway.test`,
        identity,
        isPass,
        firstName: name,
        lastName: "Gateway",
        ...(identity === 1
          ? {
              gender: "female",
              patient: {
                create: { timeZone: ZONE, diabetesType: { connect: { code: "type1" } } },
              },
            }
          : {}),
      },
      include: { patient: true },
    });
  const owner = await mk("owner", 1);
  const viewers = {
    accepted: await mk("accepted", 2),
    pending: await mk("pending", 2),
    refused: await mk("refused", 2),
    stranger: await mk("stranger", 1),
    unaudited: await mk("unaudited", 2, 3),
  };
  for (const [who, state] of [
    ["accepted", 1],
    ["pending", 0],
    ["refused", 2],
    ["unaudited", 1],
  ] as const) {
    await db().readPower.create({
      data: { providerId: owner.id, readerId: viewers[who].id, sourceType: 1, state },
    });
  }
  const pid = owner.patient!.id;
  // Six full days of CGM readings, enough for every report (the AGP needs five full days).
  await seedCgmWave(
    pid,
    Temporal.PlainDate.from(FROM).toZonedDateTime(ZONE),
    today.toZonedDateTime(ZONE),
  );
  const caller = async (id: number): Promise<Caller> => ({
    cookie: await cookieFor(id),
    token: await createApiToken(id),
  });
  const callers = {
    owner: await caller(owner.id),
    accepted: await caller(viewers.accepted.id),
    pending: await caller(viewers.pending.id),
    refused: await caller(viewers.refused.id),
    stranger: await caller(viewers.stranger.id),
    unaudited: await caller(viewers.unaudited.id),
  };
  return { owner, pid, viewers, callers };
}

const logRows = (patientId: number) =>
  db().auditLog.findMany({
    where: { patientId, action: { startsWith: "read:" } },
    orderBy: { id: "asc" },
  });

describe("the access gateway on every route that reads patient data", () => {
  let s: Awaited<ReturnType<typeof scenario>>;
  beforeAll(async () => {
    s = await scenario();
  });

  it("every route module that reads patient data goes through the gateway and is walked here", () => {
    const reads = /from "~\/models\/(patient-view|report|patient-data)\.server"|findPatientRecord/;
    const gateway =
      /from "~\/services\/(patient-read|patient-api|report-page|report-pdf|csv-export|caring|triage|fhir-export)\.server"/;
    const files = readdirSync("app/routes").filter((f) => f.endsWith(".tsx"));
    const readers = files.filter((f) => {
      const source = readFileSync(`app/routes/${f}`, "utf8");
      return reads.test(source) || gateway.test(source);
    });
    const outside = readers.filter((f) => !gateway.test(readFileSync(`app/routes/${f}`, "utf8")));
    expect(outside).toEqual([]);
    expect([...readers].sort()).toEqual(
      [...ROUTES.map((r) => r.file), ...LIST_ROUTES.map((r) => r.file)].sort(),
    );
  });

  it("only the gateway writes reads to the access log", () => {
    const writers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (
          /\.tsx?$/.test(entry.name) &&
          !entry.name.includes(".test.") &&
          /logPatientReads?\(/.test(readFileSync(path, "utf8"))
        )
          writers.push(path);
      }
    };
    walk("app");
    expect(writers.sort()).toEqual([
      "app/models/audit-log.server.ts",
      "app/services/patient-read.server.ts",
    ]);
  });

  it("a list of patients' data (remote caring's) logs one read for each patient it shows, none for any other relationship", async () => {
    const list = async (who: keyof typeof s.callers) =>
      (await caringPatientsPage({
        request: new Request("http://localhost/caringpatients", {
          headers: { Cookie: s.callers[who].cookie! },
        }),
        params: {},
        context: {},
      })) as { rows: { pid: number }[]; missing: string[] };
    const before = await logRows(s.pid);
    const shown = await list("accepted");
    expect(shown.missing).toEqual([]);
    expect(shown.rows.map((r) => r.pid)).toEqual([s.pid]);
    const added = (await logRows(s.pid)).slice(before.length);
    expect(
      added.map((r) => ({ action: r.action, channel: r.channel, actorId: r.actorId })),
    ).toEqual([
      { action: `read:${LIST_ROUTES[0].purpose}`, channel: "page", actorId: s.viewers.accepted.id },
    ]);
    const after = (await logRows(s.pid)).length;
    for (const who of ["owner", "pending", "refused", "stranger", "unaudited"] as const) {
      const answer = await list(who);
      expect([who, answer.rows.map((r) => r.pid)]).toEqual([who, []]);
    }
    expect((await logRows(s.pid)).length).toBe(after);
  });

  it("a granted read (the owner, an accepted reader) writes exactly one row with its channel, purpose and reader", async () => {
    for (const route of ROUTES.filter((r) => r.kind !== "pdf")) {
      for (const who of ["owner", "accepted"] as const) {
        const before = await logRows(s.pid);
        const status = await route.call(s.callers[who], s.pid, s.owner.id);
        expect([route.file, who, status]).toEqual([route.file, who, 200]);
        const added = (await logRows(s.pid)).slice(before.length);
        const actorId = who === "owner" ? s.owner.id : s.viewers.accepted.id;
        expect([
          route.file,
          who,
          added.map((r) => ({ action: r.action, channel: r.channel, actorId: r.actorId })),
        ]).toEqual([
          route.file,
          who,
          [{ action: `read:${route.purpose}`, channel: CHANNEL[route.kind], actorId }],
        ]);
      }
    }
  });

  it("the clinic's triage list logs one read per patient it shows, for an accepted clinic only", async () => {
    const listed = async (who: keyof typeof s.callers) => {
      const before = (await logRows(s.pid)).length;
      const request = new Request("http://localhost/patientShow/patients", {
        headers: { Cookie: s.callers[who].cookie! },
      });
      const page = await patientsPage({ request, params: {}, context: {} });
      const added = (await logRows(s.pid)).slice(before);
      return {
        shown: (page.triage?.items ?? []).filter((i) => i.patientId === s.pid).length,
        logged: added.map((r) => ({ action: r.action, channel: r.channel, actorId: r.actorId })),
      };
    };
    expect(await listed("accepted")).toEqual({
      shown: 1,
      logged: [{ action: "read:triage", channel: "page", actorId: s.viewers.accepted.id }],
    });
    for (const who of ["owner", "pending", "refused", "stranger", "unaudited"] as const)
      expect([who, await listed(who)]).toEqual([who, { shown: 0, logged: [] }]);
  });

  it("every other relationship is refused with nothing written: pending, refused, stranger, unaudited clinic, signed out", async () => {
    const before = (await logRows(s.pid)).length;
    for (const route of ROUTES) {
      for (const who of ["pending", "refused", "stranger", "unaudited"] as const) {
        // Remote caring's page tells a clinic still in review to finish it first (whoever it asks
        // about), reading nothing.
        const refused =
          route.purpose === "caringDetail" && who === "unaudited" ? 200 : REFUSED[route.kind];
        expect([route.file, who, await route.call(s.callers[who], s.pid, s.owner.id)]).toEqual([
          route.file,
          who,
          refused,
        ]);
      }
      expect([
        route.file,
        "signed out",
        await route.call({ cookie: null, token: null }, s.pid, s.owner.id),
      ]).toEqual([route.file, "signed out", SIGNED_OUT[route.kind]]);
      // A patient that does not exist answers like one the caller may not see.
      expect([
        route.file,
        "missing",
        await route.call(s.callers.accepted, s.pid + 100_000, s.owner.id + 100_000),
      ]).toEqual([route.file, "missing", REFUSED[route.kind]]);
    }
    expect((await logRows(s.pid)).length).toBe(before);
  });

  it("dates outside the rule are refused before anything is read or logged: 91 days, a future day", async () => {
    const before = (await logRows(s.pid)).length;
    const ranged = ROUTES.filter(
      (r) =>
        r.kind !== "page" &&
        !["lastRecord", "pdaTimeZone", "record"].includes(r.purpose) &&
        r.file !== "api.patient-data.getLatestDateFromReportAndAidex.tsx",
    );
    for (const route of ranged) {
      const future = await route.call(s.callers.accepted, s.pid, s.owner.id, {
        start: TOMORROW,
        end: TOMORROW,
      });
      expect([route.file, "future", future]).toEqual([route.file, "future", 400]);
      // One day's data names one date: it cannot be too long.
      if (route.purpose === "dayData") continue;
      const tooLong = await route.call(
        s.callers.accepted,
        s.pid,
        s.owner.id,
        route.purpose === "export" ? YEAR_AND_A_DAY : TOO_LONG,
      );
      expect([route.file, "too long", tooLong]).toEqual([route.file, "too long", 400]);
    }
    expect((await logRows(s.pid)).length).toBe(before);
  });

  it("a report page refusing the range still shows (and logs) its header once; the PDF renderer's own load is not logged twice", async () => {
    const refused = await logRows(s.pid);
    expect(
      await reportPage(cgmPage, "cgmsprint")(s.callers.accepted, s.pid, s.owner.id, TOO_LONG),
    ).toBe(200);
    const afterRefused = (await logRows(s.pid)).slice(refused.length);
    expect(afterRefused.map((r) => [r.action, r.channel, r.detail])).toEqual([
      ["read:cgmReport", "page", { print: false }],
    ]);

    const claim = {
      viewerId: s.viewers.accepted.id,
      pid: s.pid,
      purpose: "cgmReport",
      start: FROM,
      end: TO,
    };
    const render = (token: string) =>
      statusOf(() =>
        cgmPage({
          request: new Request(
            `http://localhost/${s.pid}/cgmsprint?${new URLSearchParams({ start: FROM, end: TO, print: "1", render: token })}`,
            { headers: { Cookie: s.callers.accepted.cookie! } },
          ),
          params: { id: String(s.pid) },
          context: {},
        }),
      );
    const before = (await logRows(s.pid)).length;
    expect(await render(createRenderToken(claim))).toBe(200);
    expect((await logRows(s.pid)).length).toBe(before);
    // A token made for another reader, another range or another report is an ordinary page read.
    for (const other of [
      { viewerId: s.owner.id },
      { start: today.subtract({ days: 7 }).toString() },
      { purpose: "agpReport" },
    ]) {
      expect(await render(createRenderToken({ ...claim, ...other }))).toBe(200);
    }
    const added = (await logRows(s.pid)).slice(before);
    expect(added.map((r) => r.channel)).toEqual(["page", "page", "page"]);
  });

  it("the owner's access-log page shows others' reads with their dates and channel, never the owner's own", async () => {
    const { loader: accessLog } = await import("~/routes/patientShow.accessLog");
    type Item = {
      what: string[];
      channel: string | null;
      range: { start: string; end: string } | null;
      who: string | null;
    };
    const log: { items: Item[] } = { items: [] };
    for (let logPage = 1, pages = 1; logPage <= pages; logPage++) {
      const request = new Request(`http://localhost/patientShow/accessLog?logPage=${logPage}`, {
        headers: { Cookie: s.callers.owner.cookie! },
      });
      const answer = (await accessLog({ request, params: {}, context: {} })) as {
        items: Item[];
        pages: number;
      };
      log.items.push(...answer.items);
      pages = answer.pages;
    }
    // The reader's display name (first and last name).
    expect(log.items.every((i) => i.who !== "owner Gateway")).toBe(true);
    expect(log.items).toContainEqual(
      expect.objectContaining({
        what: expect.arrayContaining(["accessLog.actions.read_meterReadings"]),
        channel: "api",
        range: { start: FROM, end: TO },
        who: "accepted Gateway",
      }),
    );
    expect(log.items).toContainEqual(
      expect.objectContaining({
        what: expect.arrayContaining(["accessLog.actions.read_patientHome"]),
        channel: "page",
        range: null,
        who: "accepted Gateway",
      }),
    );
  });

  it("a refused PDF or CSV export asks for the app's error page, with the status the access rule gives; a refused range stays a text answer", async () => {
    const call = (route: Route, url: string, cookie: string) =>
      route({
        request: new Request(url, { headers: { Cookie: cookie } }),
        params: { id: String(url.match(/\/(\d+|abc)\//)![1]) },
        context: {},
      }) as Promise<Response>;
    for (const [route, name] of [
      [pumpPdf, "print"],
      [cgmPdf, "cgmsprint"],
      [agpPdf, "agpprint"],
      [statisticsPdf, "statisticsprint"],
      [bloodTestsPdf, "bloodtestsprint"],
    ] as const) {
      for (const pid of [String(s.pid), String(s.pid + 100_000), "abc"]) {
        const answer = await call(
          route,
          `http://localhost/${pid}/${name}.pdf?start=${FROM}&end=${TO}`,
          s.callers.stranger.cookie!,
        );
        expect([name, pid, answer.status, errorPageStatusOf(answer), await answer.text()]).toEqual([
          name,
          pid,
          403,
          403,
          "",
        ]);
      }
      const range = await call(
        route,
        `http://localhost/${s.pid}/${name}.pdf?start=${TOMORROW}&end=${TOMORROW}`,
        s.callers.accepted.cookie!,
      );
      expect([
        name,
        range.status,
        errorPageStatusOf(range),
        range.headers.get("Content-Type"),
      ]).toEqual([name, 400, null, "text/plain; charset=utf-8"]);
    }
    const csv = await call(
      exportPage,
      `http://localhost/patientShow/${s.pid}/export.csv`,
      s.callers.stranger.cookie!,
    );
    expect([csv.status, errorPageStatusOf(csv)]).toEqual([404, 404]);
  });
});
