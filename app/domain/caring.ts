import { Identity, passedAudit } from "./codes";

/**
 * Remote caring: who is offered its pages, and what an account must complete before using them.
 * Pure: the header (browser and server) and the caring pages' loaders ask the same functions.
 */

/**
 * Remote caring is offered to every signed-in account, except that in the Russian interface only
 * clinics get it (a person there neither sees the header's link nor can open the pages).
 */
export function mayUseCaring(identity: number, locale: string): boolean {
  return locale !== "ru" || identity === Identity.Clinic;
}

/** A step to complete before remote caring, in the order they are asked for. */
export type CaringStep = "account" | "health" | "organisation";

export interface CaringAccount {
  readonly identity: number;
  readonly isPass: number;
  readonly firstName: string | null;
  readonly lastName: string | null;
}

/** The required fields of a person's own health record; null when the person has no record. */
export type HealthRecordFields = {
  readonly gender: string | null;
  readonly diabetesTypeId: number | null;
} | null;

const filled = (text: string | null) => text !== null && text.trim() !== "";

/**
 * What is still missing before the account may use remote caring, in order: first the account
 * information (first and last name, set on the account page), then for a person their own health
 * record with its required fields (gender and type of diabetes), for a clinic an approved
 * organisation review (a clinic reads nobody's data before it). Empty: nothing is missing.
 */
export function caringMissing(account: CaringAccount, health: HealthRecordFields): CaringStep[] {
  const missing: CaringStep[] = [];
  if (!filled(account.firstName) || !filled(account.lastName)) missing.push("account");
  if (account.identity === Identity.Clinic) {
    if (!passedAudit(account)) missing.push("organisation");
  } else if (!health || health.gender === null || health.diabetesTypeId === null) {
    missing.push("health");
  }
  return missing;
}

/** Where each step is completed. */
export const CARING_STEP_HREF: Readonly<Record<CaringStep, string>> = {
  account: "/account",
  health: "/patient",
  organisation: "/organisation",
};
