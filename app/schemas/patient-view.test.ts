import { describe, expect, it } from "vitest";
import { findPatientDataQuery, parsePatientViewQuery, rangeQuery } from "./patient-view";

const query = (search: string) => parsePatientViewQuery(new URLSearchParams(search));

describe("patient page query", () => {
  it("defaults to DAILY, the day view, no dates and no quick range", () => {
    expect(query("")).toEqual({
      tab: "daily",
      view: "day",
      date: { value: null, raw: "", invalid: false },
      from: { value: null, raw: "", invalid: false },
      to: { value: null, raw: "", invalid: false },
      days: null,
    });
  });

  it("keeps a quick range's length as sent, trimmed and short, for app/report/quick-ranges.ts to judge", () => {
    expect(query("tab=bg&days=30").days).toBe("30");
    expect(query("tab=bg&days=%2090%20").days).toBe("90");
    expect(query("tab=bg&days=123456789012").days).toBe("12345678");
  });

  it("reads both date forms and keeps a bad one as typed instead of throwing", () => {
    const q = query("tab=cgms&view=overlay&date=2026/3/9&from=2026-02-30&to=%20");
    expect([q.tab, q.view]).toEqual(["cgms", "overlay"]);
    expect(q.date).toEqual({ value: "2026-03-09", raw: "2026/3/9", invalid: false });
    expect(q.from).toEqual({ value: null, raw: "2026-02-30", invalid: true });
    expect(q.to.invalid).toBe(false);
  });

  it("falls back on unknown tabs and views", () => {
    expect([query("tab=admin&view=x").tab, query("tab=admin&view=x").view]).toEqual([
      "daily",
      "day",
    ]);
  });
});

describe("data API queries", () => {
  it("needs a positive whole pid and real dates, with i18n keys as messages", () => {
    expect(findPatientDataQuery.parse({ pid: "7", date: "2026/10/25" })).toEqual({
      pid: 7,
      date: "2026-10-25",
    });
    const bad = findPatientDataQuery.safeParse({ pid: "-1", date: "tomorrow" });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message)).toEqual([
      "errors.pid",
      "errors.date",
    ]);
    const missing = rangeQuery.safeParse({ pid: "1" });
    expect(missing.success ? [] : missing.error.issues.map((i) => i.message)).toEqual([
      "errors.start",
      "errors.end",
    ]);
  });
});
