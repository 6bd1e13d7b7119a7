import { describe, expect, it } from "vitest";
import { requestIdFor } from "./request-log";

describe("requestIdFor", () => {
  it("keeps a short token of letters, digits, dot, dash and underscore", () => {
    expect(requestIdFor("abc-123_x.y")).toBe("abc-123_x.y");
  });
  it("replaces anything else with a fresh UUID", () => {
    for (const given of [undefined, "", "a b", "a\nb", "<script>", "x".repeat(65), ["a", "b"]]) {
      expect(requestIdFor(given)).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });
});
