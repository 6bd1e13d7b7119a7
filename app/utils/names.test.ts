import { describe, expect, it } from "vitest";
import { displayName } from "./names";

describe("displayName", () => {
  it("joins first and last name", () => {
    expect(displayName({ firstName: "Anna", lastName: "Kowalczyk", email: "a@x.test" })).toBe(
      "Anna Kowalczyk",
    );
  });
  it("uses the first name alone when there is no last name", () => {
    expect(displayName({ firstName: "Anna", lastName: " ", email: "a@x.test" })).toBe("Anna");
  });
  it("falls back to the email when there is no first name", () => {
    expect(displayName({ firstName: "  ", lastName: "Kowalczyk", email: "a@x.test" })).toBe(
      "a@x.test",
    );
    expect(displayName({ email: "b@x.test" })).toBe("b@x.test");
  });
});
