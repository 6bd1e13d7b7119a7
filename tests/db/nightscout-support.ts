import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { action, loader } from "~/routes/ns.$linkId.api.v1.$";
import { db } from "~/utils/db.server";

/** Calling the Nightscout route module in database tests, and serving it over HTTP for real clients. */

export const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** The route's params for a path `/ns/<id>/api/v1/<call>`. */
function paramsOf(pathname: string): Record<string, string> {
  const m = /^\/ns\/([^/]*)\/api\/v1\/(.*)$/.exec(pathname);
  return m ? { linkId: m[1]!, "*": m[2]! } : { linkId: "", "*": "" };
}

/** Runs the route module for a request, as Remix does (GET to the loader, anything else to the action). */
export async function nsFetch(request: Request): Promise<Response> {
  const params = paramsOf(new URL(request.url).pathname);
  const args = { request, params, context: {} };
  return request.method === "GET" || request.method === "HEAD" ? loader(args) : action(args);
}

export type NsAnswer = { status: number; body: unknown; headers: Headers };

export async function nsCall(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<NsAnswer> {
  const response = await nsFetch(
    new Request(`http://localhost${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        ...init.headers,
      },
      ...(init.body === undefined
        ? {}
        : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as unknown) : null,
    headers: response.headers,
  };
}

/** An HTTP server in front of the route module, for clients that speak HTTP (the real uploaders). */
export async function serveNightscout(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string") headers.set(k, v);
      const body = chunks.length ? Buffer.concat(chunks) : null;
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        ...(body && req.method !== "GET" ? { body } : {}),
      });
      nsFetch(request)
        .then(async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

let n = 0;
/** A person with a patient record (zone Europe/Warsaw), unit mg/dL. */
export async function patientAccount(tag: string) {
  const user = await db().user.create({
    data: {
      email: `${tag}-${++n}-${Date.now()}@ns.test`,
      identity: 1,
      patient: { create: { timeZone: "Europe/Warsaw", lowLimit: 72, highLimit: 162 } },
      setting: { create: { unit: 1 } },
    },
    include: { patient: true },
  });
  return { user, pid: user.patient!.id };
}

export const viewerOf = (u: { id: number; identity: number; isPass: number; role: string }) => ({
  id: u.id,
  identity: u.identity,
  isPass: u.isPass,
  role: u.role,
});

export const accessRows = (patientId: number) =>
  db().auditLog.findMany({ where: { patientId }, orderBy: { id: "asc" } });
