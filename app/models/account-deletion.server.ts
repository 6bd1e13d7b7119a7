import { db } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";
import type { Failure } from "./account.server";
import { inTransaction } from "./transaction.server";

/** A large patient's records take a while to delete; the transaction may run this long. */
const DELETE_TIMEOUT_MS = 120_000;

/**
 * Deletes an account and everything that is its own, in one transaction, once the current
 * password is confirmed; a wrong password deletes nothing.
 *
 * In this order: every share and invitation the user gives or receives (their invitation links
 * go with them); for a person, the patient record's access and change log, then the record with
 * its devices, uploads, import drafts, conditions and every pump, CGM, blood-glucose,
 * carbohydrate, insulin, alarm and settings record; the upload error reports the user sent or
 * that name them; every emailed code of the user or their address; the patient records the user
 * created and the devices they first uploaded for others stop naming them; and last the account
 * with its settings, photo, organisation, page sessions, API tokens, and the upload tasks and
 * import drafts they ran for other patients (those patients' records stay). What the user read or
 * changed of other patients' data stays in those patients' logs without a name (the actor is
 * set to null).
 */
export async function deleteAccount(input: {
  userId: number;
  currentPassword: string;
}): Promise<{ ok: true } | Failure> {
  const user = await db().user.findUnique({
    where: { id: input.userId },
    select: { id: true, email: true, passwordHash: true, patient: { select: { id: true } } },
  });
  if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword)))
    return { ok: false, error: "errors.currentPasswordWrong" } satisfies Failure;
  const userId = user.id;
  await inTransaction(
    async (tx) => {
      await tx.readPower.deleteMany({
        where: { OR: [{ providerId: userId }, { readerId: userId }] },
      });
      if (user.patient) {
        await tx.auditLog.deleteMany({ where: { patientId: user.patient.id } });
        await tx.patient.delete({ where: { id: user.patient.id } });
      }
      await tx.uploadErrorLog.deleteMany({
        where: { OR: [{ operatorUserId: userId }, { patientUserId: userId }] },
      });
      await tx.emailCode.deleteMany({ where: { OR: [{ userId }, { email: user.email }] } });
      await tx.patient.updateMany({ where: { createdById: userId }, data: { createdById: null } });
      await tx.device.updateMany({
        where: { firstUploaderId: userId },
        data: { firstUploaderId: null },
      });
      await tx.user.delete({ where: { id: userId } });
    },
    { timeout: DELETE_TIMEOUT_MS },
  );
  return { ok: true };
}
