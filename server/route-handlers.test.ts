import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { routeHandlers } from "./route-handlers";

type Routes = ServerBuild["routes"];
/** A route module; a resource route has no `default` (page) export. */
type Module = Partial<Routes[string]["module"]>;

const Page = () => null;

function route(id: string, parentId: string | undefined, path: string | undefined, module: Module) {
  return { id, parentId, path, module: module as Routes[string]["module"] };
}

/** A build as Remix's compiler makes it, with the few fields a resource request reads. */
function buildOf(routes: Routes): ServerBuild {
  return {
    mode: "production",
    entry: { module: { default: () => new Response("document") } },
    routes,
    assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_singleFetch: true,
      v3_lazyRouteDiscovery: false,
      v3_routeConfig: false,
      unstable_optimizeDeps: false,
    },
    isSpaMode: false,
  } as unknown as ServerBuild;
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

const routes: Routes = {
  root: route("root", undefined, "", { default: Page }),
  "routes/api.a": route("routes/api.a", "root", "api/a", {
    loader: () => json({ route: "a" }),
    action: () => {
      throw json({ refused: true }, 409);
    },
  }),
  "routes/api.b.$id": route("routes/api.b.$id", "root", "api/b/:id", {
    loader: ({ params }) => json({ route: "b", id: params.id }),
  }),
  "routes/page": route("routes/page", "root", "page", { default: Page }),
  "routes/api.only-loader": route("routes/api.only-loader", "root", "api/only-loader", {
    loader: () => json({ read: true }),
  }),
  "routes/api.only-action": route("routes/api.only-action", "root", "api/only-action", {
    action: () => json({ done: true }),
  }),
  // Two routes at one path: Remix's ranking decides, so neither gets a handler of its own.
  "routes/api.twice": route("routes/api.twice", "root", "api/twice", {
    loader: () => json({ route: "twice, root" }),
  }),
  "routes/_layout": route("routes/_layout", "root", undefined, { default: Page }),
  "routes/_layout.api.twice": route("routes/_layout.api.twice", "routes/_layout", "api/twice", {
    loader: () => json({ route: "twice, layout" }),
  }),
};

const handlers = routeHandlers(buildOf(routes), "production");

async function answer(handler: ReturnType<typeof handlers.for>, url: string, init?: RequestInit) {
  const response = await handler(new Request(url, init));
  return {
    status: response.status,
    catch: response.headers.get("X-Remix-Catch"),
    body: init?.method === "HEAD" ? "" : await response.text(),
  };
}

describe("routeHandlers", () => {
  it("gives a handler of its own to each resource route at a fixed path under the root, and to no other", () => {
    expect(handlers.fixedPaths().sort()).toEqual([
      "/api/a",
      "/api/only-action",
      "/api/only-loader",
    ]);
  });

  it("sends pages, parameters, other casing, ?_data and shared paths to the whole build", () => {
    const base = "http://app.test";
    expect(handlers.for(new URL(`${base}/api/a`))).not.toBe(handlers.whole);
    for (const path of [
      "/page",
      "/api/b/7",
      "/API/a",
      "/api/a?_data=root",
      "/api/twice",
      "/nowhere",
    ])
      expect(handlers.for(new URL(base + path)), path).toBe(handlers.whole);
  });

  it("answers exactly as the whole build does: data, a thrown answer, no loader, no action, HEAD", async () => {
    const cases: [string, RequestInit?][] = [
      ["http://app.test/api/a"],
      ["http://app.test/api/a", { method: "POST", body: "{}" }],
      ["http://app.test/api/only-action"],
      ["http://app.test/api/only-action", { method: "POST", body: "{}" }],
      ["http://app.test/api/a", { method: "HEAD" }],
      ["http://app.test/api/only-loader", { method: "POST", body: "{}" }],
    ];
    const seen = [];
    for (const [url, init] of cases) {
      const own = await answer(handlers.for(new URL(url)), url, init);
      expect(own, `${init?.method ?? "GET"} ${url}`).toEqual(
        await answer(handlers.whole, url, init),
      );
      seen.push(own);
    }
    expect(seen[0]).toEqual({ status: 200, catch: null, body: '{"route":"a"}' });
    expect(seen[1]).toEqual({ status: 409, catch: "yes", body: '{"refused":true}' });
    expect(seen[2]?.status).toBe(400);
    expect(seen[3]).toEqual({ status: 200, catch: null, body: '{"done":true}' });
    expect(seen[4]).toEqual({ status: 200, catch: null, body: "" });
    expect(seen[5]?.status).toBe(405);
  });
});
