import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "react-i18next";
import { findVisiblePatient } from "~/models/access.server";
import { logPatientAccess } from "~/models/audit-log.server";
import { markUploadsSeen } from "~/models/read-power.server";
import * as s from "~/styles/layout.css";
import { db } from "~/utils/db.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/utils/session.server";

const params = z.object({ id: z.coerce.number().int().positive(), userid: z.coerce.number().int().positive() });

/** A patient's home in the patient area. Unknown or not-shared patients are a 404 (nothing is revealed). */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const patient = await findVisiblePatient(viewer, parsed.data.id, parsed.data.userid);
  if (!patient) throw new Response("Not Found", { status: 404 });
  const [cgm, meter, pump] = await Promise.all([
    db().cgmRecord.count({ where: { patientId: patient.id } }),
    db().bgRecord.count({ where: { patientId: patient.id } }),
    db().pumpRecord.count({ where: { patientId: patient.id } }),
  ]);
  await Promise.all([
    logPatientAccess({ actorId: viewer.id, patientId: patient.id, action: "read:patientHome" }),
    patient.userId === viewer.id ? null : markUploadsSeen(viewer, patient.userId),
  ]);
  return { name: displayName(patient.user), own: patient.userId === viewer.id, counts: { cgm, meter, pump } };
}

export default function PatientHome() {
  const { t } = useTranslation("patients");
  const data = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="patient-title">
      <h1 id="patient-title">{data.own ? t("myHome") : data.name}</h1>
      <p>{t("recordCounts", data.counts)}</p>
      <p>{t("viewsComing")}</p>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
