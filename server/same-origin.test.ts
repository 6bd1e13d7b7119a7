import { describe, expect, it } from "vitest";
import { isSameOriginRequest } from "./same-origin";

const host = "diacare.example";

describe("isSameOriginRequest", () => {
  it("lets reads through whatever their origin", () => {
    expect(isSameOriginRequest("GET", { "sec-fetch-site": "cross-site" }, host)).toBe(true);
  });
  it("accepts posts from our own pages", () => {
    expect(isSameOriginRequest("POST", { "sec-fetch-site": "same-origin" }, host)).toBe(true);
    expect(isSameOriginRequest("POST", { origin: "https://diacare.example" }, host)).toBe(true);
  });
  it("refuses cross-site and same-site-but-other-origin posts", () => {
    expect(isSameOriginRequest("POST", { "sec-fetch-site": "cross-site" }, host)).toBe(false);
    expect(isSameOriginRequest("POST", { "sec-fetch-site": "same-site" }, host)).toBe(false);
    expect(isSameOriginRequest("POST", { origin: "https://evil.example" }, host)).toBe(false);
    expect(isSameOriginRequest("POST", { origin: "null" }, host)).toBe(false);
    expect(isSameOriginRequest("POST", { origin: "not a url" }, host)).toBe(false);
  });
  it("lets non-browser clients (no Origin, no Sec-Fetch-Site) through", () => {
    expect(isSameOriginRequest("POST", {}, host)).toBe(true);
  });
  it("refuses a post whose Referer is foreign or malformed, even without Origin", () => {
    expect(isSameOriginRequest("POST", { referer: "https://evil.example/page" }, host)).toBe(false);
    expect(
      isSameOriginRequest("POST", { referer: "https://diacare.example.evil.example/" }, host),
    ).toBe(false);
    expect(isSameOriginRequest("POST", { referer: "not a url" }, host)).toBe(false);
    expect(isSameOriginRequest("DELETE", { referer: "https://evil.example/" }, host)).toBe(false);
  });
  it("refuses when any one sign is foreign, though another is ours", () => {
    expect(
      isSameOriginRequest(
        "POST",
        { origin: "https://diacare.example", referer: "https://evil.example/" },
        host,
      ),
    ).toBe(false);
    expect(
      isSameOriginRequest(
        "POST",
        { "sec-fetch-site": "same-origin", referer: "https://evil.example/" },
        host,
      ),
    ).toBe(false);
    expect(
      isSameOriginRequest(
        "POST",
        { "sec-fetch-site": "same-origin", origin: "https://evil.example" },
        host,
      ),
    ).toBe(false);
  });
  it("accepts our own Referer", () => {
    expect(
      isSameOriginRequest(
        "POST",
        { referer: "https://diacare.example/login?redirectTo=%2F" },
        host,
      ),
    ).toBe(true);
  });
});
