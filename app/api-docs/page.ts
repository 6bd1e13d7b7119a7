import { AREAS, API_CALLS, codesOf, httpStatusOf, type Area, type CallAuth } from "./calls";
import { openApiDocument } from "./openapi";

/**
 * The readable page of the API (`/api-docs`): the calls grouped by area, each with its method,
 * path, contract marker, parameters, answer fields and codes, read from the OpenAPI document so
 * that the page shows what the document says.
 */

export interface DocField {
  readonly name: string;
  /** Where a parameter goes: the query string or the body. */
  readonly in?: "query" | "body";
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

export interface DocCall {
  readonly id: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly contract: "spec" | "own";
  readonly summary: string;
  readonly description: string | null;
  readonly auth: CallAuth;
  readonly params: readonly DocField[];
  readonly fields: readonly DocField[];
  readonly dataType: string;
  readonly file: string | null;
  readonly codes: readonly { code: number; http: number; when: string }[];
}

export interface DocArea {
  readonly area: Area;
  readonly calls: readonly DocCall[];
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};

/** A short type: `integer 1-2147483647`, `"a" | "b"`, `array of object`, `string | null`. */
export function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map(typeOf))].join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const named = types.map((type) => {
    if (type === "array") {
      if (schema.prefixItems) return `[${schema.prefixItems.map(typeOf).join(", ")}]`;
      return `array of ${typeOf(schema.items)}`;
    }
    if ((type === "integer" || type === "number") && schema.minimum !== undefined)
      return `${type} ${schema.minimum}-${schema.maximum ?? "…"}`;
    if (type === "string" && schema.format) return `string (${schema.format})`;
    return type;
  });
  return named.length ? named.join(" | ") : "any";
}

/** The fields of an object schema; of a union, every variant's, required where all require it. */
export function fieldsOf(schema: JsonSchema | undefined, where?: "query" | "body"): DocField[] {
  if (!schema) return [];
  const variants = (schema.anyOf ?? schema.oneOf)?.filter((v) => v.properties) ?? [];
  const objects = schema.properties ? [schema] : variants;
  const fields = new Map<string, DocField>();
  for (const object of objects) {
    for (const [name, field] of Object.entries(object.properties ?? {})) {
      const required = objects.every((o) => o.required?.includes(name));
      if (!fields.has(name))
        fields.set(name, {
          name,
          ...(where ? { in: where } : {}),
          type: typeOf(field),
          required,
          description: field.description ?? "",
        });
    }
  }
  return [...fields.values()];
}

type Operation = {
  operationId: string;
  parameters?: { name: string; required?: boolean; schema?: JsonSchema; description?: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
};

function callOf(call: (typeof API_CALLS)[number]): DocCall {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  const op = paths[call.path]![call.method]!;
  const query: DocField[] = (op.parameters ?? []).map((p) => ({
    name: p.name,
    in: "query",
    type: typeOf(p.schema),
    required: p.required ?? false,
    description: p.description ?? p.schema?.description ?? "",
  }));
  const body = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
  const ok = call.file ? undefined : op.responses["200"]?.content?.["application/json"]?.schema;
  const data = ok?.properties?.data;
  return {
    id: op.operationId,
    method: call.method === "get" ? "GET" : "POST",
    path: call.path,
    contract: call.contract,
    summary: call.summary,
    description: call.description ?? null,
    auth: call.auth,
    params: [...query, ...fieldsOf(body, "body")],
    fields: fieldsOf(data?.items ?? data),
    dataType: typeOf(data),
    file: call.file?.type ?? null,
    codes: codesOf(call).map(([code, when]) => ({ code, http: httpStatusOf(code), when })),
  };
}

let cached: DocArea[] | null = null;

/** The page's areas, in order, each with its calls. */
export function apiDocsPage(): DocArea[] {
  cached ??= AREAS.map((area) => ({
    area,
    calls: API_CALLS.filter((c) => c.area === area).map(callOf),
  })).filter((a) => a.calls.length > 0);
  return cached;
}
