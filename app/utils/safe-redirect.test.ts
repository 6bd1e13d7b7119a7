import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

describe("safeRedirectPath", () => {
  it.each([
    ["/patientShow/patients?page=2", "/patientShow/patients?page=2"],
    ["/", "/"],
    ["/account#password", "/account#password"],
    ["/patientShow/add?find=50%25", "/patientShow/add?find=50%25"],
    // A query may hold a URL; only the path must not start another authority.
    ["/supports?from=https://example.org", "/supports?from=https://example.org"],
    // Non-ASCII is percent-encoded, so the answer is always a valid Location header.
    ["/patientShow/patients?q=Łódź", "/patientShow/patients?q=%C5%81%C3%B3d%C5%BA"],
  ])("keeps the same-origin path %s", (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
  });

  // Each of these, followed by a browser, leaves the site, injects a header, or is not a path.
  it.each([
    "https://evil.example/",
    "http:evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/%09/evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%252F%252Fevil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/\r\nSet-Cookie: a=b",
    "/%0D%0ALocation: https://evil.example",
    "/\nevil",
    "/ok%00",
    "/\u0085next",
    "/a//evil.example",
    " /evil",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "",
    null,
    undefined,
  ])("goes to the fallback for %j", (value) => {
    expect(safeRedirectPath(value, "/home")).toBe("/home");
  });

  it("goes to the fallback for a path longer than 2048 characters", () => {
    expect(safeRedirectPath(`/${"a".repeat(3000)}`, "/home")).toBe("/home");
  });

  it("defaults to the home page", () => {
    expect(safeRedirectPath("//evil.example")).toBe("/");
  });
});
