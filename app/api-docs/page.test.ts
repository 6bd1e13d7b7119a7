import { describe, expect, it } from "vitest";
import { API_CALLS } from "./calls";
import { apiDocsPage, fieldsOf, typeOf } from "./page";

describe("the API page's types", () => {
  it("writes ranges, enums, tuples, lists and nulls shortly", () => {
    expect(typeOf({ type: "integer", minimum: 1, maximum: 10 })).toBe("integer 1-10");
    expect(typeOf({ type: "string", enum: ["me", "others"] })).toBe('"me" | "others"');
    expect(typeOf({ type: "array", prefixItems: [{ type: "string" }, { type: "string" }] })).toBe(
      "[string, string]",
    );
    expect(typeOf({ type: "array", items: { type: "object" } })).toBe("array of object");
    expect(typeOf({ type: ["string", "null"] })).toBe("string | null");
    expect(typeOf({ anyOf: [{ type: "boolean" }, { type: "object" }] })).toBe("boolean | object");
    expect(typeOf(undefined)).toBe("any");
  });

  it("lists a union's fields once, required only where every variant requires them", () => {
    const fields = fieldsOf(
      {
        anyOf: [
          {
            type: "object",
            properties: { a: { type: "string" }, b: { type: "number" } },
            required: ["a", "b"],
          },
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        ],
      },
      "body",
    );
    expect(fields).toEqual([
      { name: "a", in: "body", type: "string", required: true, description: "" },
      { name: "b", in: "body", type: "number", required: false, description: "" },
    ]);
  });
});

describe("the API page", () => {
  const areas = apiDocsPage();

  it("shows every call once, grouped by area", () => {
    expect(areas.flatMap((a) => a.calls).length).toBe(API_CALLS.length);
    expect(areas[0]!.area).toBe("accounts");
  });

  it("shows a call's parameters, answer fields and codes from the document", () => {
    const findOne = areas.flatMap((a) => a.calls).find((c) => c.path === "/api/patient/findOne")!;
    expect(findOne).toMatchObject({ method: "GET", contract: "spec", auth: "token" });
    expect(findOne.params).toEqual([
      { name: "pid", in: "query", type: "integer 1-2147483647", required: true, description: "" },
    ]);
    expect(findOne.fields.map((f) => f.name)).toContain("lowLimitMgdl");
    expect(findOne.codes.map((c) => c.code)).toEqual([
      200, 400, 404, 500, 800, 801, 802, 803, 804, 805, 806, 807, 9999,
    ]);
    expect(findOne.codes.find((c) => c.code === 9999)!.http).toBe(403);
  });

  it("shows a file answer's type", () => {
    const csv = areas
      .flatMap((a) => a.calls)
      .find((c) => c.path === "/api/patient-data/exportCsv")!;
    expect(csv.file).toBe("text/csv");
  });
});
