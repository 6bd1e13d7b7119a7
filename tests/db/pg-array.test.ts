import { describe, expect, it } from "vitest";
import { numberArray, textArray } from "~/models/pg-array";
import { db } from "~/utils/db.server";

// The array literals the bulk inserts bind are read by PostgreSQL as the values they were made from.
describe("array literals read back by PostgreSQL", () => {
  it("keeps every text, however it is punctuated, and its nulls", async () => {
    const texts = [
      'say "hi"',
      "back\\slash",
      "a,b",
      "{braces}",
      " spaced ",
      "",
      "NULL",
      "ł ü 中",
      null,
    ];
    const rows = await db().$queryRaw<
      { v: (string | null)[] }[]
    >`SELECT ${textArray(texts)}::text[] AS v`;
    expect(rows[0]!.v).toEqual(texts);
  });

  it("keeps integers, fractions and nulls", async () => {
    const numbers = [0, -7, 2_147_483_647, 1.5, 0.00625, 1782864000000, null];
    const rows = await db().$queryRaw<
      { v: (number | null)[] }[]
    >`SELECT ${numberArray(numbers)}::float8[] AS v`;
    expect(rows[0]!.v).toEqual(numbers);
  });
});
