import { describe, expect, it } from "vitest";
import type { Viewer } from "~/models/access.server";
import {
  listSentRequests,
  listSharedWithMeEntries,
  listSharedWithOthers,
} from "~/models/read-power-list.server";
import { loader as addPageLoader } from "~/routes/patientShow.add";
import { db } from "~/utils/db.server";
import { createUserSession } from "~/services/session.server";

/** Runs `work` and counts the raw queries it sends. */
async function countingRawQueries<T>(
  work: () => Promise<T>,
): Promise<{ result: T; queries: number }> {
  const client = db();
  const original = client.$queryRaw;
  let queries = 0;
  client.$queryRaw = ((...args: Parameters<typeof original>) => {
    queries++;
    return original.apply(client, args);
  }) as typeof original;
  try {
    const result = await work();
    return { result, queries };
  } finally {
    client.$queryRaw = original;
  }
}

/** A clinic reading 12 patients (one refused share request among them) and a patient sharing with 3 readers. */
let run = 0;
async function scenario() {
  const tag = ++run;
  const clinic = await db().user.create({
    data: { email: `list-clinic-${tag}@list.test`, identity: 2, isPass: 1 },
  });
  const patients = [];
  for (let i = 1; i <= 12; i++) {
    const user = await db().user.create({
      data: {
        email: `p${i}_x.${tag}@list.test`,
        identity: 1,
        firstName: i === 3 ? "Zofia" : `Pat${i}`,
        lastName: i === 4 ? "Wiśniewska" : "Tester",
        patient: { create: {} },
      },
    });
    patients.push(user);
    await db().readPower.create({
      data: {
        providerId: user.id,
        readerId: clinic.id,
        sourceType: i === 12 ? 0 : 1,
        state: i === 12 ? 2 : 1,
        nickName: i === 5 ? "Grandpa 100%" : null,
        createdAt: new Date(Date.UTC(2026, 0, i)),
      },
    });
  }
  const viewer: Viewer = { id: clinic.id, identity: 2, isPass: 1, role: "guest" };
  return { clinic, patients, viewer };
}

describe("the patient area's lists", () => {
  it("pages newest first with the count, also past the last page; a refused share request is left out", async () => {
    const { viewer, patients } = await scenario();
    const first = await listSharedWithMeEntries(viewer, { page: 1 });
    expect(first.count).toBe(11);
    expect(first.data.map((item) => item.userId)).toEqual(
      patients
        .slice(0, 11)
        .reverse()
        .slice(0, 10)
        .map((p) => p.id),
    );
    expect(first.data[0]).toMatchObject({
      pid: expect.any(Number),
      email: expect.stringMatching(/^p11_x\.\d+@list\.test$/),
      name: "Pat11 Tester",
      state: 1,
      identity: 1,
      provideId: patients[10]!.id,
      readId: viewer.id,
    });
    const second = await listSharedWithMeEntries(viewer, { page: 2 });
    expect([second.count, second.data.map((item) => item.userId)]).toEqual([11, [patients[0]!.id]]);
    expect(await listSharedWithMeEntries(viewer, { page: 5 })).toEqual({ count: 11, data: [] });
  });

  it("searches every word in the nickname, email, first or last name, case-insensitively, with % and _ taken literally", async () => {
    const { viewer, patients } = await scenario();
    const ids = async (search: string) =>
      (await listSharedWithMeEntries(viewer, { page: 1, search })).data.map((item) => item.userId);
    const id = (n: number) => patients[n - 1]!.id;
    expect(await ids("zofia")).toEqual([id(3)]);
    expect(await ids("WIŚNIEWSKA pat4")).toEqual([id(4)]);
    expect(await ids("grandpa 100%")).toEqual([id(5)]);
    expect(await ids("100_")).toEqual([]);
    expect(await ids("p1_x")).toEqual([id(1)]);
    expect((await listSharedWithMeEntries(viewer, { page: 1, search: "tester" })).count).toBe(10);
  });

  it("shared with others lists the patient's readers with the reader's details", async () => {
    const { patients, clinic } = await scenario();
    const owner = patients[0]!;
    const result = await listSharedWithOthers(
      { id: owner.id, identity: 1, isPass: 0, role: "guest" },
      { page: 1, search: clinic.email },
    );
    expect(result.ok && result.data).toEqual({
      count: 1,
      data: [
        expect.objectContaining({
          email: clinic.email,
          identity: 2,
          userId: owner.id,
          birthDate: null,
        }),
      ],
    });
  });

  it("each patient's newest finished upload, in the patient's zone, from the list's one statement; only for accepted shares", async () => {
    const { viewer, patients, clinic } = await scenario();
    const pid = async (user: { id: number }) =>
      (await db().patient.findUniqueOrThrow({ where: { userId: user.id } })).id;
    const task = (
      patientId: number,
      status: "open" | "processing" | "done" | "failed",
      completedAt: string | null,
    ) =>
      db().uploadTask.create({
        data: {
          patientId,
          uploaderId: clinic.id,
          deviceKind: "gocheck",
          deviceSn: "GC-1",
          timeZone: "UTC",
          status,
          completedAt: completedAt ? new Date(completedAt) : null,
        },
      });
    // Patient 11 (Warsaw): done at 2026-01-05 10:00 and 2026-01-06 23:30 UTC (00:30 on the 7th in Warsaw, CET +01:00);
    // a failed upload later and one still open do not count.
    const p11 = await pid(patients[10]!);
    await db().patient.update({ where: { id: p11 }, data: { timeZone: "Europe/Warsaw" } });
    await task(p11, "done", "2026-01-05T10:00:00Z");
    await task(p11, "done", "2026-01-06T23:30:00Z");
    await task(p11, "failed", "2026-01-08T09:00:00Z");
    await task(p11, "open", null);
    // Patient 10 (UTC): only a failed upload, so none finished. Patient 9: nothing.
    await task(await pid(patients[9]!), "failed", "2026-01-04T09:00:00Z");
    // Patient 12's share was refused (not listed); a pending share shows nothing either.
    const waiting = await db().user.create({
      data: { email: `waiting-${Date.now()}@list.test`, identity: 1, patient: { create: {} } },
    });
    await db().readPower.create({
      data: {
        providerId: waiting.id,
        readerId: clinic.id,
        sourceType: 1,
        state: 0,
        createdAt: new Date(Date.UTC(2026, 0, 20)),
      },
    });
    await task(await pid(waiting), "done", "2026-01-03T09:00:00Z");

    const { result: first, queries } = await countingRawQueries(() =>
      listSharedWithMeEntries(viewer, { page: 1 }),
    );
    // One statement for the page, its count and every entry's last upload (no query per entry).
    expect(queries).toBe(1);
    const byUser = new Map(first.data.map((e) => [e.userId, e]));
    expect(byUser.get(waiting.id)).toMatchObject({
      state: 0,
      lastUploadAt: null,
      lastUploadDate: null,
    });
    expect(byUser.get(patients[10]!.id)).toMatchObject({
      lastUploadAt: "2026-01-06T23:30:00.000Z",
      lastUploadDate: "2026-01-07",
    });
    expect(byUser.get(patients[9]!.id)).toMatchObject({ lastUploadAt: null, lastUploadDate: null });
    expect(byUser.get(patients[8]!.id)).toMatchObject({ lastUploadAt: null, lastUploadDate: null });

    // "Shared with others" lists readers: no patient data there.
    const others = await listSharedWithOthers(
      { id: patients[10]!.id, identity: 1, isPass: 0, role: "guest" },
      { page: 1 },
    );
    expect(others.ok && others.data.data.map((e) => [e.lastUploadAt, e.lastUploadDate])).toEqual([
      [null, null],
    ]);
  });
});

/** A person who shared with 11 readers (answered or not), and rows that are not their requests. */
async function sentScenario() {
  const tag = ++run;
  const owner = await db().user.create({
    data: {
      email: `owner-${tag}@sent.test`,
      identity: 1,
      firstName: "Olga",
      lastName: "Owner",
      patient: { create: {} },
    },
  });
  const readers = [];
  for (let i = 1; i <= 11; i++) {
    const reader = await db().user.create({
      data: {
        email: `reader${i}-${tag}@sent.test`,
        identity: i === 2 ? 2 : 1,
        firstName: `Reader${i}`,
        lastName: "Tester",
      },
    });
    readers.push(reader);
    await db().readPower.create({
      data: {
        providerId: owner.id,
        readerId: reader.id,
        sourceType: 0,
        state: i % 3,
        createdAt: new Date(Date.UTC(2026, 1, i)),
      },
    });
  }
  // Not requests the owner made: a clinic's invitation to them, a record made for them, a share with them.
  const doctor = await db().user.create({
    data: { email: `doctor-${tag}@sent.test`, identity: 2, isPass: 1 },
  });
  const creator = await db().user.create({
    data: { email: `creator-${tag}@sent.test`, identity: 2, isPass: 1 },
  });
  const friend = await db().user.create({
    data: { email: `friend-${tag}@sent.test`, identity: 1, patient: { create: {} } },
  });
  await db().readPower.create({
    data: {
      providerId: owner.id,
      readerId: doctor.id,
      sourceType: 1,
      state: 0,
      createdAt: new Date(Date.UTC(2026, 2, 1)),
    },
  });
  await db().readPower.create({
    data: {
      providerId: owner.id,
      readerId: creator.id,
      sourceType: 2,
      state: 1,
      createdAt: new Date(Date.UTC(2026, 2, 2)),
    },
  });
  await db().readPower.create({
    data: {
      providerId: friend.id,
      readerId: owner.id,
      sourceType: 0,
      state: 0,
      createdAt: new Date(Date.UTC(2026, 2, 3)),
    },
  });
  const viewer: Viewer = { id: owner.id, identity: 1, isPass: 0, role: "guest" };
  return { owner, readers, doctor, viewer };
}

describe("the add-share / add-invite drawer's list of the viewer's own requests", () => {
  it("a person: the shares they made in every state, newest first, 10 a page with the count, the reader's details", async () => {
    const { readers, viewer } = await sentScenario();
    const first = await listSentRequests(viewer, { page: 1 });
    expect(first.count).toBe(11);
    expect(first.data.map((e) => e.userId)).toEqual(
      readers
        .slice(1)
        .reverse()
        .map((r) => r.id),
    );
    expect(first.data[0]).toEqual({
      readPowerId: expect.any(Number),
      userId: readers[10]!.id,
      name: "Reader11 Tester",
      email: readers[10]!.email,
      identity: 1,
      state: 2,
    });
    expect(first.data.find((e) => e.userId === readers[1]!.id)).toMatchObject({
      identity: 2,
      state: 2,
    });
    expect(new Set(first.data.map((e) => e.state))).toEqual(new Set([0, 1, 2]));
    expect(await listSentRequests(viewer, { page: 2 })).toEqual({
      count: 11,
      data: [expect.objectContaining({ userId: readers[0]!.id, state: 1 })],
    });
    expect(await listSentRequests(viewer, { page: 3 })).toEqual({ count: 11, data: [] });
    expect((await listSentRequests(viewer, { page: 1, pageSize: 100 })).data).toHaveLength(10);
  });

  it("a clinic: the invitations it sent in every state, with the patient's details; nothing before its organisation is approved", async () => {
    const tag = ++run;
    const clinic = await db().user.create({
      data: { email: `inviter-${tag}@sent.test`, identity: 2, isPass: 1 },
    });
    const patients: { id: number; email: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const patient = await db().user.create({
        data: {
          email: `invited${i}-${tag}@sent.test`,
          identity: 1,
          firstName: `Invited${i}`,
          patient: { create: {} },
        },
      });
      patients.push(patient);
      await db().readPower.create({
        data: {
          providerId: patient.id,
          readerId: clinic.id,
          sourceType: 1,
          state: i,
          createdAt: new Date(Date.UTC(2026, 3, 1 + i)),
        },
      });
    }
    // A share a patient made with the clinic is not the clinic's request.
    const sharer = await db().user.create({
      data: { email: `sharer-${tag}@sent.test`, identity: 1, patient: { create: {} } },
    });
    await db().readPower.create({
      data: {
        providerId: sharer.id,
        readerId: clinic.id,
        sourceType: 0,
        state: 1,
        createdAt: new Date(Date.UTC(2026, 3, 9)),
      },
    });
    const approved: Viewer = { id: clinic.id, identity: 2, isPass: 1, role: "guest" };
    const page = await listSentRequests(approved, { page: 1 });
    expect(page.count).toBe(3);
    expect(page.data.map((e) => [e.userId, e.name, e.email, e.identity, e.state])).toEqual(
      [2, 1, 0].map((i) => [patients[i]!.id, `Invited${i}`, patients[i]!.email, 1, i]),
    );
    expect(await listSentRequests({ ...approved, isPass: 3 }, { page: 1 })).toEqual({
      count: 0,
      data: [],
    });
  });

  it("the /patientShow/add page answers the page of the list that sentPage names (page 1 when it is not a page number)", async () => {
    const { owner, readers } = await sentScenario();
    const cookie = (await createUserSession(new Request("http://localhost/login"), owner.id)).split(
      ";",
    )[0]!;
    const load = (query: string) =>
      (
        addPageLoader as unknown as (args: {
          request: Request;
          params: Record<string, string>;
          context: Record<string, unknown>;
        }) => Promise<{
          sent: { page: number; total: number; items: { userId: number; status: string }[] };
        }>
      )({
        request: new Request(`http://localhost/patientShow/add${query}`, {
          headers: { Cookie: cookie },
        }),
        params: {},
        context: {},
      });
    const second = await load("?sentPage=2");
    expect(second.sent).toEqual({
      page: 2,
      total: 11,
      items: [expect.objectContaining({ userId: readers[0]!.id, status: "accepted" })],
    });
    for (const query of ["", "?sentPage=abc", "?sentPage=0", "?sentPage=-2"]) {
      const first = await load(query);
      expect([first.sent.page, first.sent.items.length, first.sent.items[0]!.status]).toEqual([
        1,
        10,
        "refused",
      ]);
    }
    expect((await load("?sentPage=1")).sent.items.map((e) => e.status).slice(0, 3)).toEqual([
      "refused",
      "accepted",
      "waiting",
    ]);
  });
});
