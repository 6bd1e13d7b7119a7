/**
 * The numbers the database stores (and the `/api/` sends) for an account's kind, a clinic's
 * organisation audit and a share of patient data. Code compares against these names, never
 * against the bare numbers. Pure: imported by browser and server code alike.
 */

type ValueOf<T> = T[keyof T];

/** What kind of account this is (`User.identity`). */
export const Identity = {
  /** A person with a health record of their own (a patient, or a relative caring for one). */
  Person: 1,
  /** A clinic, doctor or caregiver: reads data that persons share with it. */
  Clinic: 2,
} as const;
export type Identity = ValueOf<typeof Identity>;

/** Where a clinic's organisation audit stands (`User.isPass`). */
export const AuditState = {
  /** The clinic has not sent its organisation info yet. */
  NotSubmitted: 0,
  Approved: 1,
  /** Refused, with a reason; the clinic may revise its info and send it again. */
  Refused: 2,
  /** Sent, waiting for a reviewer. */
  InReview: 3,
} as const;
export type AuditState = ValueOf<typeof AuditState>;

/** How a share came about (`ReadPower.sourceType`); the other side answers it. */
export const ShareSource = {
  /** The patient shared their data with the reader, who accepts or refuses. */
  Share: 0,
  /** A clinic invited the patient, who accepts or refuses (in the app or through the email link). */
  Invitation: 1,
  /** Someone created the patient's account and record; the patient answers once activated. */
  Created: 2,
} as const;
export type ShareSource = ValueOf<typeof ShareSource>;

/** Where a share stands (`ReadPower.state`); only an accepted share lets the reader read. */
export const ShareState = {
  Pending: 0,
  Accepted: 1,
  Refused: 2,
  /**
   * Expired: a share request or invitation still waiting when its time to answer ran out
   * (app/domain/share-expiry.ts). Never stored: the database keeps it pending, and everything
   * that reads a row reports it as this state. Like a refused one it grants nothing and can be
   * sent again.
   */
  Invalid: 3,
} as const;
export type ShareState = ValueOf<typeof ShareState>;

/**
 * Whether an account is cleared to work with other people's health data: a person always is, a
 * clinic once its organisation audit is approved.
 */
export function passedAudit(account: { identity: number; isPass: number }): boolean {
  return account.identity !== Identity.Clinic || account.isPass === AuditState.Approved;
}
