import { ShareSource, ShareState } from "./codes";

/**
 * A share request or invitation waits this many days for its answer, counted from when it was
 * last sent; one still waiting then has expired (state Invalid): it grants nothing, cannot be
 * accepted, and its sender may send it again, which starts the days anew. Days are whole 24-hour
 * periods of elapsed time (a daylight-saving change in between does not move the end). The email
 * link of an invitation lives exactly as long.
 *
 * The expired state is not stored: a row keeps state 0 (pending) and its `sentAt`, and every read
 * derives the state from them, so nothing has to run when the time is up. Pure: no I/O.
 */
export const SHARE_REQUEST_DAYS = 14;

const DAY_MS = 86_400_000;
export const SHARE_REQUEST_LIFETIME_MS = SHARE_REQUEST_DAYS * DAY_MS;

type SentRow = { sourceType: number; state: number; sentAt: Date };

/**
 * The kinds of rows that expire: share requests and invitations. A share with the person who
 * created one's account is answered right after activation, however late that comes.
 */
export const EXPIRING_SOURCES: readonly number[] = [ShareSource.Share, ShareSource.Invitation];

/** Whether rows of this kind expire. */
export function expiresAtAll(sourceType: number): boolean {
  return EXPIRING_SOURCES.includes(sourceType);
}

/** The instant a request sent at `sentAt` expires, if it is still waiting then. */
export function expiryOf(sentAt: Date): Date {
  return new Date(sentAt.getTime() + SHARE_REQUEST_LIFETIME_MS);
}

/** Requests sent at or before this instant have expired at `now` (for database filters). */
export function expiredIfSentBy(now: number): Date {
  return new Date(now - SHARE_REQUEST_LIFETIME_MS);
}

/** Whether the row is a request still waiting at `now` whose time to answer has run out. */
export function isExpired(row: SentRow, now: number): boolean {
  return (
    row.state === ShareState.Pending &&
    expiresAtAll(row.sourceType) &&
    row.sentAt.getTime() <= expiredIfSentBy(now).getTime()
  );
}

/** The state a row is in at `now`: its stored state, or Invalid for an expired request. */
export function shareStateAt(row: SentRow, now: number): ShareState {
  return isExpired(row, now) ? ShareState.Invalid : (row.state as ShareState);
}
