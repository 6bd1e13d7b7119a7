import { Temporal } from "temporal-polyfill";
import { pathToFileURL } from "node:url";
import { AuditState, Identity, ShareSource, ShareState } from "../app/domain/codes";
import { GlucoseUnit } from "../app/domain/glucose-unit";
import type { Viewer } from "../app/models/access.server";
import { ingestNow, saveBasalPresets, savePumpSettings } from "../app/services/ingest.server";
import { db } from "../app/utils/db.server";
import { hashPassword } from "../app/utils/password.server";
import {
  BASAL_SETTING_STEP,
  buildDemoData,
  CGM_SERIAL,
  cgmUploadRecords,
  DEMO_TIME_ZONE,
  METER_SERIAL,
  meterUploadRecords,
  PUMP_SERIAL,
  pumpUploadRecords,
  SPARSE_METER_SERIAL,
} from "./demo-data";

/** The fixed demo sign-ins (README). */
export const DEMO_ACCOUNTS = {
  patient: { email: "patient@demo.diacare.test", password: "demo-patient-1" },
  patient2: { email: "patient2@demo.diacare.test", password: "demo-patient-2" },
  clinic: { email: "clinic@demo.diacare.test", password: "demo-clinic-1" },
  admin: { email: "admin@demo.diacare.test", password: "demo-admin-1" },
} as const;

/** The demo pump's firmware (5.2.0 or later: carbohydrate in grams). */
export const DEMO_PUMP_FIRMWARE = "5.3.0";
/** Enough for the demo's 30 days of five-minute CGM readings in one ingestion call. */
const SEED_MAX_RECORDS = 20_000;

/** Uploads through the ingestion module, as the patient would; a refusal is a bug in the demo data. */
async function upload(
  viewer: Viewer,
  input: Omit<Parameters<typeof ingestNow>[1], "channel" | "maxRecords">,
) {
  const result = await ingestNow(viewer, {
    ...input,
    channel: "seed",
    maxRecords: SEED_MAX_RECORDS,
  });
  if (!result.ok)
    throw new Error(`demo upload refused: ${result.key} ${JSON.stringify(result.values ?? {})}`);
}

/**
 * Replaces the demo accounts with a fresh copy (one transaction), then uploads their device data
 * through the ingestion module, as the demo patients' devices would: the demo data proves the
 * upload path. `today` is the local date in the demo time zone; the data ends at its midnight.
 */
export async function seedDemo(today = Temporal.Now.plainDateISO(DEMO_TIME_ZONE)) {
  const prisma = db();
  // The demo accounts' passwords are published: they never enter a production database.
  if (process.env.DEPLOY_ENV === "production")
    throw new Error("Refusing to seed demo data: DEPLOY_ENV is production.");
  const data = buildDemoData(today);
  const passwords = Object.fromEntries(
    await Promise.all(
      Object.entries(DEMO_ACCOUNTS).map(
        async ([key, a]) => [key, await hashPassword(a.password)] as const,
      ),
    ),
  ) as Record<keyof typeof DEMO_ACCOUNTS, string>;

  const { patient, patient2 } = await prisma.$transaction(
    async (tx) => {
      await tx.user.deleteMany({
        where: { email: { in: Object.values(DEMO_ACCOUNTS).map((a) => a.email) } },
      });
      const type1 = await tx.option.findUniqueOrThrow({ where: { code: "type1" } });
      const type2 = await tx.option.findUniqueOrThrow({ where: { code: "type2" } });
      const conditions = await tx.option.findMany({
        where: { code: { in: ["hypertension", "retinopathy"] } },
      });

      const patient = await tx.user.create({
        data: {
          email: DEMO_ACCOUNTS.patient.email,
          passwordHash: passwords.patient,
          identity: Identity.Person,
          firstName: "Anna",
          lastName: "Kowalczyk",
          gender: "female",
          pronoun: "she",
          birthDate: new Date("1988-04-12"),
          heightCm: 168,
          weightKg: 61,
          setting: { create: { lang: "en", unit: GlucoseUnit.Mmol } },
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
          identity: Identity.Person,
          firstName: "Marco",
          lastName: "Bianchi",
          gender: "male",
          pronoun: "he",
          birthDate: new Date("1961-09-30"),
          heightCm: 179,
          weightKg: 88,
          setting: { create: { lang: "it", unit: GlucoseUnit.Mgdl } },
          patient: {
            create: {
              lowLimit: 80,
              highLimit: 200,
              timeZone: "Europe/Rome",
              diabetesTypeId: type2.id,
            },
          },
        },
        include: { patient: true },
      });
      const clinic = await tx.user.create({
        data: {
          email: DEMO_ACCOUNTS.clinic.email,
          passwordHash: passwords.clinic,
          identity: Identity.Clinic,
          isPass: AuditState.Approved,
          firstName: "Elena",
          lastName: "Popescu",
          setting: { create: { lang: "en", unit: GlucoseUnit.Mgdl } },
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
          identity: Identity.Clinic,
          role: "admin",
          isPass: AuditState.Approved,
          firstName: "Site",
          lastName: "Administrator",
          setting: { create: { lang: "en", unit: GlucoseUnit.Mmol } },
        },
      });
      await tx.readPower.create({
        data: {
          providerId: patient.id,
          readerId: clinic.id,
          sourceType: ShareSource.Invitation,
          state: ShareState.Accepted,
          isNew: 1,
          uploadIsNew: 0,
          message: "Shared for my clinic visits",
          processedAt: new Date(),
        },
      });

      return { patient, patient2 };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );

  const anna: Viewer = {
    id: patient.id,
    identity: Identity.Person,
    isPass: AuditState.NotSubmitted,
    role: "guest",
  };
  const marco: Viewer = {
    id: patient2.id,
    identity: Identity.Person,
    isPass: AuditState.NotSubmitted,
    role: "guest",
  };
  const pid = patient.patient!.id;
  const pid2 = patient2.patient!.id;
  await upload(anna, {
    pid,
    deviceKind: "aidex",
    deviceSn: CGM_SERIAL,
    pdaVersion: "1.4.2",
    timeZone: DEMO_TIME_ZONE,
    records: cgmUploadRecords(data.cgm),
  });
  await upload(anna, {
    pid,
    deviceKind: "gocheck",
    deviceSn: METER_SERIAL,
    timeZone: DEMO_TIME_ZONE,
    records: meterUploadRecords(data.meter, DEMO_TIME_ZONE),
  });
  await upload(marco, {
    pid: pid2,
    deviceKind: "gocheck",
    deviceSn: SPARSE_METER_SERIAL,
    timeZone: "Europe/Rome",
    records: meterUploadRecords(data.sparseMeter, "Europe/Rome"),
  });
  const settings = await saveBasalPresets(anna, {
    pid,
    pdaSn: PUMP_SERIAL,
    pdaVersion: DEMO_PUMP_FIRMWARE,
    pdaTimeZone: "GMT+01:00",
    list: data.basal.map((p) => ({
      settingIndex: p.index,
      name: p.name,
      valueArray: p.values.map((v) => Math.round(v / BASAL_SETTING_STEP)),
    })),
  });
  const pumpSettings = await savePumpSettings(anna, {
    pid,
    pdaSn: PUMP_SERIAL,
    pdaVersion: DEMO_PUMP_FIRMWARE,
    // Targets and sensitivity in tenths of mg/dL, as the handheld reports them.
    lowBg: [700],
    highBg: [1800],
    carbRatio: [10, 12, 10],
    sensitivity: [400],
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
  });
  if (!settings.ok || !pumpSettings.ok) throw new Error("demo pump settings refused");
  await upload(anna, {
    pid,
    deviceKind: "equil",
    deviceSn: PUMP_SERIAL,
    pdaVersion: DEMO_PUMP_FIRMWARE,
    timeZone: DEMO_TIME_ZONE,
    records: pumpUploadRecords(data.pump),
  });
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
    console.error(
      "DATABASE_URL is not set (the embedded database is seeded by `npm start` on first start).",
    );
    process.exit(2);
  }
  try {
    const t0 = performance.now();
    await seedDemo();
    console.log(`Demo data seeded in ${Math.round(performance.now() - t0)} ms.`);
  } finally {
    await db().$disconnect();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
