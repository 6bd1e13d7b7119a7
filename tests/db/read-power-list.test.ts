import { describe, expect, it } from "vitest";
import type { Viewer } from "~/models/access.server";
import { listSharedWithMeEntries, listSharedWithOthers } from "~/models/read-power.server";
import { db } from "~/utils/db.server";

/** A clinic reading 12 patients (one refused share request among them) and a patient sharing with 3 readers. */
let run = 0;
async function scenario() {
  const tag = ++run;
  const clinic = await db().user.create({ data: { email: `list-clinic-${tag}@list.test`, identity: 2, isPass: 1 } });
  const patients = [];
  for (let i = 1; i <= 12; i++) {
    const user = await db().user.create({
      data: { email: `p${i}_x.${tag}@list.test`, identity: 1, firstName: i === 3 ? "Zofia" : `Pat${i}`, lastName: i === 4 ? "Wiśniewska" : "Tester", patient: { create: {} } },
    });
    patients.push(user);
    await db().readPower.create({
      data: { providerId: user.id, readerId: clinic.id, sourceType: i === 12 ? 0 : 1, state: i === 12 ? 2 : 1, nickName: i === 5 ? "Grandpa 100%" : null, createdAt: new Date(Date.UTC(2026, 0, i)) },
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
    expect(first.data.map((item) => item.userId)).toEqual(patients.slice(0, 11).reverse().slice(0, 10).map((p) => p.id));
    expect(first.data[0]).toMatchObject({ pid: expect.any(Number), email: expect.stringMatching(/^p11_x\.\d+@list\.test$/), name: "Pat11 Tester", state: 1, identity: 1, provideId: patients[10]!.id, readId: viewer.id });
    const second = await listSharedWithMeEntries(viewer, { page: 2 });
    expect([second.count, second.data.map((item) => item.userId)]).toEqual([11, [patients[0]!.id]]);
    expect(await listSharedWithMeEntries(viewer, { page: 5 })).toEqual({ count: 11, data: [] });
  });

  it("searches every word in the nickname, email, first or last name, case-insensitively, with % and _ taken literally", async () => {
    const { viewer, patients } = await scenario();
    const ids = async (search: string) => (await listSharedWithMeEntries(viewer, { page: 1, search })).data.map((item) => item.userId);
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
    const result = await listSharedWithOthers({ id: owner.id, identity: 1, isPass: 0, role: "guest" }, { page: 1, search: clinic.email });
    expect(result.ok && result.data).toEqual({ count: 1, data: [expect.objectContaining({ email: clinic.email, identity: 2, userId: owner.id, birthDate: null })] });
  });
});
