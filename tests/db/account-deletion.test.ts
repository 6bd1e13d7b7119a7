import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/models/account-deletion.server";
import { checkApiToken, createApiToken } from "~/models/api-token.server";
import { saveProfilePhoto } from "~/models/profile.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";

const PASSWORD = "delete me please 1";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const at = new Date("2026-03-01T08:00:00Z");
let n = 0;

async function account(identity: 1 | 2, name: string) {
  const tag = `${name}-${++n}`;
  return db().user.create({
    data: {
      email: `${tag}@test.diacare`,
      passwordHash: await hashPassword(PASSWORD),
      identity,
      firstName: name,
      lastName: "Test",
      setting: { create: { lang: "en" } },
      ...(identity === 1 ? { patient: { create: {} } } : {}),
    },
    include: { patient: true },
  });
}

/** One row of every kind a person's account and patient record can own. */
async function fillPatient(userId: number, pid: number, email: string) {
  const serial = `SN-${pid}`;
  const option = await db().option.create({ data: { type: 1, code: `test-condition-${pid}` } });
  await db().patientCondition.create({ data: { patientId: pid, optionId: option.id } });
  await db().device.create({ data: { kind: "equil", serial, patientId: pid } });
  const pump = await db().pumpRecord.create({
    data: {
      patientId: pid,
      pdaSn: serial,
      recordId: 1,
      eventIndex: 1,
      eventPort: 0,
      eventType: 1,
      eventUrgency: 0,
      eventValue: 0,
      battery: 90,
      reservoir: 100,
      basalRateRaw: 160,
      bolusRateRaw: 0,
      deviceTime: "2026-03-01 09:00:00",
      recordTimeZone: "Europe/Warsaw",
      dateTime: at,
    },
  });
  await db().cgmRecord.create({
    data: {
      patientId: pid,
      deviceSn: serial,
      eventIndex: 1,
      eventType: 7,
      mgdl: 120,
      deviceTime: "2026-03-01 09:00:00",
      timeZone: "Europe/Warsaw",
      dateTime: at,
    },
  });
  await db().bgRecord.create({
    data: {
      patientId: pid,
      source: "meter",
      deviceSn: serial,
      recordKey: "1",
      mgdl: 110,
      deviceTime: "2026-03-01 09:00:00",
      timeZone: "Europe/Warsaw",
      dateTime: at,
    },
  });
  await db().carbEntry.create({ data: { patientId: pid, dateTime: at, grams: 40 } });
  await db().insulinEntry.create({
    data: {
      patientId: pid,
      deviceSn: serial,
      recordKey: "1",
      kind: "rapid",
      units: 4,
      dateTime: at,
    },
  });
  await db().alarmEvent.create({
    data: { patientId: pid, dateTime: at, kind: "occlusion", pumpRecordId: pump.id },
  });
  await db().basalSetting.create({
    data: { patientId: pid, pdaSn: serial, settingIndex: 0, name: "Basal 1", valueArray: [0.5] },
  });
  await db().pumpSetting.create({
    data: {
      patientId: pid,
      pdaSn: serial,
      lowBg: [70],
      highBg: [180],
      carbRatio: [10],
      sensitivity: [40],
    },
  });
  await db().uploadTask.create({
    data: {
      patientId: pid,
      uploaderId: userId,
      deviceKind: "equil",
      deviceSn: serial,
      timeZone: "Europe/Warsaw",
      slices: { create: { sliceIndex: 0, recordCount: 1, payload: "[]" } },
    },
  });
  await db().importDraft.create({
    data: {
      token: `draft-${pid}`,
      patientId: pid,
      uploaderId: userId,
      fileName: "readings.csv",
      bytes: new Uint8Array([1, 2, 3]),
      timeZone: "Europe/Warsaw",
    },
  });
  await db().auditLog.create({
    data: { actorId: userId, patientId: pid, action: "read:patientHome" },
  });
  await db().uploadErrorLog.create({ data: { operatorUserId: userId, content: "timeout" } });
  await fillAccount(userId, email);
}

/** The rows of an account itself: sessions, tokens, codes, photo. */
async function fillAccount(userId: number, email: string) {
  await db().session.create({
    data: { id: `session-${userId}-${++n}`, userId, expiresAt: new Date(Date.now() + 3_600_000) },
  });
  await createApiToken(userId);
  await db().emailCode.create({
    data: {
      email,
      userId,
      purpose: "reset_password",
      codeHash: "x",
      expiresAt: new Date(Date.now() + 600_000),
    },
  });
  // A code sent to the address before it was tied to the account.
  await db().emailCode.create({
    data: {
      email,
      purpose: "verify_email",
      codeHash: "y",
      expiresAt: new Date(Date.now() + 600_000),
    },
  });
  expect((await saveProfilePhoto(userId, PNG)).ok).toBe(true);
}

/** How many rows of each table belong to an account (and its patient record). */
async function rowsOf(userId: number, email: string, pid: number | null) {
  const patientId = pid ?? -1;
  const byPatient = { patientId };
  const [readPowerIds, taskIds] = await Promise.all([
    db().readPower.findMany({
      where: { OR: [{ providerId: userId }, { readerId: userId }] },
      select: { id: true },
    }),
    db().uploadTask.findMany({
      where: { OR: [byPatient, { uploaderId: userId }] },
      select: { id: true },
    }),
  ]);
  return {
    user: await db().user.count({ where: { id: userId } }),
    setting: await db().setting.count({ where: { userId } }),
    profilePhoto: await db().profilePhoto.count({ where: { userId } }),
    organisation: await db().organisation.count({ where: { userId } }),
    session: await db().session.count({ where: { userId } }),
    apiToken: await db().apiToken.count({ where: { userId } }),
    emailCode: await db().emailCode.count({ where: { OR: [{ userId }, { email }] } }),
    readPower: readPowerIds.length,
    inviteToken: await db().inviteToken.count({
      where: { readPowerId: { in: readPowerIds.map((r) => r.id) } },
    }),
    patient: await db().patient.count({ where: { id: patientId } }),
    patientCondition: await db().patientCondition.count({ where: byPatient }),
    device: await db().device.count({ where: byPatient }),
    pumpRecord: await db().pumpRecord.count({ where: byPatient }),
    cgmRecord: await db().cgmRecord.count({ where: byPatient }),
    bgRecord: await db().bgRecord.count({ where: byPatient }),
    carbEntry: await db().carbEntry.count({ where: byPatient }),
    insulinEntry: await db().insulinEntry.count({ where: byPatient }),
    alarmEvent: await db().alarmEvent.count({ where: byPatient }),
    basalSetting: await db().basalSetting.count({ where: byPatient }),
    pumpSetting: await db().pumpSetting.count({ where: byPatient }),
    uploadTask: taskIds.length,
    uploadSlice: await db().uploadSlice.count({
      where: { taskId: { in: taskIds.map((t) => t.id) } },
    }),
    importDraft: await db().importDraft.count({
      where: { OR: [byPatient, { uploaderId: userId }] },
    }),
    auditLog: await db().auditLog.count({ where: { OR: [byPatient, { actorId: userId }] } }),
    uploadErrorLog: await db().uploadErrorLog.count({
      where: { OR: [{ operatorUserId: userId }, { patientUserId: userId }] },
    }),
  };
}

const NONE = {
  user: 0,
  setting: 0,
  profilePhoto: 0,
  organisation: 0,
  session: 0,
  apiToken: 0,
  emailCode: 0,
  readPower: 0,
  inviteToken: 0,
  patient: 0,
  patientCondition: 0,
  device: 0,
  pumpRecord: 0,
  cgmRecord: 0,
  bgRecord: 0,
  carbEntry: 0,
  insulinEntry: 0,
  alarmEvent: 0,
  basalSetting: 0,
  pumpSetting: 0,
  uploadTask: 0,
  uploadSlice: 0,
  importDraft: 0,
  auditLog: 0,
  uploadErrorLog: 0,
};

/**
 * Anna (a person) shares with the clinic, which invited her (its invitation link is still
 * open); Ben (another person) shares with Anna and with the clinic. Every account owns a row of
 * each kind.
 */
async function world() {
  const anna = await account(1, "Anna");
  const ben = await account(1, "Ben");
  const clinic = await account(2, "Clinic");
  await db().organisation.create({
    data: {
      userId: clinic.id,
      hospitalName: "North Clinic",
      address: "1 Road",
      area: "North",
      country: "Poland",
      connectName: "Dr Nowak",
      connectPhone: "+48 12 345 67 89",
    },
  });
  await fillPatient(anna.id, anna.patient!.id, anna.email);
  await fillPatient(ben.id, ben.patient!.id, ben.email);
  await fillAccount(clinic.id, clinic.email);
  const invitation = await db().readPower.create({
    data: { providerId: anna.id, readerId: clinic.id, sourceType: 1, state: 1 },
  });
  await db().inviteToken.create({
    data: {
      id: `invite-${invitation.id}`,
      readPowerId: invitation.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  await db().readPower.create({ data: { providerId: ben.id, readerId: anna.id, state: 1 } });
  await db().readPower.create({ data: { providerId: ben.id, readerId: clinic.id, state: 1 } });
  // The clinic read both patients; Anna sent an error report about Ben's upload.
  await db().auditLog.create({
    data: { actorId: clinic.id, patientId: anna.patient!.id, action: "read:patientHome" },
  });
  await db().auditLog.create({
    data: { actorId: clinic.id, patientId: ben.patient!.id, action: "read:patientHome" },
  });
  await db().uploadErrorLog.create({
    data: { operatorUserId: anna.id, patientUserId: ben.id, content: "checksum" },
  });
  return { anna, ben, clinic };
}

describe("deleteAccount", () => {
  it("removes a person's account, patient record and every row of theirs, in every table, and nothing of anyone else", async () => {
    const { anna, ben, clinic } = await world();
    const annaRows = () => rowsOf(anna.id, anna.email, anna.patient!.id);
    expect(await annaRows()).toEqual({
      ...NONE,
      user: 1,
      setting: 1,
      profilePhoto: 1,
      session: 1,
      apiToken: 1,
      emailCode: 2,
      readPower: 2,
      inviteToken: 1,
      patient: 1,
      patientCondition: 1,
      device: 1,
      pumpRecord: 1,
      cgmRecord: 1,
      bgRecord: 1,
      carbEntry: 1,
      insulinEntry: 1,
      alarmEvent: 1,
      basalSetting: 1,
      pumpSetting: 1,
      uploadTask: 1,
      uploadSlice: 1,
      importDraft: 1,
      auditLog: 2,
      uploadErrorLog: 2,
    });
    const benBefore = await rowsOf(ben.id, ben.email, ben.patient!.id);
    const clinicBefore = await rowsOf(clinic.id, clinic.email, null);
    const logsBefore = await db().auditLog.count();

    expect(await deleteAccount({ userId: anna.id, currentPassword: PASSWORD })).toEqual({
      ok: true,
    });

    expect(await annaRows()).toEqual(NONE);
    // Her own read and the clinic's read of her record are gone, not left without names.
    expect(await db().auditLog.count()).toBe(logsBefore - 2);
    // Ben loses his share with Anna and his error report that named her; nothing else.
    expect(await rowsOf(ben.id, ben.email, ben.patient!.id)).toEqual({
      ...benBefore,
      readPower: benBefore.readPower - 1,
      uploadErrorLog: benBefore.uploadErrorLog - 1,
    });
    // The clinic loses its share with Anna, its invitation link and its read of her record.
    expect(await rowsOf(clinic.id, clinic.email, null)).toEqual({
      ...clinicBefore,
      readPower: clinicBefore.readPower - 1,
      inviteToken: clinicBefore.inviteToken - 1,
      auditLog: clinicBefore.auditLog - 1,
    });
    expect(
      await db().readPower.findMany({
        where: { readerId: clinic.id },
        select: { providerId: true },
      }),
    ).toEqual([{ providerId: ben.id }]);
  });

  it("removes a clinic with its organisation and shares; its patients keep their data and their log loses only the name", async () => {
    const { anna, ben, clinic } = await world();
    const created = await db().patient.update({
      where: { id: ben.patient!.id },
      data: { createdById: clinic.id },
    });
    await db().device.updateMany({
      where: { patientId: ben.patient!.id },
      data: { firstUploaderId: clinic.id },
    });
    const annaBefore = await rowsOf(anna.id, anna.email, anna.patient!.id);
    const benBefore = await rowsOf(ben.id, ben.email, ben.patient!.id);
    expect((await rowsOf(clinic.id, clinic.email, null)).organisation).toBe(1);

    expect(await deleteAccount({ userId: clinic.id, currentPassword: PASSWORD })).toEqual({
      ok: true,
    });

    expect(await rowsOf(clinic.id, clinic.email, null)).toEqual(NONE);
    // Anna and Ben each lose their share with the clinic (and Anna its invitation link); the
    // clinic's reads stay in their logs without a name.
    expect(await rowsOf(anna.id, anna.email, anna.patient!.id)).toEqual({
      ...annaBefore,
      readPower: annaBefore.readPower - 1,
      inviteToken: 0,
    });
    expect(await rowsOf(ben.id, ben.email, ben.patient!.id)).toEqual({
      ...benBefore,
      readPower: benBefore.readPower - 1,
    });
    expect(
      await db().auditLog.count({ where: { patientId: anna.patient!.id, actorId: null } }),
    ).toBe(1);
    expect(await db().patient.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      createdById: null,
    });
    expect(
      await db().device.findFirstOrThrow({ where: { patientId: ben.patient!.id } }),
    ).toMatchObject({ firstUploaderId: null });
  });

  it("deletes nothing for a wrong password", async () => {
    const { anna, ben, clinic } = await world();
    const before = await Promise.all([
      rowsOf(anna.id, anna.email, anna.patient!.id),
      rowsOf(ben.id, ben.email, ben.patient!.id),
      rowsOf(clinic.id, clinic.email, null),
    ]);
    expect(await deleteAccount({ userId: anna.id, currentPassword: "not my password" })).toEqual({
      ok: false,
      error: "errors.currentPasswordWrong",
    });
    expect(
      await Promise.all([
        rowsOf(anna.id, anna.email, anna.patient!.id),
        rowsOf(ben.id, ben.email, ben.patient!.id),
        rowsOf(clinic.id, clinic.email, null),
      ]),
    ).toEqual(before);
  });

  it("leaves an API token of the deleted account unusable", async () => {
    const anna = await account(1, "Anna");
    const token = await createApiToken(anna.id);
    expect((await checkApiToken(token)).ok).toBe(true);
    await deleteAccount({ userId: anna.id, currentPassword: PASSWORD });
    expect(await checkApiToken(token)).toEqual({ ok: false, code: 803 });
  });
});
