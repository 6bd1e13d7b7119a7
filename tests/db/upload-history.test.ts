/**
 * A patient's upload history: the model's page (newest first, 20 a page, the access rule in its
 * WHERE) and the page's rows as the loader gives them (operator, dates in the patient's zone,
 * failures, warnings).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { pageRead } from "~/domain/keyset";
import type { Viewer } from "~/models/access.server";
import { listPatientUploads } from "~/models/upload-task.server";
import { loader as uploadsPage } from "~/routes/patientShow.$id.$userid.uploads";
import type { UploadHistoryPage } from "~/services/upload-history.server";
import { db } from "~/utils/db.server";
import { cookieFor } from "./report-support";

const ZONE = "Europe/Warsaw";
const asViewer = (u: { id: number; identity: number; isPass: number }): Viewer => ({
  id: u.id,
  identity: u.identity,
  isPass: u.isPass,
  role: "guest",
});

let s: Awaited<ReturnType<typeof scenario>>;

async function scenario() {
  const mk = (name: string, identity: 1 | 2, isPass = 1, patient = false) =>
    db().user.create({
      data: {
        email: `${name}@history.test`,
        identity,
        isPass,
        firstName: name[0]!.toUpperCase() + name.slice(1),
        lastName: "Tester",
        ...(patient ? { patient: { create: { timeZone: ZONE } } } : {}),
      },
      include: { patient: true },
    });
  const owner = await mk("olga", 1, 0, true);
  const clinic = await mk("cora", 2);
  const pending = await mk("pending", 2);
  const unaudited = await mk("unaudited", 2, 3);
  const stranger = await mk("stan", 1, 0, true);
  for (const [reader, state] of [
    [clinic, 1],
    [pending, 0],
    [unaudited, 1],
  ] as const) {
    await db().readPower.create({
      data: { providerId: owner.id, readerId: reader.id, sourceType: 1, state },
    });
  }
  const pid = owner.patient!.id;
  const base = { patientId: pid, deviceKind: "equil" as const, deviceSn: "EQ-H1", timeZone: ZONE };
  // 21 older uploads by the patient, one an hour from 2026-01-01 08:00 UTC, each adding i records.
  for (let i = 0; i < 21; i++) {
    await db().uploadTask.create({
      data: {
        ...base,
        uploaderId: owner.id,
        status: "done",
        insertedCount: i,
        createdAt: new Date(Date.UTC(2026, 0, 1, 8 + i)),
        completedAt: new Date(Date.UTC(2026, 0, 1, 8 + i, 1)),
      },
    });
  }
  // A refused upload by the clinic: 2026-03-29 00:30 UTC is 01:30 in Warsaw (CET, +01:00, before the 02:00 change).
  const failed = await db().uploadTask.create({
    data: {
      ...base,
      uploaderId: clinic.id,
      channel: "slices",
      status: "failed",
      error: "errors.unknownEvent",
      errorValues: { position: 3, code: "9/9" },
      createdAt: new Date("2026-03-29T00:30:00Z"),
      completedAt: new Date("2026-03-29T00:31:00Z"),
    },
  });
  // The newest: the clinic's CGM upload in one call, 2026-10-25 01:30 UTC = 02:30 in Warsaw (CET again since 01:00 UTC).
  // First record 2026-10-23 21:59 UTC = 23:59 CEST on the 23rd; last 2026-10-25 23:30 UTC = 00:30 CET on the 26th.
  const newest = await db().uploadTask.create({
    data: {
      ...base,
      deviceKind: "aidex",
      deviceSn: "AX-9",
      uploaderId: clinic.id,
      channel: "direct",
      status: "done",
      insertedCount: 3,
      duplicateCount: 1,
      flaggedCount: 0,
      skippedCount: 2,
      dstGapCount: 1,
      dstOverlapCount: 2,
      otherPatientDevice: true,
      firstAt: new Date("2026-10-23T21:59:00Z"),
      lastAt: new Date("2026-10-25T23:30:00Z"),
      createdAt: new Date("2026-10-25T01:30:00Z"),
      completedAt: new Date("2026-10-25T01:30:02Z"),
    },
  });
  // Another patient's upload: never in this patient's history.
  await db().uploadTask.create({
    data: {
      ...base,
      patientId: stranger.patient!.id,
      uploaderId: stranger.id,
      status: "done",
      createdAt: new Date("2026-11-01T00:00:00Z"),
    },
  });
  return { owner, clinic, pending, unaudited, stranger, pid, failed, newest };
}

beforeAll(async () => {
  s = await scenario();
});

async function page(userId: number, n?: number, lang = "pl"): Promise<UploadHistoryPage> {
  const request = new Request(
    `http://localhost/patientShow/${s.pid}/${s.owner.id}/uploads${n ? `?page=${n}` : ""}`,
    { headers: { Cookie: await cookieFor(userId), "Accept-Language": lang } },
  );
  const data = (await uploadsPage({
    request,
    params: { id: String(s.pid), userid: String(s.owner.id) },
    context: {},
  })) as { history: UploadHistoryPage };
  return data.history;
}

describe("the upload history model", () => {
  it("pages the patient's uploads newest first, 20 a page, with the count (also past the last page)", async () => {
    const viewer = asViewer(s.owner);
    const first = await listPatientUploads(viewer, s.pid, {
      read: pageRead(1, 20, {}),
      pageSize: 20,
    });
    // 21 + 1 + 1 = 23 uploads of this patient; the other patient's is not counted.
    expect(first.total).toBe(23);
    expect(first.rows.slice(0, 3).map((r) => r.id)).toEqual([
      s.newest.id,
      s.failed.id,
      first.rows[2]!.id,
    ]);
    // After the two special ones come the hourly uploads, newest (i = 20) first: 20, 19, ... 3.
    expect(first.rows.slice(2).map((r) => r.insertedCount)).toEqual([
      20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
    ]);
    const second = await listPatientUploads(viewer, s.pid, {
      read: pageRead(2, 20, {}),
      pageSize: 20,
    });
    expect([second.total, second.rows.map((r) => r.insertedCount)]).toEqual([23, [2, 1, 0]]);
    expect(
      await listPatientUploads(viewer, s.pid, { read: pageRead(4, 20, {}), pageSize: 20 }),
    ).toEqual({
      total: 23,
      rows: [],
    });
  });

  it("a link's key with an id past any upload's (beyond a 32-bit integer) reads the rows before it, not an error", async () => {
    const viewer = asViewer(s.owner);
    const page = await listPatientUploads(viewer, s.pid, {
      read: {
        by: "after",
        cursor: { at: new Date("2999-01-01T00:00:00.000Z"), id: 9_000_000_000_000_000_000n },
      },
      pageSize: 20,
    });
    expect([page.total, page.rows.length, page.rows[0]?.id]).toEqual([23, 20, s.newest.id]);
  });

  it("carries the access rule itself: an accepted reader reads the rows; pending, unaudited and strangers read none", async () => {
    expect(
      (
        await listPatientUploads(asViewer(s.clinic), s.pid, {
          read: pageRead(1, 20, {}),
          pageSize: 20,
        })
      ).total,
    ).toBe(23);
    for (const who of [s.pending, s.unaudited, s.stranger]) {
      expect([
        who.email,
        await listPatientUploads(asViewer(who), s.pid, { read: pageRead(1, 20, {}), pageSize: 20 }),
      ]).toEqual([who.email, { total: 0, rows: [] }]);
    }
  });
});

describe("the upload history page", () => {
  it("shows each upload's device, channel, operator, counts, dates in the patient's zone and outcome", async () => {
    const history = await page(s.owner.id);
    expect([history.total, history.page, history.pages, history.items.length]).toEqual([
      23, 1, 2, 20,
    ]);
    const [newest, failed, hourly] = history.items;
    expect({ ...newest!, when: newest!.when.replace(/\s/g, " ") }).toEqual({
      id: s.newest.id,
      when: "25 paź 2026, 02:30",
      deviceKind: "aidex",
      deviceSn: "AX-9",
      channel: "direct",
      operator: { you: false, name: "Cora Tester" },
      added: 3,
      duplicates: 1,
      flagged: 0,
      skipped: 2,
      // 1 time moved out of a gap + 2 placed in an overlap.
      dstAdjusted: 3,
      dates: "23–26 paź 2026",
      status: "done",
      failure: null,
      otherPatientDevice: true,
    });
    expect(failed).toMatchObject({
      when: "29 mar 2026, 01:30",
      status: "failed",
      channel: "slices",
      dates: null,
      failure: { key: "errors.unknownEvent", values: { position: 3, code: "9/9" } },
    });
    // The patient's own uploads name them "you".
    expect(hourly).toMatchObject({
      operator: { you: true },
      added: 20,
      status: "done",
      otherPatientDevice: false,
    });
    expect((await page(s.owner.id, 2)).items.map((i) => i.added)).toEqual([2, 1, 0]);
  });

  it("for the clinic the clinic's uploads are its own and the patient's carry the patient's name", async () => {
    const history = await page(s.clinic.id, 1, "en");
    expect(history.items.slice(0, 3).map((i) => i.operator)).toEqual([
      { you: true },
      { you: true },
      { you: false, name: "Olga Tester" },
    ]);
    expect(history.items[0]!.when.replace(/\s/g, " ")).toBe("Oct 25, 2026, 02:30");
  });

  it("a patient without uploads gets an empty page; each view is one read:uploads row in the access log", async () => {
    const request = new Request(
      `http://localhost/patientShow/${s.stranger.patient!.id}/${s.stranger.id}/uploads`,
      { headers: { Cookie: await cookieFor(s.stranger.id) } },
    );
    const before = await db().auditLog.count({
      where: { patientId: s.stranger.patient!.id, action: "read:uploads" },
    });
    const own = (await uploadsPage({
      request,
      params: { id: String(s.stranger.patient!.id), userid: String(s.stranger.id) },
      context: {},
    })) as { history: UploadHistoryPage };
    // The stranger's own patient has exactly one upload (by themself).
    expect(own.history).toMatchObject({ total: 1, pages: 1 });
    await db().uploadTask.deleteMany({ where: { patientId: s.stranger.patient!.id } });
    const empty = (await uploadsPage({
      request,
      params: { id: String(s.stranger.patient!.id), userid: String(s.stranger.id) },
      context: {},
    })) as { history: UploadHistoryPage };
    expect(empty.history).toEqual({
      items: [],
      total: 0,
      page: 1,
      pages: 1,
      first: null,
      last: null,
    });
    expect(
      await db().auditLog.count({
        where: { patientId: s.stranger.patient!.id, action: "read:uploads", channel: "page" },
      }),
    ).toBe(before + 2);
  });
});
