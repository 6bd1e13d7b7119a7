import { describe, expect, it } from "vitest";
import { cursorParam, cursorText, pageHref, pageRead } from "./keyset";

describe("keyset paging", () => {
  it("writes a cursor as the instant and the id, and reads it back", () => {
    const text = cursorText(new Date(Date.UTC(2026, 10, 26, 10, 5, 0, 7)), 42n);
    expect(text).toBe("2026-11-26T10:05:00.007Z~42");
    expect(cursorParam.parse(text)).toEqual({
      at: new Date("2026-11-26T10:05:00.007Z"),
      id: 42n,
    });
  });

  it("takes a malformed or impossible cursor as none", () => {
    for (const text of [
      "2026-11-26T10:05:00Z~42",
      "2026-02-30T10:05:00.000Z~1",
      "2026-11-26T10:05:00.000Z~",
      "2026-11-26T10:05:00.000Z~-1",
      "2026-11-26T10:05:00.000Z~9223372036854775808",
      "x",
    ])
      expect(cursorParam.parse(text)).toBeUndefined();
    expect(cursorParam.parse(undefined)).toBeUndefined();
  });

  it("reads from a cursor when the link has one, else by the page's offset", () => {
    const cursor = { at: new Date("2026-11-26T10:05:00.000Z"), id: 3n };
    expect(pageRead(4, 20, { after: cursor })).toEqual({ by: "after", cursor });
    expect(pageRead(4, 20, { before: cursor })).toEqual({ by: "before", cursor });
    expect(pageRead(4, 20, {})).toEqual({ by: "offset", skip: 60 });
    expect(pageRead(0, 20, {})).toEqual({ by: "offset", skip: 0 });
  });

  it("links the neighbouring pages with the edge rows' keys, other pages by number", () => {
    const edges = { first: "2026-11-26T10:05:00.000Z~9", last: "2026-11-20T08:00:00.000Z~2" };
    expect(pageHref("logPage", 2, 3, edges)).toBe(
      "?after=2026-11-20T08%3A00%3A00.000Z~2&logPage=3",
    );
    expect(pageHref("logPage", 2, 1, edges)).toBe(
      "?before=2026-11-26T10%3A05%3A00.000Z~9&logPage=1",
    );
    expect(pageHref("page", 2, 5, edges)).toBe("?page=5");
    expect(pageHref("page", 1, 2, { first: null, last: null })).toBe("?page=2");
  });
});
