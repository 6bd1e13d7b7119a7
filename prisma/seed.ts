import type { AlarmKind, Prisma, PrismaClient } from "@prisma/client";
import { alarmOf } from "../app/report/pump-day";
import { Temporal } from "temporal-polyfill";
import { pathToFileURL } from "node:url";
import { hashPassword } from "../app/utils/password.server";
import {
  buildDemoData,
  CGM_SERIAL,
  DEMO_TIME_ZONE,
  METER_SERIAL,
  PUMP_SERIAL,
  SPARSE_METER_SERIAL,
  type MeterPoint,
  type PumpEvent,
} from "./demo-data";

/** The fixed demo sign-ins (README). */
export const DEMO_ACCOUNTS = {
  patient: { email: "patient@demo.diacare.test", password: "demo-patient-1" },
  patient2: { email: "patient2@demo.diacare.test", password: "demo-patient-2" },
  clinic: { email: "clinic@demo.diacare.test", password: "demo-clinic-1" },
  admin: { email: "admin@demo.diacare.test", password: "demo-admin-1" },
} as const;

const localString = (at: Temporal.ZonedDateTime) => at.toPlainDateTime().toString().replace("T", " ").slice(0, 19);
const instant = (at: Temporal.ZonedDateTime) => new Date(at.epochMilliseconds);

/** The demo pump's history rows; record ids and event indexes are `firstId`, `firstId + 1`, ... in order. */
export function pumpRecordRows(patientId: number, events: readonly PumpEvent[], firstId = 1): Prisma.PumpRecordCreateManyInput[] {
  return events.map((e, i) => ({
    patientId,
    pdaSn: PUMP_SERIAL,
    recordId: firstId + i,
    eventIndex: firstId + i,
    eventPort: e.port,
    eventType: e.type,
    eventUrgency: e.urgency,
    eventValue: e.value,
    statusByte0: e.battery,
    statusByte1: e.reservoir,
    statusShort0: e.basalRaw,
    statusShort1: e.bolusRaw,
    deviceTime: localString(e.at),
    recordTimeZone: DEMO_TIME_ZONE,
    pdaRecordTimeZone: e.at.offset,
    dateTime: instant(e.at),
  }));
}

/** A meter's rows, with device times in `timeZone`; record keys are the points' indexes plus `keyOffset`. */
export function meterRows(patientId: number, deviceSn: string, timeZone: string, points: readonly MeterPoint[], keyOffset = 0): Prisma.BgRecordCreateManyInput[] {
  return points.map((p) => ({
    patientId,
    source: "meter" as const,
    deviceSn,
    recordKey: String(keyOffset + p.index),
    mgdl: p.mgdl,
    deviceTime: localString(p.at.withTimeZone(timeZone)),
    timeZone,
    dateTime: instant(p.at),
  }));
}

/** Device alarms worth listing (DESIGN.md 5); rewind and prime are events, not alarms. */
function alarmKind(e: PumpEvent): AlarmKind | null {
  const alarm = alarmOf({ eventPort: e.port, eventType: e.type, eventUrgency: e.urgency });
  return alarm && alarm.kind !== "rewind" && alarm.kind !== "prime" ? alarm.kind : null;
}

/**
 * Replaces the demo accounts and their data with a fresh copy, in one transaction.
 * `today` is the local date in the demo time zone; the data ends at its midnight.
 */
export async function seedDemo(prisma: PrismaClient, today = Temporal.Now.plainDateISO(DEMO_TIME_ZONE)) {
  // The demo accounts' passwords are published: they never enter a production database.
  if (process.env.DEPLOY_ENV === "production") throw new Error("Refusing to seed demo data: DEPLOY_ENV is production.");
  const data = buildDemoData(today);
  const passwords = Object.fromEntries(
    await Promise.all(Object.entries(DEMO_ACCOUNTS).map(async ([key, a]) => [key, await hashPassword(a.password)] as const)),
  ) as Record<keyof typeof DEMO_ACCOUNTS, string>;

  await prisma.$transaction(
    async (tx) => {
      await tx.user.deleteMany({ where: { email: { in: Object.values(DEMO_ACCOUNTS).map((a) => a.email) } } });
      const type1 = await tx.option.findUniqueOrThrow({ where: { code: "type1" } });
      const type2 = await tx.option.findUniqueOrThrow({ where: { code: "type2" } });
      const conditions = await tx.option.findMany({ where: { code: { in: ["hypertension", "retinopathy"] } } });

      const patient = await tx.user.create({
        data: {
          email: DEMO_ACCOUNTS.patient.email,
          passwordHash: passwords.patient,
          identity: 1,
          firstName: "Anna",
          lastName: "Kowalczyk",
          gender: "female",
          pronoun: "she",
          birthDate: new Date("1988-04-12"),
          heightCm: 168,
          weightKg: 61,
          setting: { create: { lang: "en", unit: 0 } },
          patient: {
            create: {
              lowLimit: 70,
              highLimit: 180,
              timeZone: DEMO_TIME_ZONE,
              diabetesTypeId: type1.id,
              conditions: { create: conditions.map((o) => ({ optionId: o.id })) },
            },
          },
        },
        include: { patient: true },
      });
      const patient2 = await tx.user.create({
        data: {
          email: DEMO_ACCOUNTS.patient2.email,
          passwordHash: passwords.patient2,
          identity: 1,
          firstName: "Marco",
          lastName: "Bianchi",
          gender: "male",
          pronoun: "he",
          birthDate: new Date("1961-09-30"),
          heightCm: 179,
          weightKg: 88,
          setting: { create: { lang: "it", unit: 1 } },
          patient: { create: { lowLimit: 80, highLimit: 200, timeZone: "Europe/Rome", diabetesTypeId: type2.id } },
        },
        include: { patient: true },
      });
      const clinic = await tx.user.create({
        data: {
          email: DEMO_ACCOUNTS.clinic.email,
          passwordHash: passwords.clinic,
          identity: 2,
          isPass: 1,
          firstName: "Elena",
          lastName: "Popescu",
          setting: { create: { lang: "en", unit: 1 } },
          organisation: {
            create: {
              hospitalName: "Demo Diabetes Clinic",
              address: "1 Example Street",
              area: "Centre",
              country: "Romania",
              connectName: "Dr Elena Popescu",
              connectPhone: "+40 21 000 0000",
              reviewedAt: new Date(),
            },
          },
        },
      });
      await tx.user.create({
        data: {
          email: DEMO_ACCOUNTS.admin.email,
          passwordHash: passwords.admin,
          identity: 2,
          role: "admin",
          isPass: 1,
          firstName: "Site",
          lastName: "Administrator",
          setting: { create: { lang: "en", unit: 0 } },
        },
      });
      await tx.readPower.create({
        data: { providerId: patient.id, readerId: clinic.id, sourceType: 1, state: 1, isNew: 1, uploadIsNew: 0, message: "Shared for my clinic visits", processedAt: new Date() },
      });

      const pid = patient.patient!.id;
      const pid2 = patient2.patient!.id;
      await tx.device.createMany({
        data: [
          { kind: "aidex", serial: CGM_SERIAL, patientId: pid, firstUploaderId: patient.id, model: "G7", firmware: "1.4.2", timeZone: DEMO_TIME_ZONE, lastUploadAt: new Date() },
          { kind: "equil", serial: PUMP_SERIAL, patientId: pid, firstUploaderId: patient.id, model: "MTM-i", firmware: "5.3.0", timeZone: DEMO_TIME_ZONE, lastUploadAt: new Date() },
          { kind: "gocheck", serial: METER_SERIAL, patientId: pid, firstUploaderId: patient.id, model: "GoChek 2 Connect 1018", timeZone: DEMO_TIME_ZONE, lastUploadAt: new Date() },
          { kind: "gocheck", serial: SPARSE_METER_SERIAL, patientId: pid2, firstUploaderId: patient2.id, model: "GoChek 2 Connect 1018", timeZone: "Europe/Rome", lastUploadAt: new Date() },
        ],
      });

      await tx.cgmRecord.createMany({
        data: data.cgm.map((p) => ({
          patientId: pid,
          deviceSn: CGM_SERIAL,
          eventIndex: p.index,
          historyId: p.index,
          sensorIndex: p.sensor,
          eventType: 7,
          eventData: p.mgdl,
          deviceTime: localString(p.at),
          timeZone: DEMO_TIME_ZONE,
          dateTime: instant(p.at),
        })),
      });
      await tx.bgRecord.createMany({
        data: [...meterRows(pid, METER_SERIAL, DEMO_TIME_ZONE, data.meter), ...meterRows(pid2, SPARSE_METER_SERIAL, "Europe/Rome", data.sparseMeter)],
      });

      await tx.pumpRecord.createMany({ data: pumpRecordRows(pid, data.pump) });
      const stored = await tx.pumpRecord.findMany({ where: { pdaSn: PUMP_SERIAL }, select: { id: true, recordId: true } });
      const idOf = new Map(stored.map((r) => [r.recordId, r.id]));
      const withIds = data.pump.map((e, i) => ({ e, pumpRecordId: idOf.get(i + 1)!, dateTime: instant(e.at) }));
      await tx.carbEntry.createMany({
        data: withIds.filter(({ e }) => e.port === 3 && e.type === 1).map(({ e, pumpRecordId, dateTime }) => ({ patientId: pid, dateTime, grams: e.value, pumpRecordId })),
      });
      await tx.alarmEvent.createMany({
        data: withIds.flatMap(({ e, pumpRecordId, dateTime }) => {
          const kind = alarmKind(e);
          return kind ? [{ patientId: pid, dateTime, kind, pumpRecordId }] : [];
        }),
      });

      for (const preset of data.basal) {
        await tx.basalSetting.create({
          data: { patientId: pid, pdaSn: PUMP_SERIAL, settingIndex: preset.index, name: preset.name, valueArray: preset.values, pdaVersion: "5.3.0", pdaTimeZone: DEMO_TIME_ZONE },
        });
      }
      await tx.pumpSetting.create({
        data: {
          patientId: pid,
          pdaSn: PUMP_SERIAL,
          pdaVersion: "5.3.0",
          lowBg: [70],
          highBg: [180],
          defaultCho: [10, 12, 10],
          sensitiveSilver: [40],
          originBasal: 0.8,
          bolusRate: 60,
          maxBolus: 15,
          doubleBolus: true,
          effectiveTime: 240,
          maxBasalRate: 3,
          bolusIncrement: 0.05,
          quickBolusIncrement: 0.5,
          lowReserveThreshold: 20,
          tempBasalRate: 0,
        },
      });
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** `npm run db:seed`: refuses to run against production. */
async function main() {
  const { parseEnv } = await import("../app/utils/env.server");
  const env = parseEnv();
  if (env.DEPLOY_ENV === "production") {
    console.error("Refusing to seed demo data: DEPLOY_ENV is production.");
    process.exit(2);
  }
  if (!env.DATABASE_URL) {
    console.error("DATABASE_URL is not set (the embedded database is seeded by `npm start` on first start).");
    process.exit(2);
  }
  const { createPrismaClient } = await import("../app/utils/db.server");
  const prisma = createPrismaClient(env.DATABASE_URL, 2);
  try {
    const t0 = performance.now();
    await seedDemo(prisma);
    console.log(`Demo data seeded in ${Math.round(performance.now() - t0)} ms.`);
  } finally {
    await prisma.$disconnect();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
