import { describe, expect, it } from "vitest";
import { parseReportQuery, reportApiSchema, reportRangeSchema } from "./report";

const q = (search: string) => parseReportQuery(new URLSearchParams(search), [7, 14]);

describe("report range schema", () => {
  it("accepts both date forms and outputs ISO dates; a missing date is 'select', a bad one 'invalid'", () => {
    expect(reportRangeSchema.parse({ start: "2026/1/5", end: "2026-01-09" })).toEqual({
      start: "2026-01-05",
      end: "2026-01-09",
    });
    expect(reportRangeSchema.safeParse({ start: "2026-01-05" }).error?.issues[0]?.message).toBe(
      "common.selectDate",
    );
    expect(
      reportRangeSchema.safeParse({ start: " ", end: "2026-01-05" }).error?.issues[0]?.message,
    ).toBe("common.selectDate");
    expect(
      reportRangeSchema.safeParse({ start: "2026-02-30", end: "2026-03-05" }).error?.issues[0]
        ?.message,
    ).toBe("common.invalidDate");
    expect(
      reportApiSchema.safeParse({ pid: "x", start: "2026-01-05", end: "2026-01-09" }).error
        ?.issues[0]?.message,
    ).toBe("common.pid");
  });

  it("reads the page query: default, range, a quick range whatever the typed dates, and 'select the date'", () => {
    expect(q("")).toEqual({ kind: "default", print: false });
    expect(q("print=1")).toEqual({ kind: "default", print: true });
    expect(q("start=2026/11/01&end=2026/11/07")).toMatchObject({
      kind: "range",
      range: { start: "2026-11-01", end: "2026-11-07" },
    });
    // A quick range ends today (app/report/quick-ranges.ts): the typed dates play no part, even when empty or wrong.
    expect(q("start=2026/11/01&end=&days=14")).toEqual({ kind: "quick", days: 14, print: false });
    expect(q("start=&end=&days=7")).toEqual({ kind: "quick", days: 7, print: false });
    expect(q("start=nonsense&end=2099/01/01&days=7&print=1")).toEqual({
      kind: "quick",
      days: 7,
      print: true,
    });
    expect(q("start=2026/11/01&end=")).toMatchObject({
      kind: "problem",
      message: "common.selectDate",
    });
    // 15 and 30 are not among these quick ranges: the days value is ignored and the typed range is checked.
    expect(q("start=2026/11/01&end=2026/11/03&days=30")).toMatchObject({
      kind: "range",
      range: { start: "2026-11-01", end: "2026-11-03" },
    });
    expect(q("start=&end=&days=30")).toMatchObject({
      kind: "problem",
      message: "common.selectDate",
    });
  });

  it("a start alone means start + missingEndDays where the report allows it", () => {
    const search = new URLSearchParams("start=2026/10/10&end=");
    expect(parseReportQuery(search, [7], { missingEndDays: 1 })).toMatchObject({
      kind: "range",
      range: { start: "2026-10-10", end: "2026-10-11" },
      typed: { end: "2026/10/11" },
    });
  });
});
