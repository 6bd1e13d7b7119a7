import { describe, expect, it } from "vitest";
import { findVisiblePatient } from "~/models/access.server";
import { listSharedWithMeEntries } from "~/models/read-power.server";
import { db } from "~/utils/db.server";

async function setup(isPass: number, state = 1) {
  const tag = `${isPass}-${state}-${Math.random().toString(36).slice(2, 7)}`;
  const patient = await db().user.create({ data: { email: `p-${tag}@access.test`, identity: 1, patient: { create: {} } }, include: { patient: true } });
  const clinic = await db().user.create({ data: { email: `c-${tag}@access.test`, identity: 2, isPass } });
  await db().readPower.create({ data: { providerId: patient.id, readerId: clinic.id, sourceType: 1, state } });
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
    const me = await db().user.create({ data: { email: "me@access.test", identity: 1, patient: { create: {} } }, include: { patient: true } });
    expect(await findVisiblePatient({ id: me.id, identity: 1, isPass: 0, role: "guest" }, me.patient!.id, me.id)).not.toBeNull();
  });
});
