import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_CALLS, codesOf, findCall, httpStatusOf } from "./calls";
import { answerSchemaOf, openApiDocument } from "./openapi";

const ROUTES = new URL("../routes/", import.meta.url);

/** The path a route file answers: `api.user.login.tsx` → `/api/user/login`, `[.]` a literal dot. */
function pathOfRouteFile(file: string): string {
  return `/${file
    .replace(/\.tsx?$/, "")
    .split("[.]")
    .map((part) => part.replaceAll(".", "/"))
    .join(".")}`;
}

const apiRouteFiles = readdirSync(ROUTES).filter(
  (f) => f.startsWith("api.") && /\.tsx?$/.test(f) && f !== "api.$.tsx",
);

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

// The document's JSON, read as plain objects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe("the list of /api/ calls", () => {
  it("maps route file names to paths", () => {
    expect(pathOfRouteFile("api.user.login.tsx")).toBe("/api/user/login");
    expect(pathOfRouteFile("api.openapi[.]json.tsx")).toBe("/api/openapi.json");
    expect(pathOfRouteFile("api.cgms.cgm-record.agp.tsx")).toBe("/api/cgms/cgm-record/agp");
  });

  it("has an entry for every /api/ route file (the catch-all 404 aside)", () => {
    expect(apiRouteFiles.length).toBeGreaterThanOrEqual(53);
    const documented = new Set(API_CALLS.map((c) => c.path));
    const missing = apiRouteFiles.filter(
      (f) => !documented.has(pathOfRouteFile(f) as `/api/${string}`),
    );
    expect(missing).toEqual([]);
  });

  it("names only paths that have a route file", () => {
    const files = new Set(apiRouteFiles.map(pathOfRouteFile));
    expect(API_CALLS.map((c) => c.path).filter((p) => !files.has(p))).toEqual([]);
  });

  it("lists each method and path once", () => {
    const keys = API_CALLS.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("finds a call by method and path, in either case of the method", () => {
    expect(findCall("POST", "/api/user/login")?.area).toBe("accounts");
    expect(findCall("GET", "/api/user/login")).toBeUndefined();
  });

  it("marks the spec's calls and ours", () => {
    const own = API_CALLS.filter((c) => c.contract === "own").map((c) => c.path);
    expect(own.sort()).toEqual([
      "/api/cgms/cgm-record/findList",
      "/api/fhir/cgm-summary",
      "/api/openapi.json",
      "/api/patient-data/exportCsv",
      "/api/patient-data/importCsv",
      "/api/user/logout",
    ]);
  });

  it("gives every call needing a caller the token codes, and a POST the body codes", () => {
    const codes = (path: string, method: "get" | "post") =>
      codesOf(findCall(method, path)!).map(([c]) => c);
    expect(codes("/api/user/getUserInfo", "get")).toEqual([
      200, 500, 800, 801, 802, 803, 804, 805, 806, 807, 9999,
    ]);
    expect(codes("/api/country/list", "get")).toEqual([200, 500]);
    expect(codes("/api/read-power/processFromEmail", "post")).toEqual([200, 400, 403, 413, 500]);
  });

  it("answers HTTP 401 for token codes, 403 for 9999, else the code", () => {
    expect([800, 807, 9999, 404, 429].map(httpStatusOf)).toEqual([401, 401, 403, 404, 429]);
  });
});

describe("the OpenAPI document", () => {
  const doc = openApiDocument();
  const paths = doc.paths as Json;

  it("is OpenAPI 3.1 with info and a token security scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("DiaCare API");
    expect(doc.components?.securitySchemes?.token).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "token",
    });
  });

  it("holds every call once, with a unique operationId and its contract marker", () => {
    const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })),
    );
    expect(operations.length).toBe(API_CALLS.length);
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) {
      const call = findCall(o.method, o.path)!;
      expect([o.path, o.op["x-contract"]]).toEqual([o.path, call.contract]);
      expect(o.op.tags).toEqual([call.area]);
    }
  });

  it("gives every operation a 200 and a response for each code's HTTP status", () => {
    for (const call of API_CALLS) {
      const op = paths[call.path][call.method];
      const statuses = [...new Set(codesOf(call).map(([c]) => String(httpStatusOf(c))))].sort();
      expect([call.path, Object.keys(op.responses).sort()]).toEqual([call.path, statuses]);
    }
  });

  it("describes the token header, the query and the body of a call", () => {
    const findOne = doc.paths!["/api/patient/findOne"]!.get!;
    expect(findOne.security).toEqual([{ token: [] }, { session: [] }]);
    expect(findOne.parameters).toEqual([
      expect.objectContaining({ name: "pid", in: "query", required: true }),
    ]);
    const login = doc.paths!["/api/user/login"]!.post!;
    expect(login.security).toEqual([]);
    const body = login.requestBody as { content: Record<string, { schema: unknown }> };
    expect(Object.keys(body.content)).toEqual([
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
    expect(body.content["application/json"]!.schema).toMatchObject({
      type: "object",
      required: ["userName", "password"],
    });
  });

  it("documents the success envelope with the call's data", () => {
    const schema =
      paths["/api/user/getUserInfo"].get.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(["code", "msg", "data"]);
    expect(schema.properties.code).toEqual({ type: "number", enum: [200] });
    expect(schema.properties.data.properties.downLoadPercnet).toEqual({
      type: "number",
      enum: [100],
      description: "spelled so; always 100",
    });
    const tokens =
      paths["/api/user/getUserInfo"].get.responses["401"].content["application/json"].schema;
    expect(tokens.properties.code.anyOf.map((c: { enum: number[] }) => c.enum[0])).toEqual([
      800, 801, 802, 803, 804, 805, 806, 807,
    ]);
  });

  it("documents the CSV import's multipart fields, the file as binary, and its options", () => {
    const body = paths["/api/patient-data/importCsv"].post.requestBody.content;
    expect(Object.keys(body)).toEqual(["multipart/form-data"]);
    const fields = body["multipart/form-data"].schema.properties;
    expect(fields.file).toEqual({ type: "string", format: "binary" });
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining(["pid", "dryRun", "format", "dateOrder"]),
    );
  });

  it("documents the settings update's bodies without the internal shape tag", () => {
    const body = paths["/api/setting/update"].post.requestBody.content["application/json"].schema;
    expect(body.anyOf).toHaveLength(5);
    expect(JSON.stringify(body)).not.toContain('"shape"');
  });

  it("documents a file answer as the file's type", () => {
    const csv = paths["/api/patient-data/exportCsv"].get.responses["200"];
    expect(Object.keys(csv.content)).toEqual(["text/csv"]);
  });

  it("has no $ref that does not resolve", () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)];
    for (const [, kind, name] of refs)
      expect(
        (doc.components as Record<string, Record<string, unknown>>)[kind!]?.[name!],
      ).toBeDefined();
  });
});

describe("checking an answer against the document", () => {
  const call = findCall("get", "/api/setting/findOne")!;
  const settings = {
    lang: "en",
    unit: 0,
    weightUnit: 0,
    heightUnit: 0,
    paperSize: "a4",
    orientation: "portrait",
    nameStyle: 0,
    splitLine: true,
    timeZone: null,
    accountTimeZone: "UTC",
  };

  it("accepts the documented answer", () => {
    expect(
      answerSchemaOf(call, 200).safeParse({ code: 200, msg: "Success", data: settings }).success,
    ).toBe(true);
  });

  it("refuses a field the document does not name, and a missing one", () => {
    const extra = { code: 200, msg: "Success", data: { ...settings, logo: null } };
    expect(answerSchemaOf(call, 200).safeParse(extra).success).toBe(false);
    const { accountTimeZone: _gone, ...missing } = settings;
    expect(answerSchemaOf(call, 200).safeParse({ code: 200, msg: "", data: missing }).success).toBe(
      false,
    );
  });

  it("checks a refusal's data by its code", () => {
    expect(answerSchemaOf(call, 803).safeParse({ code: 803, msg: "x", data: null }).success).toBe(
      true,
    );
    expect(
      answerSchemaOf(call, 500).safeParse({ code: 500, msg: "x", data: { requestId: "r" } })
        .success,
    ).toBe(true);
    expect(
      answerSchemaOf(call, 500).safeParse({ code: 500, msg: "x", data: { id: 1 } }).success,
    ).toBe(false);
  });
});
