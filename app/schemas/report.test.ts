import { describe, expect, it } from "vitest";
import { CGM_QUICK_DAYS, parseReportQuery, reportApiSchema, reportRangeSchema } from "./report";

const q = (search: string) => parseReportQuery(new URLSearchParams(search), CGM_QUICK_DAYS);

describe("report range schema", () => {
  it("accepts both date forms and outputs ISO dates; a missing date is 'select', a bad one 'invalid'", () => {
    expect(reportRangeSchema.parse({ start: "2026/1/5", end: "2026-01-09" })).toEqual({ start: "2026-01-05", end: "2026-01-09" });
    expect(reportRangeSchema.safeParse({ start: "2026-01-05" }).error?.issues[0]?.message).toBe("common.selectDate");
    expect(reportRangeSchema.safeParse({ start: " ", end: "2026-01-05" }).error?.issues[0]?.message).toBe("common.selectDate");
    expect(reportRangeSchema.safeParse({ start: "2026-02-30", end: "2026-03-05" }).error?.issues[0]?.message).toBe("common.invalidDate");
    expect(reportApiSchema.safeParse({ pid: "x", start: "2026-01-05", end: "2026-01-09" }).error?.issues[0]?.message).toBe("common.pid");
  });

  it("reads the page query: default, range, quick range from the start, and the spec's two messages", () => {
    expect(q("")).toEqual({ kind: "default", print: false });
    expect(q("print=1")).toEqual({ kind: "default", print: true });
    expect(q("start=2026/11/01&end=2026/11/07")).toMatchObject({ kind: "range", range: { start: "2026-11-01", end: "2026-11-07" } });
    expect(q("start=2026/11/01&end=&days=14")).toMatchObject({ kind: "range", range: { start: "2026-11-01", end: "2026-11-14" }, typed: { end: "2026/11/14" } });
    expect(q("start=&end=2026/11/07&days=7")).toMatchObject({ kind: "problem", message: "common.choseData", typed: { start: "", end: "2026/11/07" } });
    expect(q("start=2026/11/01&end=")).toMatchObject({ kind: "problem", message: "common.selectDate" });
    // 15 and 30 are not CGM quick ranges: the days value is ignored and the typed range is checked.
    expect(q("start=2026/11/01&end=2026/11/03&days=30")).toMatchObject({ kind: "range", range: { start: "2026-11-01", end: "2026-11-03" } });
  });
});
