import { describe, expect, it } from "vitest";
import { z } from "zod";
import { idNumber, safeText, wholeNumber } from "./fields";

describe("idNumber", () => {
  const id = idNumber("bad");
  it.each([
    [12, 12],
    ["12", 12],
    [" 7 ", 7],
    [2_147_483_647, 2_147_483_647],
  ])("reads %j as %j", (input, expected) => {
    expect(id.parse(input)).toBe(expected);
  });
  it.each([
    true,
    false,
    [],
    [1],
    {},
    { id: 1 },
    "true",
    "NaN",
    "Infinity",
    "1e3",
    "0x10",
    "1.5",
    1.5,
    0,
    -1,
    2_147_483_648,
    "2147483648",
    "99999999999999999999",
    "12abc",
  ])("refuses %j", (input) => {
    const result = id.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("bad");
  });
  it("answers the same message when missing", () => {
    expect(id.safeParse(undefined).error?.issues[0]?.message).toBe("bad");
    expect(id.safeParse(null).error?.issues[0]?.message).toBe("bad");
    expect(id.safeParse("").error?.issues[0]?.message).toBe("bad");
  });
});

describe("wholeNumber", () => {
  it("keeps its bounds", () => {
    const n = wholeNumber("bad", { min: 0, max: 1 });
    expect(n.parse("1")).toBe(1);
    expect(n.safeParse(2).success).toBe(false);
    expect(n.safeParse(true).success).toBe(false);
  });
});

describe("safeText", () => {
  const name = z.object({ name: safeText().max(60) });
  it.each(["Anna", "Zoë Łukasiewicz", "José-María", "محمد", "李小龙", "O'Brien", "🙂"])(
    "accepts %j",
    (text) => {
      expect(name.parse({ name: text }).name).toBe(text);
    },
  );
  it.each([
    "Ann\u0000a",
    "\u0007bell",
    "tab\tinside",
    "line\nbreak",
    "esc\u001b[31m",
    "del\u007f",
    "c1\u0085",
    "\u202Eevil",
    "a\u202Ab",
    "a\u202Bb",
    "a\u202Cb",
    "a\u202Db",
    "a\u2066b",
    "a\u2067b",
    "a\u2068b",
    "a\u2069b",
    "lone\ud800",
    "lone\udc00",
  ])("refuses %j with the hidden-characters message", (text) => {
    const result = name.safeParse({ name: text });
    expect(result.error?.issues[0]?.message).toBe("input.hiddenCharacters");
  });
  it("trims surrounding white space (a pasted tab at the end is no hidden character)", () => {
    expect(name.parse({ name: "  Anna\t" }).name).toBe("Anna");
  });
});
