import { describe, expect, it } from "vitest";
import { parseTriageQuery } from "./triage";

const parse = (q: string) => parseTriageQuery(new URLSearchParams(q));
const base = { period: 14, category: null, tag: null };

describe("the triage list's query", () => {
  it("opens on 14 days, the worst category first, page 1, no filter", () => {
    expect(parse("")).toEqual({ ...base, sort: "category", dir: "asc", flags: [], page: 1 });
  });

  it("sorts a column in its first direction unless told", () => {
    expect(parse("sort=tir")).toEqual({ ...base, sort: "tir", dir: "asc", flags: [], page: 1 });
    expect(parse("sort=below54")).toMatchObject({ dir: "desc" });
    expect(parse("sort=change")).toMatchObject({ dir: "asc" });
    expect(parse("sort=name&dir=desc")).toMatchObject({ sort: "name", dir: "desc" });
  });

  it("takes repeated flags in a fixed order, once each, and its own page", () => {
    expect(parse("sort=tir&dir=desc&flag=lowTir&flag=noUpload&flag=lowTir&tpage=3&page=7")).toEqual(
      { ...base, sort: "tir", dir: "desc", flags: ["noUpload", "lowTir"], page: 3 },
    );
  });

  it("takes a period of 7, 14 or 30 days, a category and a tag id", () => {
    expect(parse("period=7")).toMatchObject({ period: 7 });
    expect(parse("period=30&cat=tirDrop&tag=12")).toMatchObject({
      period: 30,
      category: "tirDrop",
      tag: 12,
    });
  });

  it("falls back on anything it does not know, never throws", () => {
    expect(parse("sort=drop%20table&dir=sideways&flag=nope&tpage=-2")).toEqual({
      ...base,
      sort: "category",
      dir: "asc",
      flags: [],
      page: 1,
    });
    expect(parse("tpage=1.5&sort=")).toEqual({
      ...base,
      sort: "category",
      dir: "asc",
      flags: [],
      page: 1,
    });
    expect(parse("tpage=100001")).toMatchObject({ page: 1 });
    expect(parse("period=15&cat=worst&tag=abc")).toMatchObject(base);
    expect(parse("period=&cat=&tag=0")).toMatchObject(base);
    expect(parse("tag=1.5")).toMatchObject({ tag: null });
  });
});
