/**
 * The clinic's triage view on the database: each category at its limits (exactly at a limit is
 * not in the category, one reading past it is), the first category that applies, the previous
 * period and its wear, readings at the same instant merged before they are counted, the periods
 * of 7, 14 and 30 days, the counts per category, the category and tag filters, the clinic's own
 * tags (limits, unique names, only its patients, never another clinic's) and the access-log rows
 * of the period shown. Every expected value is worked out by hand in the comments.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GlucoseUnit } from "~/domain/glucose-unit";
import type { Viewer } from "~/models/access.server";
import { triageRows } from "~/models/triage.server";
import { triageCategory, type TriageCategory, type TriagePeriod } from "~/report/triage";
import { parseTagForm, TAG_NAME_MAX, TAGS_PER_CLINIC } from "~/schemas/clinic-tags";
import { applyTagForm, clinicTags } from "~/models/clinic-tags.server";
import { clinicTriage } from "~/services/triage.server";
import { action as patientsAction } from "~/routes/patientShow.patients";
import { loader as summaryLoader } from "~/routes/triageprint";
import { parseSummaryQuery, summaryClaim } from "~/services/triage-print.server";
import { db } from "~/utils/db.server";
import { createRenderToken, verifyRenderToken } from "~/utils/render-token.server";
import { cookieFor } from "./report-support";

/**
 * Now: 2026-11-26 12:00 UTC; every patient in UTC. The 7-day period is 2026-11-20 00:00Z to now:
 * 6.5 days = 9360 minutes, 5-minute slots 9360 / 5 + 1 = 1873 (the last the one `now` falls in).
 * The previous period is 2026-11-13 00:00Z to 2026-11-20 00:00Z: 7 x 288 = 2016 slots.
 */
const NOW = Date.parse("2026-11-26T12:00:00Z");
const CUR = "2026-11-20T00:00:00Z";
const PREV = "2026-11-13T00:00:00Z";

let seq = 0;
async function person(firstName: string) {
  return db().user.create({
    data: {
      email: `${firstName.toLowerCase()}-${++seq}-${Date.now()}@poptriage.test`,
      identity: 1,
      firstName,
      lastName: "Pop",
      patient: { create: { timeZone: "UTC" } },
    },
    include: { patient: true },
  });
}

async function clinic(name: string) {
  return db().user.create({
    data: { email: `${name}-${++seq}-${Date.now()}@poptriage.test`, identity: 2, isPass: 1 },
  });
}

const viewerOf = (user: { id: number; identity: number; isPass: number }): Viewer => ({
  id: user.id,
  identity: user.identity,
  isPass: user.isPass,
  role: "guest",
});

/**
 * 5-minute readings from `from`, one a slot: `groups` as [count, mg/dL] in order (so [[15, 50],
 * [1485, 120]] is 15 readings of 50 then 1485 of 120). `device` names a second sensor.
 */
async function fill(
  patientId: number,
  from: string,
  groups: [number, number][],
  device = "CGM-A",
  indexFrom = 0,
) {
  const values = groups.flatMap(([n, mgdl]) => Array<number>(n).fill(mgdl));
  await db().$executeRaw`
    INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
    SELECT ${patientId}, ${device}, ${indexFrom} + k, 7, (${values}::float8[])[k + 1], '', 'UTC',
           ${new Date(from)}::timestamp + make_interval(mins => 5 * k)
      FROM generate_series(0, ${values.length - 1}::int) k`;
}

/**
 * The patients, 1500 current readings each unless said (wear 1500 / 1873 = 80.1 %): 1 % of 1500
 * is 15 readings, 4 % 60, 5 % 75, 25 % 375.
 */
const CASES: { name: string; expect: TriageCategory; setup: (pid: number) => Promise<void> }[] = [
  // 16 below 54 = 1.07 %: very low.
  {
    name: "Vera",
    expect: "veryLow",
    setup: (p) =>
      fill(p, CUR, [
        [16, 50],
        [1484, 120],
      ]),
  },
  // 15 below 54 = 1 % exactly, 15 + 45 = 60 below 70 = 4 % exactly: neither; on target.
  {
    name: "Vic",
    expect: "target",
    setup: (p) =>
      fill(p, CUR, [
        [15, 50],
        [45, 60],
        [1440, 120],
      ]),
  },
  // 15 + 46 = 61 below 70 = 4.07 %: low.
  {
    name: "Lena",
    expect: "low",
    setup: (p) =>
      fill(p, CUR, [
        [15, 50],
        [46, 60],
        [1439, 120],
      ]),
  },
  // Previous: 2016 of 120 (100 % in range, wear 100 %); now 1275 of 1500 in range = 85 %: down
  // 15 points exactly: dropped. 225 above 180 = 15 %: not high.
  {
    name: "Tom",
    expect: "tirDrop",
    setup: async (p) => {
      await fill(p, PREV, [[2016, 120]], "CGM-P");
      await fill(p, CUR, [
        [1275, 120],
        [225, 200],
      ]);
    },
  },
  // Now 1276 of 1500 = 85.07 %: down 14.93 points: not dropped; 224 above 180: on target.
  {
    name: "Tim",
    expect: "target",
    setup: async (p) => {
      await fill(p, PREV, [[2016, 120]], "CGM-P");
      await fill(p, CUR, [
        [1276, 120],
        [224, 200],
      ]);
    },
  },
  // Previous wear 1411 / 2016 = 69.99 % (100 x 1411 = 141100 < 70 x 2016 = 141120): the drop is
  // not judged; on target. With 1412 (141200): judged, dropped.
  {
    name: "Pia",
    expect: "target",
    setup: async (p) => {
      await fill(p, PREV, [[1411, 120]], "CGM-P");
      await fill(p, CUR, [
        [1275, 120],
        [225, 200],
      ]);
    },
  },
  {
    name: "Pete",
    expect: "tirDrop",
    setup: async (p) => {
      await fill(p, PREV, [[1412, 120]], "CGM-P");
      await fill(p, CUR, [
        [1275, 120],
        [225, 200],
      ]);
    },
  },
  // 76 above 250 = 5.07 %: very high.
  {
    name: "Hugo",
    expect: "veryHigh",
    setup: (p) =>
      fill(p, CUR, [
        [76, 300],
        [1424, 120],
      ]),
  },
  // 75 above 250 = 5 % exactly, 75 + 300 = 375 above 180 = 25 % exactly: neither; on target.
  {
    name: "Hal",
    expect: "target",
    setup: (p) =>
      fill(p, CUR, [
        [75, 300],
        [300, 200],
        [1125, 120],
      ]),
  },
  // 75 + 301 = 376 above 180 = 25.07 %: high.
  {
    name: "Hana",
    expect: "high",
    setup: (p) =>
      fill(p, CUR, [
        [75, 300],
        [301, 200],
        [1124, 120],
      ]),
  },
  // 1311 of 1873 slots: 131100 < 70 x 1873 = 131110: low wear. 1312 (131200): on target.
  { name: "Wes", expect: "lowWear", setup: (p) => fill(p, CUR, [[1311, 120]]) },
  { name: "Will", expect: "target", setup: (p) => fill(p, CUR, [[1312, 120]]) },
  // No reading in the period (one in the previous one): no data.
  { name: "Nina", expect: "noData", setup: (p) => fill(p, PREV, [[1, 120]]) },
  // Very low (16 = 1.07 %) and very high (100 = 6.7 %): the first that applies, very low.
  {
    name: "Mix",
    expect: "veryLow",
    setup: (p) =>
      fill(p, CUR, [
        [16, 50],
        [100, 300],
        [1384, 120],
      ]),
  },
  // 1500 of 120 and, at the same instants, a second sensor's 300: one reading of their mean, 210,
  // each: 100 % above 180 but none above 250: high (counted apart, half the readings would be
  // above 250: very high).
  {
    name: "Dup",
    expect: "high",
    setup: async (p) => {
      await fill(p, CUR, [[1500, 120]]);
      await fill(p, CUR, [[1500, 300]], "CGM-B");
    },
  },
];

const options = (period: TriagePeriod = 7) => ({
  sort: "name" as const,
  dir: "asc" as const,
  flags: [],
  period,
  now: NOW,
});

async function scenario() {
  const theClinic = await clinic("pop");
  const other = await clinic("other");
  const pids: Record<string, number> = {};
  for (const c of CASES) {
    const p = await person(c.name);
    await db().readPower.create({
      data: { providerId: p.id, readerId: theClinic.id, sourceType: 1, state: 1 },
    });
    pids[c.name] = p.patient!.id;
    await c.setup(p.patient!.id);
  }
  // A patient sharing only with the other clinic.
  const stranger = await person("Stranger");
  await db().readPower.create({
    data: { providerId: stranger.id, readerId: other.id, sourceType: 1, state: 1 },
  });
  return { theClinic, other, pids, stranger };
}

describe("the clinic's triage view", () => {
  let s: Awaited<ReturnType<typeof scenario>>;
  let viewer: Viewer;
  beforeAll(async () => {
    s = await scenario();
    viewer = viewerOf(s.theClinic);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("puts each patient in the first category that applies, at every limit, as the TypeScript rule does", async () => {
    const rows = await triageRows(viewer, options());
    const byName = Object.fromEntries(rows.map((r) => [r.firstName, r]));
    for (const c of CASES) {
      const row = byName[c.name]!;
      expect([c.name, row.category]).toEqual([c.name, c.expect]);
      expect([c.name, triageCategory(row)]).toEqual([c.name, c.expect]);
    }
    expect(byName.Vera).toMatchObject({
      readings: 1500,
      below54: 16,
      below70: 16,
      slots: 1500,
      expectedSlots: 1873,
      prevReadings: 0,
      prevExpectedSlots: 2016,
      // 1500 readings from the 20th 00:00 reach the 25th 04:55: six days.
      daysWithData: 6,
    });
    expect(byName.Tom).toMatchObject({
      readings: 1500,
      inRange: 1275,
      above180: 225,
      above250: 0,
      prevReadings: 2016,
      prevInRange: 2016,
      prevSlots: 2016,
    });
    expect(byName.Pia).toMatchObject({ prevSlots: 1411, prevReadings: 1411 });
    expect(byName.Dup).toMatchObject({ readings: 1500, above180: 1500, above250: 0, slots: 1500 });
    expect(byName.Dup!.meanMgdl).toBeCloseTo(210, 9);
    expect(byName.Nina).toMatchObject({ readings: 0, prevReadings: 1, slots: 0 });
    expect(rows.map((r) => r.firstName)).not.toContain("Stranger");
  });

  it("a longer period takes the previous readings into the current one", async () => {
    // 14 days from 2026-11-13 00:00Z: Tom's 2016 + 1500 readings are all current, 225 above 180
    // (6.4 %), nothing before: on target; slots 13.5 days = 19440 min / 5 + 1 = 3889.
    const rows = await triageRows(viewer, options(14));
    const tom = rows.find((r) => r.firstName === "Tom")!;
    expect(tom).toMatchObject({
      readings: 3516,
      prevReadings: 0,
      slots: 3516,
      expectedSlots: 3889,
      category: "target",
    });
    // 30 days: 29.5 days = 42480 min / 5 + 1 = 8497 slots; the previous 30 days, 8640.
    const month = (await triageRows(viewer, options(30))).find((r) => r.firstName === "Tom")!;
    expect(month).toMatchObject({ expectedSlots: 8497, prevExpectedSlots: 8640 });
  });

  it("counts every category, lists one, and pages and logs the period shown", async () => {
    const page = (await clinicTriage(
      viewer,
      {
        period: 7,
        sort: "category",
        dir: "asc",
        flags: [],
        category: "tirDrop",
        tag: null,
        page: 1,
      },
      { unit: GlucoseUnit.Mgdl, locale: "en", now: NOW },
    ))!;
    expect(page.counts).toEqual({
      veryLow: 2,
      low: 1,
      tirDrop: 2,
      veryHigh: 1,
      high: 2,
      lowWear: 1,
      noData: 1,
      target: 5,
    });
    expect(page.items.map((i) => i.name)).toEqual(["Pete Pop", "Tom Pop"]);
    // Tom: 85 % now, 100 % before: -15.0 points; wear 1500 / 1873 = 80.08 %: "80".
    expect(page.items[1]).toMatchObject({
      category: "tirDrop",
      tir: "85.0",
      change: "\u221215.0",
      above180: "15.0",
      wear: "80",
    });
    const logged = await db().auditLog.findMany({
      where: { actorId: s.theClinic.id },
      orderBy: { id: "asc" },
    });
    expect(logged.map((r) => [r.patientId, r.action, r.detail])).toEqual([
      [s.pids.Pete, "read:triage", { start: "2026-11-20", end: "2026-11-26" }],
      [s.pids.Tom, "read:triage", { start: "2026-11-20", end: "2026-11-26" }],
    ]);
  });

  it("sorts by category, worst first, the least time in range first within one", async () => {
    const page = (await clinicTriage(
      viewer,
      { period: 7, sort: "category", dir: "asc", flags: [], category: null, tag: null, page: 1 },
      { unit: GlucoseUnit.Mgdl, locale: "en", now: NOW },
    ))!;
    // Very low: Mix (1384 in range) before Vera (1484); low: Lena; drop: Tom and Pete both 85 %
    // (by name); very high: Hugo; high: Dup (0 %) before Hana; low wear: Wes; no data: Nina; on
    // target: Hal 75 %, Tim 85.07 %, Pia 85 %... by time in range: Hal 1125/1500 = 75 %, Pia 85 %,
    // Tim 85.07 %, then Vic 1440 + 15 + 45... Vic 1440/1500 = 96 %, Will 100 %.
    expect(page.items.map((i) => i.name.split(" ")[0])).toEqual([
      "Mix",
      "Vera",
      "Lena",
      "Pete",
      "Tom",
      "Hugo",
      "Dup",
      "Hana",
      "Wes",
      "Nina",
      "Hal",
      "Pia",
      "Tim",
      "Vic",
      "Will",
    ]);
  });

  it("keeps a clinic's tags its own: limits, unique names ignoring case, only its patients", async () => {
    const form = (fields: Record<string, string | number>) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(fields)) data.set(k, String(v));
      const parsed = parseTagForm(data);
      if (!parsed.success) return { ok: false as const, error: parsed.error.issues[0]!.message };
      return parsed.data;
    };
    const apply = async (v: Viewer, fields: Record<string, string | number>) => {
      const f = form(fields);
      return "intent" in f ? applyTagForm(v, f) : f;
    };
    expect(await apply(viewer, { intent: "create", name: "  Pump start " })).toMatchObject({
      ok: true,
    });
    expect(await apply(viewer, { intent: "create", name: "PUMP START" })).toEqual({
      ok: false,
      error: "tags.errors.nameTaken",
      status: 409,
    });
    expect(await apply(viewer, { intent: "create", name: "" })).toMatchObject({
      error: "tags.errors.nameRequired",
    });
    expect(
      await apply(viewer, { intent: "create", name: "x".repeat(TAG_NAME_MAX + 1) }),
    ).toMatchObject({ error: "tags.errors.nameTooLong" });
    expect(await apply(viewer, { intent: "create", name: "a\u202eb" })).toMatchObject({
      error: "input.hiddenCharacters",
    });
    expect(await apply(viewer, { intent: "explode" })).toMatchObject({
      error: "tags.errors.intentInvalid",
    });
    const [pump] = await clinicTags(viewer);
    expect(pump).toEqual({ id: pump!.id, name: "Pump start", patients: 0 });

    // Attach to two of the clinic's patients; not to a stranger, nor another clinic's tag.
    expect(
      await apply(viewer, { intent: "attach", tagId: pump!.id, patientId: s.pids.Tom! }),
    ).toMatchObject({ ok: true });
    expect(
      await apply(viewer, { intent: "attach", tagId: pump!.id, patientId: s.pids.Tom! }),
    ).toMatchObject({ ok: true });
    await apply(viewer, { intent: "attach", tagId: pump!.id, patientId: s.pids.Vera! });
    expect(
      await apply(viewer, {
        intent: "attach",
        tagId: pump!.id,
        patientId: s.stranger.patient!.id,
      }),
    ).toEqual({ ok: false, error: "tags.errors.patientNotFound", status: 404 });
    const other = viewerOf(s.other);
    expect(
      await apply(other, {
        intent: "attach",
        tagId: pump!.id,
        patientId: s.stranger.patient!.id,
      }),
    ).toEqual({ ok: false, error: "tags.errors.tagNotFound", status: 404 });
    expect(await apply(other, { intent: "delete", tagId: pump!.id })).toMatchObject({
      error: "tags.errors.tagNotFound",
    });
    expect(await apply(other, { intent: "rename", tagId: pump!.id, name: "Mine" })).toMatchObject({
      error: "tags.errors.tagNotFound",
    });
    expect(await clinicTags(other)).toEqual([]);
    expect((await clinicTags(viewer))[0]!.patients).toBe(2);

    // The tag filter; the other clinic naming the tag lists its own patients unfiltered, no tags.
    const q = { period: 7 as const, sort: "name" as const, dir: "asc" as const, flags: [] };
    const tagged = (await clinicTriage(
      viewer,
      { ...q, category: null, tag: pump!.id, page: 1 },
      { unit: GlucoseUnit.Mgdl, locale: "en", now: NOW },
    ))!;
    expect(tagged.items.map((i) => [i.name, i.tags])).toEqual([
      ["Tom Pop", [{ id: pump!.id, name: "Pump start" }]],
      ["Vera Pop", [{ id: pump!.id, name: "Pump start" }]],
    ]);
    expect(tagged.counts.tirDrop).toBe(1);
    const theirs = (await clinicTriage(
      other,
      { ...q, category: null, tag: pump!.id, page: 1 },
      { unit: GlucoseUnit.Mgdl, locale: "en", now: NOW },
    ))!;
    expect([theirs.tag, theirs.items.map((i) => [i.name, i.tags])]).toEqual([
      null,
      [["Stranger Pop", []]],
    ]);

    // Rename, detach, delete (its links go with it).
    expect(
      await apply(viewer, { intent: "rename", tagId: pump!.id, name: "pump START" }),
    ).toMatchObject({ ok: true });
    expect((await clinicTags(viewer))[0]!.name).toBe("pump START");
    await apply(viewer, { intent: "detach", tagId: pump!.id, patientId: s.pids.Vera! });
    expect((await clinicTags(viewer))[0]!.patients).toBe(1);
    expect(await apply(viewer, { intent: "delete", tagId: pump!.id })).toMatchObject({ ok: true });
    expect(await db().patientTag.count({ where: { tagId: pump!.id } })).toBe(0);

    // At most 20 tags.
    for (let i = 0; i < TAGS_PER_CLINIC; i++)
      expect(await apply(viewer, { intent: "create", name: `Tag ${i}` })).toMatchObject({
        ok: true,
      });
    expect(await apply(viewer, { intent: "create", name: "One more" })).toEqual({
      ok: false,
      error: "tags.errors.tooMany",
      status: 409,
    });
  });

  it("the printable summary: every patient, logged as the PDF's only with a valid render token; nobody but a clinic", async () => {
    // The page takes its period from the clock: it is `NOW`, as for the figures worked out above.
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const theClinic = await clinic("print");
    const names = ["Vera", "Tom", "Nina"];
    for (const name of names) {
      const owner = await db().patient.findUniqueOrThrow({ where: { id: s.pids[name]! } });
      await db().readPower.create({
        data: { providerId: owner.userId, readerId: theClinic.id, sourceType: 1, state: 1 },
      });
    }
    const v = viewerOf(theClinic);
    const call = async (userId: number, search: string) =>
      summaryLoader({
        request: new Request(`http://localhost/triageprint${search}`, {
          headers: { Cookie: await cookieFor(userId) },
        }),
        params: {},
        context: {},
      });
    const channels = async () =>
      (
        await db().auditLog.findMany({
          where: { actorId: theClinic.id },
          orderBy: { id: "asc" },
          select: { channel: true },
        })
      ).map((r) => r.channel);
    const page = await call(theClinic.id, "?period=7");
    expect(page.list.items.map((i) => i.name)).toEqual(["Vera Pop", "Tom Pop", "Nina Pop"]);
    expect(await channels()).toEqual(["page", "page", "page"]);
    const query = parseSummaryQuery(new URLSearchParams("period=7"));
    const token = createRenderToken(summaryClaim(v, query));
    await call(theClinic.id, `?period=7&print=1&render=${token}`);
    expect((await channels()).slice(3)).toEqual(["pdf", "pdf", "pdf"]);
    // A token for another period, or a made-up one: an ordinary page view.
    await call(theClinic.id, `?period=14&print=1&render=${token}`);
    await call(theClinic.id, `?period=7&render=${Date.now() + 60_000}.forged`);
    expect((await channels()).slice(6)).toEqual(["page", "page", "page", "page", "page", "page"]);
    // A person: not found.
    const somebody = await person("Somebody");
    const refused = await call(somebody.id, "?period=7").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(404);
  });

  it("the summary prints the most urgent 36 on one page and logs only those; all=1 prints and logs every patient", async () => {
    const theClinic = await clinic("onepage");
    for (let i = 0; i < 38; i++) {
      const p = await person(`Many${String(i).padStart(2, "0")}`);
      await db().readPower.create({
        data: { providerId: p.id, readerId: theClinic.id, sourceType: 1, state: 1 },
      });
    }
    const summary = async (search: string) =>
      summaryLoader({
        request: new Request(`http://localhost/triageprint${search}`, {
          headers: { Cookie: await cookieFor(theClinic.id) },
        }),
        params: {},
        context: {},
      });
    const logged = () => db().auditLog.count({ where: { actorId: theClinic.id } });
    const page = await summary("?period=7");
    expect(page.list.items).toHaveLength(36);
    expect(page.list.total).toBe(38);
    expect(page.everyPatient).toBe(false);
    expect(await logged()).toBe(36);
    const every = await summary("?period=7&all=1");
    expect(every.list.items).toHaveLength(38);
    expect(every.everyPatient).toBe(true);
    expect(await logged()).toBe(36 + 38);
    // Anything but "1" is the one-page summary.
    expect((await summary("?period=7&all=yes")).list.items).toHaveLength(36);
    // A PDF token for the one-page summary does not vouch for every patient.
    const v = viewerOf(theClinic);
    const onePage = parseSummaryQuery(new URLSearchParams("period=7"));
    const everyOne = parseSummaryQuery(new URLSearchParams("period=7&all=1"));
    expect(
      verifyRenderToken(createRenderToken(summaryClaim(v, onePage)), summaryClaim(v, everyOne)),
    ).toBe(false);
  });

  it("a row's tag form: refused for a person, an unknown intent is a translated 400", async () => {
    const post = async (userId: number, fields: Record<string, string>) =>
      patientsAction({
        request: new Request("http://localhost/patientShow/patients?period=7", {
          method: "POST",
          headers: {
            Cookie: await cookieFor(userId),
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams(fields).toString(),
        }),
        params: {},
        context: {},
      });
    const somebody = await person("Nobody");
    const refused = (await post(somebody.id, { intent: "attach", tagId: "1", patientId: "1" })) as {
      data: unknown;
      init: { status: number };
    };
    expect([refused.data, refused.init.status]).toEqual([{ error: "tags.errors.notAllowed" }, 403]);
    const unknown = (await post(s.theClinic.id, { intent: "create", name: "Row" })) as {
      data: unknown;
      init: { status: number };
    };
    expect([unknown.data, unknown.init.status]).toEqual([
      { error: "tags.errors.intentInvalid" },
      400,
    ]);
    const bad = (await post(s.theClinic.id, { intent: "attach", tagId: "x", patientId: "1" })) as {
      data: unknown;
      init: { status: number };
    };
    expect([bad.data, bad.init.status]).toEqual([{ error: "tags.errors.tagInvalid" }, 400]);
  });
});
