import { Prisma } from "@prisma/client";
import { toCgmGoalSet } from "~/domain/cgm-goal-set";
import { Identity, passedAudit, ShareSource, ShareState } from "~/domain/codes";
import { GlucoseUnit } from "~/domain/glucose-unit";
import type { Locale } from "~/i18n";
import {
  apiDate,
  limitFromMgdl,
  MEAL_FIELDS,
  MEALS,
  secondsToTime,
  type NewPatientInput,
  type PatientRecordInput,
} from "~/schemas/patient";
import type { PatientSettingsUpdate } from "~/schemas/setting";
import { db } from "~/utils/db.server";
import { displayName } from "~/utils/names";
import { visiblePatients, type Viewer } from "./access.server";
import { sendActivationCode } from "./account.server";

/**
 * The patient health record: who may see it (through access.server), the owner's edits, and a new
 * person's record created by someone else (a carer or clinic adding a patient). Failures are
 * answered, not thrown: `{ ok: false, status, error, field? }` where `error` is a `record` i18n key
 * (`errors.*`).
 */

export type RecordFailure = {
  ok: false;
  status: 400 | 403 | 404 | 409;
  error: string;
  field?: string;
};
type Client = Prisma.TransactionClient;

const recordInclude = {
  user: {
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      gender: true,
      pronoun: true,
      birthDate: true,
      heightCm: true,
      weightKg: true,
      active: true,
    },
  },
  diabetesType: { select: { id: true, type: true, code: true } },
  conditions: {
    select: { option: { select: { id: true, type: true, code: true } } },
    orderBy: { option: { sort: "asc" } },
  },
} satisfies Prisma.PatientInclude;

export type PatientRecord = Prisma.PatientGetPayload<{ include: typeof recordInclude }>;

/** A clinic adds patients only once its organisation audit is approved; a person may add relatives. */
export function mayAddPatients(viewer: Viewer): boolean {
  return passedAudit(viewer);
}

/** The glucose unit a user enters and reads values in (0 mmol/L, the default; 1 mg/dL). */
export async function unitOf(userId: number): Promise<number> {
  return (
    (await db().setting.findUnique({ where: { userId }, select: { unit: true } }))?.unit ??
    GlucoseUnit.Mmol
  );
}

/**
 * The record of patient `pid` when the viewer may see it (their own, or shared with them and
 * accepted), else null. Callers ask the access gateway first, which logs the read.
 */
export async function findPatientRecord(
  viewer: Viewer,
  pid: number,
): Promise<(PatientRecord & { own: boolean }) | null> {
  const record = await db().patient.findFirst({
    where: { AND: [{ id: pid }, visiblePatients(viewer)] },
    include: recordInclude,
  });
  if (!record) return null;
  return { ...record, own: record.userId === viewer.id };
}

/**
 * A record as the API answers it (`GET /api/patient/findOne`, docs/api.md): the limits in the
 * viewer's unit (as `POST /api/patient/save` takes them) and in mg/dL, the birth date as
 * "YYYY/MM/DD", meal windows as ["HH:mm:ss", "HH:mm:ss"] pairs. Option names are added by the
 * caller in its language (`options:names.<code>`).
 */
export function recordView(record: PatientRecord & { own: boolean }, unit: number) {
  const option = (o: { id: number; code: string }) => ({ id: o.id, code: o.code });
  const ofType = (type: number) =>
    record.conditions.filter((c) => c.option.type === type).map((c) => option(c.option));
  const meals = Object.fromEntries(
    MEALS.map((meal) => [
      `${meal}Time`,
      [secondsToTime(record[`${meal}Start`], true), secondsToTime(record[`${meal}End`], true)],
    ]),
  ) as Record<"breakfastTime" | "lunchTime" | "supperTime", [string, string]>;
  return {
    pid: record.id,
    userId: record.userId,
    email: record.user.email,
    firstName: record.user.firstName,
    lastName: record.user.lastName,
    name: displayName(record.user),
    active: record.user.active,
    own: record.own,
    gender: record.user.gender,
    pronoun: record.user.pronoun,
    birthDate: apiDate(record.user.birthDate),
    heightCm: record.user.heightCm,
    weightKg: record.user.weightKg,
    diabetesType: record.diabetesType ? option(record.diabetesType) : null,
    cgmGoalSet: toCgmGoalSet(record.cgmGoalSet),
    basicDiseases: ofType(1),
    complications: ofType(2),
    unit,
    lowLimit: limitFromMgdl(record.lowLimit, unit),
    highLimit: limitFromMgdl(record.highLimit, unit),
    lowLimitMgdl: record.lowLimit,
    highLimitMgdl: record.highLimit,
    timeZone: record.timeZone,
    ...meals,
  };
}

export type RecordView = ReturnType<typeof recordView>;

/** Checks that the chosen options exist and have the right types (0 diabetes type, 1 basic disease, 2 complication). */
async function checkOptions(
  client: Client,
  input: Pick<PatientRecordInput, "diabetesType" | "basicDiseases" | "complication">,
): Promise<RecordFailure | null> {
  const ids = [input.diabetesType, ...input.basicDiseases, ...input.complication];
  const found = new Map(
    (
      await client.option.findMany({ where: { id: { in: ids } }, select: { id: true, type: true } })
    ).map((o) => [o.id, o.type]),
  );
  if (found.get(input.diabetesType) !== 0)
    return { ok: false, status: 400, error: "errors.diabetesTypeMsg", field: "diabetesType" };
  if (input.basicDiseases.some((id) => found.get(id) !== 1))
    return { ok: false, status: 400, error: "errors.optionInvalid", field: "basicDiseases" };
  if (input.complication.some((id) => found.get(id) !== 2))
    return { ok: false, status: 400, error: "errors.optionInvalid", field: "complication" };
  return null;
}

/** The Patient columns of a checked record; time zone and meal windows only when given. */
function patientData(input: PatientRecordInput) {
  const meals = Object.fromEntries(
    MEAL_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]!]),
  );
  return {
    lowLimit: input.lowLimitMgdl,
    highLimit: input.highLimitMgdl,
    diabetesTypeId: input.diabetesType,
    ...(input.cgmGoalSet ? { cgmGoalSet: input.cgmGoalSet } : {}),
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    ...meals,
  };
}

const conditionRows = (input: PatientRecordInput) =>
  [...input.basicDiseases, ...input.complication].map((optionId) => ({ optionId }));

class Refused extends Error {
  constructor(readonly failure: RecordFailure) {
    super(failure.error);
  }
}

async function inTransaction<T>(work: (tx: Client) => Promise<T>): Promise<T | RecordFailure> {
  try {
    return await db().$transaction(work);
  } catch (error) {
    if (error instanceof Refused) return error.failure;
    // Two simultaneous adds of the same email: the unique email decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      return { ok: false, status: 409, error: "errors.emailTaken", field: "email" };
    throw error;
  }
}

/**
 * The owner saves their record: the health fields are replaced (birth date, pronoun, basic
 * diseases and complications absent = cleared), names, time zone and meal windows kept when
 * absent. Someone who may only read the record gets 403; a record they may not see, 404.
 */
export async function updatePatientRecord(
  viewer: Viewer,
  pid: number,
  input: PatientRecordInput,
): Promise<{ ok: true; pid: number; userId: number } | RecordFailure> {
  const result = await inTransaction(async (tx) => {
    const patient = await tx.patient.findFirst({
      where: { AND: [{ id: pid }, visiblePatients(viewer)] },
      select: { id: true, userId: true },
    });
    if (!patient) throw new Refused({ ok: false, status: 404, error: "errors.notFound" });
    if (patient.userId !== viewer.id)
      throw new Refused({ ok: false, status: 403, error: "errors.notOwner" });
    const wrong = await checkOptions(tx, input);
    if (wrong) throw new Refused(wrong);
    await tx.user.update({
      where: { id: patient.userId },
      data: {
        gender: input.gender,
        pronoun: input.pronoun ?? null,
        birthDate: input.birthDate ? new Date(input.birthDate) : null,
        ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
        ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
        ...(input.heightCm !== undefined ? { heightCm: input.heightCm } : {}),
        ...(input.weightKg !== undefined ? { weightKg: input.weightKg } : {}),
      },
    });
    await tx.patient.update({ where: { id: patient.id }, data: patientData(input) });
    await tx.patientCondition.deleteMany({ where: { patientId: patient.id } });
    await tx.patientCondition.createMany({
      data: conditionRows(input).map((row) => ({ ...row, patientId: patient.id })),
    });
    await tx.auditLog.create({
      data: { actorId: viewer.id, patientId: patient.id, action: "update:record" },
    });
    return { ok: true as const, pid: patient.id, userId: patient.userId };
  });
  return result;
}

/**
 * A patient's time zone and meal windows (seconds after local midnight), as the device-upload
 * wizard sets them: the patient, or an account the patient shares with (accepted; a clinic once
 * its audit is approved) may change them. For anyone else nothing is written and the answer is
 * false, whether the patient exists or not. The change is written to the patient's access log in
 * the same transaction.
 */
export async function savePatientSettings(
  viewer: Viewer,
  input: Omit<PatientSettingsUpdate, "shape">,
): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.patient.updateMany({
      where: { AND: [{ id: input.pid }, visiblePatients(viewer)] },
      data: {
        timeZone: input.timeZone,
        breakfastStart: input.breakfastTime[0],
        breakfastEnd: input.breakfastTime[1],
        lunchStart: input.lunchTime[0],
        lunchEnd: input.lunchTime[1],
        supperStart: input.supperTime[0],
        supperEnd: input.supperTime[1],
      },
    });
    if (count === 0) return false;
    await tx.auditLog.create({
      data: { actorId: viewer.id, patientId: input.pid, action: "update:patientSettings" },
    });
    return true;
  });
}

/**
 * The owner's glucose target range (mg/dL), and its line in their access log, in one
 * transaction; false (nothing written) for anyone but the record's owner.
 */
export async function saveTargetRange(
  viewer: Viewer,
  pid: number,
  range: { lowLimitMgdl: number; highLimitMgdl: number },
): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.patient.updateMany({
      where: { id: pid, userId: viewer.id },
      data: { lowLimit: range.lowLimitMgdl, highLimit: range.highLimitMgdl },
    });
    if (count === 0) return false;
    await tx.auditLog.create({
      data: { actorId: viewer.id, patientId: pid, action: "update:targetRange" },
    });
    return true;
  });
}

/**
 * A new person's record, filled in by someone else (add patients, friends or relatives by
 * filling in a health file). In one transaction: an inactive person account without a password
 * (identity 1, the creator's language and glucose unit), its Patient (createdById = the creator)
 * with its conditions, and a pending read-power row from the new person to the creator
 * (sourceType 2). The creator reads nothing of the record until its owner, once activated,
 * accepts that share (`answerCreatorShare`); until then the creator's list shows it as waiting.
 * After the commit the activation code goes out as for any inactive account; `mailed` says
 * whether it did (the person can ask for a new code on /active either way).
 */
export async function createPatientRecord(
  creator: Viewer,
  input: NewPatientInput,
  context: { locale: Locale; ip: string },
): Promise<
  | { ok: true; pid: number; userId: number; email: string; name: string; mailed: boolean }
  | RecordFailure
> {
  if (!mayAddPatients(creator))
    return { ok: false, status: 403, error: "errors.clinicNotApproved" };
  const unit = await unitOf(creator.id);
  const created = await inTransaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) {
      throw new Refused({ ok: false, status: 409, error: "errors.emailTaken", field: "email" });
    }
    const wrong = await checkOptions(tx, input);
    if (wrong) throw new Refused(wrong);
    const user = await tx.user.create({
      data: {
        email: input.email,
        passwordHash: null,
        identity: Identity.Person,
        active: false,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        gender: input.gender,
        pronoun: input.pronoun ?? null,
        birthDate: input.birthDate ? new Date(input.birthDate) : null,
        heightCm: input.heightCm ?? null,
        weightKg: input.weightKg ?? null,
        setting: { create: { lang: context.locale, unit } },
        patient: {
          create: {
            ...patientData(input),
            createdById: creator.id,
            conditions: { create: conditionRows(input) },
          },
        },
      },
      select: {
        id: true,
        email: true,
        firstName: true,
        lastName: true,
        patient: { select: { id: true } },
      },
    });
    const pid = user.patient!.id;
    await tx.readPower.create({
      data: {
        providerId: user.id,
        readerId: creator.id,
        sourceType: ShareSource.Created,
        state: ShareState.Pending,
        isNew: 0,
        uploadIsNew: 1,
      },
    });
    await tx.auditLog.create({
      data: { actorId: creator.id, patientId: pid, action: "create:record" },
    });
    return { pid, userId: user.id, email: user.email, name: displayName(user) };
  });
  if ("ok" in created) return created;

  let mailed = false;
  try {
    mailed = (
      await sendActivationCode({
        email: created.email,
        locale: context.locale,
        ip: context.ip,
        wait: true,
      })
    ).ok;
  } catch (error) {
    console.error("[patient] the activation email could not be sent:", error);
  }
  return { ok: true, ...created, mailed };
}

/** The id of the viewer's own patient record, or null (a clinic account has none). */
export async function ownPatientId(userId: number): Promise<number | null> {
  const row = await db().patient.findUnique({ where: { userId }, select: { id: true } });
  return row?.id ?? null;
}

/**
 * The required fields of the account's own health record (gender on the account, type of
 * diabetes on the record), or null when the account has no record (remote caring asks for them).
 */
export async function ownHealthRecordFields(
  userId: number,
): Promise<{ gender: string | null; diabetesTypeId: number | null } | null> {
  const row = await db().patient.findUnique({
    where: { userId },
    select: { diabetesTypeId: true, user: { select: { gender: true } } },
  });
  return row ? { gender: row.user.gender, diabetesTypeId: row.diabetesTypeId } : null;
}
