/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Remix's classic compiler (this file, not Vite). vanilla-extract `*.css.ts` files are compiled
  // into the CSS bundle linked from root.tsx.
  ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.css.ts"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [
    /^remix-i18next/,
    /^@observablehq\/plot/,
    /^d3/,
    /^internmap/,
    /^interval-tree-1d/,
    /^binary-search-bounds/,
    /^isoformat/,
  ],
  browserNodeBuiltinsPolyfill: { modules: {} },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: the whole route manifest is one file the browser caches. Lazy discovery would match
    // every prefix of the path on each document request (1.5 ms of CPU on a patient page) and
    // write a partial manifest into every page.
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
    v3_routeConfig: false,
  },
};
