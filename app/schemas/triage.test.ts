import { describe, expect, it } from "vitest";
import { parseTriageQuery } from "./triage";

const parse = (q: string) => parseTriageQuery(new URLSearchParams(q));

describe("the triage list's query", () => {
  it("opens on the most flags first, page 1, no filter", () => {
    expect(parse("")).toEqual({ sort: "flags", dir: "desc", flags: [], page: 1 });
  });

  it("sorts a column in its first direction unless told", () => {
    expect(parse("sort=tir")).toEqual({ sort: "tir", dir: "asc", flags: [], page: 1 });
    expect(parse("sort=below54")).toMatchObject({ dir: "desc" });
    expect(parse("sort=name&dir=desc")).toMatchObject({ sort: "name", dir: "desc" });
  });

  it("takes repeated flags in a fixed order, once each, and its own page", () => {
    expect(parse("sort=tir&dir=desc&flag=lowTir&flag=noUpload&flag=lowTir&tpage=3&page=7")).toEqual(
      { sort: "tir", dir: "desc", flags: ["noUpload", "lowTir"], page: 3 },
    );
  });

  it("falls back on anything it does not know, never throws", () => {
    expect(parse("sort=drop%20table&dir=sideways&flag=nope&tpage=-2")).toEqual({
      sort: "flags",
      dir: "desc",
      flags: [],
      page: 1,
    });
    expect(parse("tpage=1.5&sort=")).toEqual({ sort: "flags", dir: "desc", flags: [], page: 1 });
    expect(parse("tpage=100001")).toMatchObject({ page: 1 });
  });
});
