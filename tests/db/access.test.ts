import { describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import {
  findVisiblePatient,
  visiblePatients,
  visiblePatientSql,
  type Viewer,
} from "~/models/access.server";
import { listSharedWithMeEntries } from "~/models/read-power-list.server";
import { db } from "~/utils/db.server";

async function setup(isPass: number, state = 1) {
  const tag = `${isPass}-${state}-${Math.random().toString(36).slice(2, 7)}`;
  const patient = await db().user.create({
    data: { email: `p-${tag}@access.test`, identity: 1, patient: { create: {} } },
    include: { patient: true },
  });
  const clinic = await db().user.create({
    data: { email: `c-${tag}@access.test`, identity: 2, isPass },
  });
  await db().readPower.create({
    data: { providerId: patient.id, readerId: clinic.id, sourceType: 1, state },
  });
  const viewer = { id: clinic.id, identity: 2, isPass, role: "guest" };
  return { patient, viewer };
}

describe("who may see a patient", () => {
  it("an approved clinic with an approved share sees the patient", async () => {
    const { patient, viewer } = await setup(1);
    expect(await findVisiblePatient(viewer, patient.patient!.id, patient.id)).not.toBeNull();
    expect((await listSharedWithMeEntries(viewer, { page: 1 })).count).toBe(1);
  });

  it("a clinic that is not approved sees nothing, whatever its shares", async () => {
    for (const isPass of [0, 2, 3]) {
      const { patient, viewer } = await setup(isPass);
      expect(await findVisiblePatient(viewer, patient.patient!.id, patient.id)).toBeNull();
      expect(await listSharedWithMeEntries(viewer, { page: 1 })).toEqual({ count: 0, data: [] });
    }
  });

  it("a pending or refused share shows nothing, and ids must belong together", async () => {
    for (const state of [0, 2]) {
      const { patient, viewer } = await setup(1, state);
      expect(await findVisiblePatient(viewer, patient.patient!.id, patient.id)).toBeNull();
    }
    const { patient, viewer } = await setup(1);
    expect(await findVisiblePatient(viewer, patient.patient!.id, patient.id + 1000)).toBeNull();
  });

  it("a person sees their own record", async () => {
    const me = await db().user.create({
      data: { email: "me@access.test", identity: 1, patient: { create: {} } },
      include: { patient: true },
    });
    expect(
      await findVisiblePatient(
        { id: me.id, identity: 1, isPass: 0, role: "guest" },
        me.patient!.id,
        me.id,
      ),
    ).not.toBeNull();
  });

  it("the SQL twin of the rule picks exactly the patients the Prisma rule picks, for every kind of viewer", async () => {
    const owner = await db().user.create({
      data: { email: "twin-owner@access.test", identity: 1, patient: { create: {} } },
      include: { patient: true },
    });
    const other = await db().user.create({
      data: { email: "twin-other@access.test", identity: 1, patient: { create: {} } },
    });
    const viewers: Viewer[] = [
      { id: owner.id, identity: 1, isPass: 0, role: "guest" },
      { id: other.id, identity: 1, isPass: 0, role: "guest" },
    ];
    for (const [isPass, state] of [
      [1, 1],
      [1, 0],
      [1, 2],
      [0, 1],
      [3, 1],
    ] as const) {
      const clinic = await db().user.create({
        data: { email: `twin-${isPass}-${state}@access.test`, identity: 2, isPass },
      });
      await db().readPower.create({
        data: { providerId: owner.id, readerId: clinic.id, sourceType: 1, state },
      });
      viewers.push({ id: clinic.id, identity: 2, isPass, role: "guest" });
    }
    const friend = viewers[1]!;
    await db().readPower.create({
      data: { providerId: owner.id, readerId: friend.id, sourceType: 0, state: 1 },
    });
    for (const viewer of viewers) {
      const byPrisma = (
        await db().patient.findMany({
          where: visiblePatients(viewer),
          select: { id: true },
          orderBy: { id: "asc" },
        })
      ).map((p) => p.id);
      const bySql = (
        await db().$queryRaw<
          { id: number }[]
        >`SELECT p.id FROM "Patient" p WHERE ${visiblePatientSql(viewer, Prisma.sql`p`)} ORDER BY p.id`
      ).map((p) => p.id);
      expect([viewer.id, bySql]).toEqual([viewer.id, byPrisma]);
    }
    // Not vacuous: the owner, the friend and the approved clinic with an accepted share see the record.
    const seeing = [];
    for (const viewer of viewers)
      if (await findVisiblePatient(viewer, owner.patient!.id)) seeing.push(viewer.id);
    expect(seeing).toEqual([owner.id, friend.id, viewers[2]!.id]);
  });
});
