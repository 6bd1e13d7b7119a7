import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import {
  buildDemoData,
  CGM_SERIAL,
  cgmUploadRecords,
  DEMO_TIME_ZONE,
} from "../../prisma/demo-data";
import { ingestNow } from "~/services/ingest.server";
import { DEMO_ACCOUNTS, seedDemo } from "../../prisma/seed";
import { db } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";

const today = Temporal.PlainDate.from("2026-11-23");

describe("seedDemo", () => {
  it("creates the four demo accounts with working passwords", async () => {
    await seedDemo(today);
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const user = await db().user.findUniqueOrThrow({ where: { email: account.email } });
      expect(await verifyPassword(user.passwordHash!, account.password)).toBe(true);
      expect(await verifyPassword(user.passwordHash!, `${account.password}x`)).toBe(false);
    }
    const clinic = await db().user.findUniqueOrThrow({
      where: { email: DEMO_ACCOUNTS.clinic.email },
    });
    expect(clinic).toMatchObject({ identity: 2, isPass: 1, role: "guest" });
    const admin = await db().user.findUniqueOrThrow({
      where: { email: DEMO_ACCOUNTS.admin.email },
    });
    expect(admin.role).toBe("admin");
  });

  it("shares the rich patient with the clinic and the sparse one with nobody", async () => {
    const patient = await db().user.findUniqueOrThrow({
      where: { email: DEMO_ACCOUNTS.patient.email },
      include: { provided: { include: { reader: true } } },
    });
    expect(patient.provided.map((s) => [s.reader.email, s.state])).toEqual([
      [DEMO_ACCOUNTS.clinic.email, 1],
    ]);
    const sparse = await db().user.findUniqueOrThrow({
      where: { email: DEMO_ACCOUNTS.patient2.email },
      include: { provided: true, reading: true },
    });
    expect(sparse.provided).toEqual([]);
    expect(sparse.reading).toEqual([]);
  });

  it("stores exactly the generated records", async () => {
    const expected = buildDemoData(today);
    const patient = await db().patient.findFirstOrThrow({
      where: { user: { email: DEMO_ACCOUNTS.patient.email } },
    });
    expect(await db().cgmRecord.count({ where: { patientId: patient.id } })).toBe(
      expected.cgm.length,
    );
    expect(await db().pumpRecord.count({ where: { patientId: patient.id } })).toBe(
      expected.pump.length,
    );
    expect(await db().bgRecord.count({ where: { patientId: patient.id } })).toBe(
      expected.meter.length,
    );
    expect(await db().carbEntry.count({ where: { patientId: patient.id } })).toBe(
      expected.meals.length,
    );
    expect(await db().alarmEvent.count({ where: { patientId: patient.id } })).toBe(4);
    expect(await db().basalSetting.count({ where: { patientId: patient.id } })).toBe(2);
    const basal = await db().basalSetting.findFirstOrThrow({
      where: { patientId: patient.id, settingIndex: 0 },
    });
    expect(basal.valueArray).toHaveLength(48);
    const first = await db().cgmRecord.findFirstOrThrow({
      where: { patientId: patient.id },
      orderBy: { dateTime: "asc" },
    });
    expect(first.dateTime.getTime()).toBe(expected.cgm[0]!.at.epochMilliseconds);
    expect(first.mgdl).toBeCloseTo(expected.cgm[0]!.mgdl, 6);
  });

  it("can run again without duplicating anything", async () => {
    const before = await db().cgmRecord.count();
    await seedDemo(today);
    expect(await db().cgmRecord.count()).toBe(before);
    expect(await db().user.count()).toBe(4);
    expect(await db().readPower.count()).toBe(1);
  });

  it("went through the ingestion module: one seed upload per device, and the same records again insert nothing", async () => {
    const patient = await db().patient.findFirstOrThrow({
      where: { user: { email: DEMO_ACCOUNTS.patient.email } },
      include: { user: true },
    });
    const tasks = await db().uploadTask.findMany({
      where: { patientId: patient.id },
      orderBy: { id: "asc" },
    });
    expect(tasks.map((t) => [t.channel, t.deviceKind, t.status])).toEqual([
      ["seed", "aidex", "done"],
      ["seed", "gocheck", "done"],
      ["seed", "equil", "done"],
    ]);
    const expected = buildDemoData(today);
    const again = await ingestNow(
      { id: patient.userId, identity: 1, isPass: 0, role: "guest" },
      {
        pid: patient.id,
        deviceKind: "aidex",
        deviceSn: CGM_SERIAL,
        timeZone: DEMO_TIME_ZONE,
        records: cgmUploadRecords(expected.cgm),
        maxRecords: 20_000,
      },
    );
    expect(again).toMatchObject({
      ok: true,
      data: { inserted: 0, duplicates: expected.cgm.length },
    });
  });
});
