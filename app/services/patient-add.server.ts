import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { listOptions } from "~/models/option.server";
import { createPatientRecord, mayAddPatients } from "~/models/patient.server";
import { clientIp } from "~/models/rate-limit.server";
import { bodyUnitsOf } from "~/models/setting.server";
import { newPatientSchema } from "~/schemas/patient";
import { getLocale } from "~/services/locale.server";
import type { SessionUser } from "~/services/session.server";
import { accountZone, timeZoneOptions } from "~/utils/time-zones";

/**
 * Adding a person by filling in their health file (`/patientAdd`, and remote caring's
 * `/caringadd?by=file`): what the form needs, and its submission. The record and its inactive
 * account are made by `createPatientRecord`; the new record's zone starts as the creator's own.
 */

/** What the health-file form shows: the options, the creator's unit, body units and zone. */
export async function newPatientFormData(user: SessionUser, request: Request) {
  const allowed = mayAddPatients(user);
  const zone = accountZone(user);
  return {
    allowed,
    unit: user.setting?.unit ?? GlucoseUnit.Mmol,
    options: allowed ? await listOptions() : [],
    timeZone: zone,
    timeZones: allowed ? timeZoneOptions(zone, Date.now(), await getLocale(request)) : [],
    bodyUnits: await bodyUnitsOf(user.id),
  };
}

export type Added = { name: string; email: string; mailed: boolean };

/**
 * The health-file form's submission: 400 with the messages and the typed values when the form is
 * wrong, the creation's refusal with its status, or the new person with an emptied form.
 */
export async function submitNewPatient(user: SessionUser, request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: newPatientSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), added: null as Added | null }, { status: 400 });
  const created = await createPatientRecord(user, submission.value, {
    locale: await getLocale(request),
    ip: clientIp(request),
  });
  if (!created.ok) {
    const reply = created.field
      ? submission.reply({ fieldErrors: { [created.field]: [created.error] } })
      : submission.reply({ formErrors: [created.error] });
    return data({ result: reply, added: null as Added | null }, { status: created.status });
  }
  const added: Added = { name: created.name, email: created.email, mailed: created.mailed };
  return data({ result: submission.reply({ resetForm: true }), added }, { status: 200 });
}
