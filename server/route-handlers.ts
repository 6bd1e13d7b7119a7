import { createRequestHandler, type ServerBuild } from "@remix-run/node";

type RequestHandler = ReturnType<typeof createRequestHandler>;
type Route = ServerBuild["routes"][string];

/** A route that renders no page (Remix's resource route): its answer is its loader's or action's. */
const isResource = (route: Route) =>
  route.module.default == null && route.module.ErrorBoundary == null;

/** A path of plain segments only: no parameter, splat or optional segment. */
const isFixed = (path: string) => !/[:*?]/.test(path);

/**
 * The request handler for each request. Remix matches every request against the whole route table
 * twice, compiling every route's pattern again each time: about 2 ms a request with this app's
 * 120 routes, more than some calls take. A resource route at a fixed path under the root (every
 * `/api/` call, `/healthz`) is answered by a handler whose build holds only the root and that
 * route, so Remix runs exactly as it would with the whole table but matches against two routes.
 * Everything else (pages, paths with parameters, a differently cased or `?_data` request) goes to
 * the whole build's handler.
 */
export function routeHandlers(build: ServerBuild, mode: string) {
  const whole = createRequestHandler(build, mode);
  const fixed = new Map<string, RequestHandler>();
  const root = Object.values(build.routes).find((route) => route.parentId === undefined);
  const basename = build.basename ?? "/";
  const routesAt = new Map<string, number>();
  for (const route of Object.values(build.routes)) {
    const path = fullPath(build, route);
    routesAt.set(path, (routesAt.get(path) ?? 0) + 1);
  }
  for (const [id, route] of Object.entries(build.routes)) {
    if (!root || basename !== "/" || route.parentId !== root.id || route.index || !route.path)
      continue;
    const path = fullPath(build, route);
    // Another route at the same path (under a pathless layout) is left to Remix's ranking.
    if (!isResource(route) || !isFixed(path) || routesAt.get(path) !== 1) continue;
    const routes = { [root.id]: root, [id]: route };
    fixed.set(path, createRequestHandler({ ...build, routes }, mode));
  }
  return {
    whole,
    for(url: URL): RequestHandler {
      if (url.searchParams.has("_data")) return whole;
      return fixed.get(url.pathname) ?? whole;
    },
    /** The paths answered by a handler of their own (for tests). */
    fixedPaths: () => [...fixed.keys()],
  };
}

/** The route's path from the site's root, `/` and its ancestors' paths joined. */
function fullPath(build: ServerBuild, route: Route): string {
  const parts: string[] = [];
  for (
    let at: Route | undefined = route;
    at;
    at = at.parentId ? build.routes[at.parentId] : undefined
  )
    if (at.path) parts.unshift(at.path.replace(/^\/+|\/+$/g, ""));
  return `/${parts.filter(Boolean).join("/")}`;
}
