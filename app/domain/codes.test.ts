import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AuditState, Identity, passedAudit, ShareSource, ShareState } from "./codes";

const schema = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");

/** The `@default(n)` of an Int column of a model in prisma/schema.prisma. */
function columnDefault(model: string, column: string): number {
  const body = new RegExp(`^model ${model} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(schema)?.[1];
  const line = body?.split("\n").find((l) => l.trim().split(/\s+/)[0] === column);
  const value = line && /@default\((\d+)\)/.exec(line)?.[1];
  if (value === undefined) throw new Error(`no default for ${model}.${column}`);
  return Number(value);
}

describe("stored codes", () => {
  it("are the numbers the database and the API use", () => {
    expect(Identity).toEqual({ Person: 1, Clinic: 2 });
    expect(AuditState).toEqual({ NotSubmitted: 0, Approved: 1, Refused: 2, InReview: 3 });
    expect(ShareSource).toEqual({ Share: 0, Invitation: 1, Created: 2 });
    expect(ShareState).toEqual({ Pending: 0, Accepted: 1, Refused: 2, Invalid: 3 });
  });

  it("name the column defaults: a new account is a person whose audit is not submitted, a new share is a pending share request", () => {
    expect(columnDefault("User", "identity")).toBe(Identity.Person);
    expect(columnDefault("User", "isPass")).toBe(AuditState.NotSubmitted);
    expect(columnDefault("ReadPower", "sourceType")).toBe(ShareSource.Share);
    expect(columnDefault("ReadPower", "state")).toBe(ShareState.Pending);
  });
});

describe("passedAudit", () => {
  it("clears a person whatever the audit column says, and a clinic only once approved", () => {
    const cases: [identity: number, isPass: number, cleared: boolean][] = [
      [1, 0, true],
      [1, 2, true],
      [2, 0, false],
      [2, 1, true],
      [2, 2, false],
      [2, 3, false],
    ];
    for (const [identity, isPass, cleared] of cases)
      expect(passedAudit({ identity, isPass }), `identity ${identity}, isPass ${isPass}`).toBe(
        cleared,
      );
  });
});
