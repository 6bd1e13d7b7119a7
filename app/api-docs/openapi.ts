import {
  extendZodWithOpenApi,
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type RouteConfig,
} from "@asteasolutions/zod-to-openapi";
import { z, type AnyZodObject, type ZodTypeAny } from "zod";
import { API_CALLS, codesOf, errorDataOf, httpStatusOf, type ApiCall } from "./calls";

// The generator reads the schemas' OpenAPI metadata through methods it adds to zod's types.
extendZodWithOpenApi(z);

/** `{ code, msg, data }` with these codes and this `data`. */
export function envelopeOf(codes: readonly number[], data: ZodTypeAny) {
  const code =
    codes.length === 1
      ? z.literal(codes[0]!)
      : z.union(codes.map((c) => z.literal(c)) as unknown as [ZodTypeAny, ZodTypeAny]);
  return z
    .object({ code, msg: z.string().describe("translated (Accept-Language)"), data })
    .strict();
}

/** The schema of an answer with `code` of `call`: the envelope with its documented `data`. */
export function answerSchemaOf(call: ApiCall, code: number) {
  return envelopeOf([code], code === 200 ? call.data : errorDataOf(code));
}

const MEDIA = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
} as const;

const CHILD_FIELDS = ["innerType", "schema", "type", "in", "out", "valueType", "keyType"] as const;

/**
 * The schema as the generator can read it: a `.catch()` fallback (a value that falls back
 * instead of being refused) is documented as the schema it falls back from. The schema's other
 * parts are kept as they are; an unchanged schema is the same object.
 */
export function documentable(schema: ZodTypeAny): ZodTypeAny {
  if (schema instanceof z.ZodCatch) return documentable(schema.removeCatch());
  const def = schema._def as Record<string, unknown>;
  const next: Record<string, unknown> = {};
  let changed = false;
  for (const field of CHILD_FIELDS) {
    const child = def[field];
    if (child instanceof z.ZodType) {
      const mapped = documentable(child);
      if (mapped !== child) {
        next[field] = mapped;
        changed = true;
      }
    }
  }
  for (const field of ["options", "items"] as const) {
    const list = def[field];
    if (Array.isArray(list)) {
      const mapped = list.map((c: ZodTypeAny) => documentable(c));
      if (mapped.some((m, i) => m !== list[i])) {
        next[field] = mapped;
        changed = true;
      }
    }
  }
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, ZodTypeAny>;
    const mapped = Object.fromEntries(
      Object.entries(shape).map(([key, field]) => [key, documentable(field)]),
    );
    if (Object.keys(shape).some((key) => mapped[key] !== shape[key])) {
      next.shape = () => mapped;
      changed = true;
    }
  }
  if (!changed) return schema;
  const Kind = schema.constructor as new (def: unknown) => ZodTypeAny;
  return new Kind({ ...def, ...next });
}

/** The object under refinements and transforms, for the parameters of a query string. */
function objectOf(schema: ZodTypeAny): AnyZodObject {
  let inner: ZodTypeAny = schema;
  for (;;) {
    if (inner instanceof z.ZodEffects) inner = inner.innerType();
    else if (inner instanceof z.ZodUnion) inner = (inner.options as ZodTypeAny[])[0]!;
    else break;
  }
  if (!(inner instanceof z.ZodObject)) throw new Error("a query schema must be an object");
  return documentable(inner) as AnyZodObject;
}

/** A multipart body: its fields, a file field (an uploaded File) as a binary string. */
function withFiles(schema: ZodTypeAny, also?: ZodTypeAny): ZodTypeAny {
  const fields = {
    ...(objectOf(schema).shape as Record<string, ZodTypeAny>),
    ...(also ? (objectOf(also).shape as Record<string, ZodTypeAny>) : {}),
  };
  const shape = Object.fromEntries(
    Object.entries(fields).map(([key, field]) => [
      key,
      key === "file" ? z.string().openapi({ type: "string", format: "binary" }) : field,
    ]),
  );
  return z.object(shape).passthrough();
}

function operationId(call: ApiCall) {
  const words = call.path
    .replace(/^\/api\//, "")
    .split(/[/.-]/)
    .filter(Boolean);
  return [call.method, ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join("");
}

function security(call: ApiCall): RouteConfig["security"] {
  if (call.auth === "none") return [];
  const caller: Record<string, string[]>[] = [{ token: [] }, { session: [] }];
  return call.auth === "token" ? caller : [{}, ...caller];
}

function responsesOf(call: ApiCall): RouteConfig["responses"] {
  const byStatus = new Map<number, [number, string][]>();
  for (const [code, when] of codesOf(call)) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, when]]);
  }
  const responses: RouteConfig["responses"] = {};
  for (const [status, codes] of byStatus) {
    const description = codes.map(([code, when]) => `${code}: ${when}`).join("; ");
    if (status === 200 && call.file) {
      responses[200] = {
        description: call.file.description,
        content: { [call.file.type]: { schema: z.string().openapi({ format: "binary" }) } },
      };
      continue;
    }
    const schema =
      codes.length === 1
        ? answerSchemaOf(call, codes[0]![0])
        : envelopeOf(
            codes.map(([c]) => c),
            z.union([...new Set(codes.map(([c]) => errorDataOf(c)))] as unknown as [
              ZodTypeAny,
              ZodTypeAny,
            ]),
          );
    responses[status] = {
      description,
      content: { "application/json": { schema: documentable(schema) } },
    };
  }
  return responses;
}

function routeOf(call: ApiCall): RouteConfig {
  const body = call.body;
  const types = call.bodyTypes ?? ["json", "form"];
  return {
    method: call.method,
    path: call.path,
    operationId: operationId(call),
    tags: [call.area],
    summary: call.summary,
    ...(call.description ? { description: call.description } : {}),
    security: security(call),
    "x-contract": call.contract,
    request: {
      ...(call.query ? { query: objectOf(call.query) } : {}),
      ...(body
        ? {
            body: {
              required: true,
              content: Object.fromEntries(
                types.map((t) => [
                  MEDIA[t],
                  {
                    schema: t === "multipart" ? withFiles(body, call.bodyAlso) : documentable(body),
                  },
                ]),
              ),
            },
          }
        : {}),
    },
    responses: responsesOf(call),
  };
}

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | null = null;

/** The OpenAPI 3.1 document of every `/api/` call, made once from the list of calls. */
export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "token", {
    type: "apiKey",
    in: "header",
    name: "token",
    description: "the token of POST /api/user/login",
  });
  registry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "__session",
    description: "the signed-in page session (same site only; the token header wins)",
  });
  for (const call of API_CALLS) registry.registerPath(routeOf(call));
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "DiaCare API",
      version: "1",
      description:
        'Every call answers { code, msg, data }. x-contract: "spec" marks the public contract the product was specified with, "own" this implementation\'s additions. The guide: docs/api.md; a readable page: /api-docs.',
    },
    servers: [{ url: "/" }],
    tags: [],
  });
  return cached;
}
