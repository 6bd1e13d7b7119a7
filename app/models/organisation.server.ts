import { AuditState, Identity } from "~/domain/codes";
import { db } from "~/utils/db.server";
import { isLocale } from "~/i18n";
import { sendTranslatedMail } from "~/utils/mail.server";

export type OrganisationInput = {
  hospitalName: string;
  address: string;
  area: string;
  country: string;
  connectName: string;
  connectPhone: string;
};

export async function getOrganisation(userId: number) {
  return db().organisation.findUnique({ where: { userId } });
}

/** A clinic submits (or revises) its organisation info: it goes under review. */
export async function submitOrganisation(userId: number, input: OrganisationInput) {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { identity: true },
  });
  if (user.identity !== Identity.Clinic) return { ok: false as const, error: "errors.notClinic" };
  await db().$transaction([
    db().organisation.upsert({
      where: { userId },
      create: { userId, ...input },
      update: { ...input, submittedAt: new Date(), reviewedAt: null, reviewedById: null },
    }),
    db().user.update({
      where: { id: userId },
      data: { isPass: AuditState.InReview, auditReason: null },
    }),
  ]);
  return { ok: true as const };
}

/** Clinics waiting for review, oldest first, then the recently decided ones. */
export async function listAudits() {
  return db().organisation.findMany({
    orderBy: [{ submittedAt: "asc" }],
    include: {
      user: {
        select: {
          id: true,
          email: true,
          firstName: true,
          lastName: true,
          isPass: true,
          auditReason: true,
        },
      },
    },
  });
}

/** An admin or editor approves or refuses a clinic (with a reason) and the clinic is emailed. */
export async function decideAudit(input: {
  reviewerId: number;
  userId: number;
  approve: boolean;
  reason?: string;
}) {
  const organisation = await db().organisation.findUnique({
    where: { userId: input.userId },
    include: {
      user: {
        select: {
          email: true,
          firstName: true,
          lastName: true,
          setting: { select: { lang: true } },
        },
      },
    },
  });
  if (!organisation) return { ok: false as const, error: "errors.notFound" };
  await db().$transaction([
    db().user.update({
      where: { id: input.userId },
      data: {
        isPass: input.approve ? AuditState.Approved : AuditState.Refused,
        auditReason: input.approve ? null : (input.reason ?? null),
      },
    }),
    db().organisation.update({
      where: { userId: input.userId },
      data: { reviewedAt: new Date(), reviewedById: input.reviewerId },
    }),
    db().auditLog.create({
      data: {
        actorId: input.reviewerId,
        action: input.approve ? "audit:approve" : "audit:refuse",
        detail: { userId: input.userId },
      },
    }),
  ]);
  const lang = organisation.user.setting?.lang;
  await sendTranslatedMail({
    to: organisation.user.email,
    locale: isLocale(lang) ? lang : "en",
    key: input.approve ? "auditApproved" : "auditRefused",
    values: { name: organisation.hospitalName, reason: input.reason ?? "" },
  });
  return { ok: true as const };
}
