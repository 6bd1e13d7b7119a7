import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

describe("safeRedirectPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirectPath("/patientShow/patients?page=2")).toBe("/patientShow/patients?page=2");
  });
  it.each(["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, undefined])(
    "falls back for %s",
    (value) => {
      expect(safeRedirectPath(value, "/home")).toBe("/home");
    },
  );
});
