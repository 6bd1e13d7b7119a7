import { describe, expect, it } from "vitest";
import { ShareSource, ShareState } from "./codes";
import {
  expiredIfSentBy,
  expiryOf,
  isExpired,
  SHARE_REQUEST_DAYS,
  SHARE_REQUEST_LIFETIME_MS,
  shareStateAt,
} from "./share-expiry";

const at = (iso: string) => Date.parse(iso);
const sentAt = new Date("2026-03-02T10:00:00.000Z");
const request = (sourceType: number, state: number) => ({ sourceType, state, sentAt });

describe("share request expiry", () => {
  it("lasts 14 days", () => {
    expect(SHARE_REQUEST_DAYS).toBe(14);
    expect(SHARE_REQUEST_LIFETIME_MS).toBe(1_209_600_000);
    expect(expiryOf(sentAt).toISOString()).toBe("2026-03-16T10:00:00.000Z");
    expect(expiredIfSentBy(at("2026-03-16T10:00:00.000Z")).toISOString()).toBe(
      "2026-03-02T10:00:00.000Z",
    );
  });

  it("a request waiting 13 days 23 hours is still waiting; at 14 days it is invalid", () => {
    for (const source of [ShareSource.Share, ShareSource.Invitation]) {
      const row = request(source, ShareState.Pending);
      // 13 days 23 hours after sending.
      expect(shareStateAt(row, at("2026-03-16T09:00:00.000Z"))).toBe(ShareState.Pending);
      // The last millisecond before the 14 days are up.
      expect(shareStateAt(row, at("2026-03-16T09:59:59.999Z"))).toBe(ShareState.Pending);
      expect(isExpired(row, at("2026-03-16T09:59:59.999Z"))).toBe(false);
      // Exactly 14 days, and later.
      expect(shareStateAt(row, at("2026-03-16T10:00:00.000Z"))).toBe(ShareState.Invalid);
      expect(isExpired(row, at("2026-03-16T10:00:00.000Z"))).toBe(true);
      expect(shareStateAt(row, at("2026-09-01T00:00:00.000Z"))).toBe(ShareState.Invalid);
    }
  });

  it("counts elapsed time: a daylight-saving change in between moves nothing", () => {
    // Sent the day before Europe's clocks go forward (29 March 2026); expires 14 × 24 h later.
    const row = {
      sourceType: ShareSource.Invitation,
      state: ShareState.Pending,
      sentAt: new Date("2026-03-28T09:30:00.000Z"),
    };
    expect(shareStateAt(row, at("2026-04-11T09:29:59.999Z"))).toBe(ShareState.Pending);
    expect(shareStateAt(row, at("2026-04-11T09:30:00.000Z"))).toBe(ShareState.Invalid);
  });

  it("only waiting rows expire: accepted and refused ones keep their state", () => {
    const late = at("2027-01-01T00:00:00.000Z");
    expect(shareStateAt(request(ShareSource.Share, ShareState.Accepted), late)).toBe(
      ShareState.Accepted,
    );
    expect(shareStateAt(request(ShareSource.Invitation, ShareState.Refused), late)).toBe(
      ShareState.Refused,
    );
  });

  it("the share with the creator of one's account waits for its answer however long it takes", () => {
    const row = request(ShareSource.Created, ShareState.Pending);
    expect(shareStateAt(row, at("2027-01-01T00:00:00.000Z"))).toBe(ShareState.Pending);
    expect(isExpired(row, at("2027-01-01T00:00:00.000Z"))).toBe(false);
  });
});
