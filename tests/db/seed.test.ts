import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, CGM_SERIAL } from "../../prisma/demo-data";
import { DEMO_ACCOUNTS, seedDemo } from "../../prisma/seed";
import { db } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";

const today = Temporal.PlainDate.from("2026-11-23");

describe("seedDemo", () => {
  it("creates the four demo accounts with working passwords", async () => {
    await seedDemo(db(), today);
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const user = await db().user.findUniqueOrThrow({ where: { email: account.email } });
      expect(await verifyPassword(user.passwordHash!, account.password)).toBe(true);
      expect(await verifyPassword(user.passwordHash!, `${account.password}x`)).toBe(false);
    }
    const clinic = await db().user.findUniqueOrThrow({ where: { email: DEMO_ACCOUNTS.clinic.email } });
    expect(clinic).toMatchObject({ identity: 2, isPass: 1, role: "guest" });
    const admin = await db().user.findUniqueOrThrow({ where: { email: DEMO_ACCOUNTS.admin.email } });
    expect(admin.role).toBe("admin");
  });

  it("shares the rich patient with the clinic and the sparse one with nobody", async () => {
    const patient = await db().user.findUniqueOrThrow({ where: { email: DEMO_ACCOUNTS.patient.email }, include: { provided: { include: { reader: true } } } });
    expect(patient.provided.map((s) => [s.reader.email, s.state])).toEqual([[DEMO_ACCOUNTS.clinic.email, 1]]);
    const sparse = await db().user.findUniqueOrThrow({ where: { email: DEMO_ACCOUNTS.patient2.email }, include: { provided: true, reading: true } });
    expect(sparse.provided).toEqual([]);
    expect(sparse.reading).toEqual([]);
  });

  it("stores exactly the generated records", async () => {
    const expected = buildDemoData(today);
    const patient = await db().patient.findFirstOrThrow({ where: { user: { email: DEMO_ACCOUNTS.patient.email } } });
    expect(await db().cgmRecord.count({ where: { patientId: patient.id } })).toBe(expected.cgm.length);
    expect(await db().pumpRecord.count({ where: { patientId: patient.id } })).toBe(expected.pump.length);
    expect(await db().bgRecord.count({ where: { patientId: patient.id } })).toBe(expected.meter.length);
    expect(await db().carbEntry.count({ where: { patientId: patient.id } })).toBe(expected.meals.length);
    expect(await db().alarmEvent.count({ where: { patientId: patient.id } })).toBe(4);
    expect(await db().basalSetting.count({ where: { patientId: patient.id } })).toBe(2);
    const basal = await db().basalSetting.findFirstOrThrow({ where: { patientId: patient.id, settingIndex: 0 } });
    expect(basal.valueArray).toHaveLength(48);
    const first = await db().cgmRecord.findFirstOrThrow({ where: { patientId: patient.id }, orderBy: { dateTime: "asc" } });
    expect(first.dateTime.getTime()).toBe(expected.cgm[0]!.at.epochMilliseconds);
    expect(first.eventData).toBeCloseTo(expected.cgm[0]!.mgdl, 6);
  });

  it("can run again without duplicating anything", async () => {
    const before = await db().cgmRecord.count();
    await seedDemo(db(), today);
    expect(await db().cgmRecord.count()).toBe(before);
    expect(await db().user.count()).toBe(4);
    expect(await db().readPower.count()).toBe(1);
  });

  it("keeps device records unique per serial and index, so a re-upload inserts nothing", async () => {
    const patient = await db().patient.findFirstOrThrow({ where: { user: { email: DEMO_ACCOUNTS.patient.email } } });
    const existing = await db().cgmRecord.findMany({ where: { deviceSn: CGM_SERIAL }, take: 50, orderBy: { eventIndex: "asc" } });
    const again = existing.map(({ id: _id, ...rest }) => ({ ...rest, patientId: patient.id }));
    const result = await db().cgmRecord.createMany({ data: again, skipDuplicates: true });
    expect(result.count).toBe(0);
    await expect(db().cgmRecord.create({ data: again[0]! })).rejects.toThrow(/Unique constraint/);
  });
});
