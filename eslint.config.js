import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";

/**
 * The layers of docs/architecture.md. Arrows point one way: routes and jobs -> services -> models
 * -> pure domain (metrics, report, device, ingest, csv) and schemas -> utils; app/domain (stored
 * codes, glucose units) imports nothing of the app and every layer but utils may use it. Only
 * models (and the client in app/utils/db.server.ts) call Prisma; type imports of Prisma's
 * generated types are fine.
 */
const up = (...folders) =>
  folders.map((folder) => ({
    group: [`~/${folder}/*`, `~/${folder}`, `**/${folder}/*`],
    message: `this layer may not import ${folder}/ (docs/architecture.md)`,
  }));
const prismaRuntime = {
  group: ["@prisma/client"],
  allowTypeImports: true,
  message: "only app/models calls Prisma (docs/architecture.md)",
};
const dbClient = {
  group: ["~/utils/db.server", "**/utils/db.server", "**/db.server"],
  message: "only app/models calls Prisma (docs/architecture.md)",
};
const rule = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
const domain = ["metrics", "report", "device", "ingest", "csv"];
const typeOnly = (folder) => ({
  group: [`~/${folder}/*`, `**/${folder}/*`],
  allowTypeImports: true,
  message: `components take server data as props: type imports only from ${folder}/`,
});
const layerRules = [
  {
    files: ["app/domain/**/*.ts"],
    rules: rule(
      ...up("routes", "components", "services", "models", "jobs", "schemas", ...domain, "utils"),
      prismaRuntime,
      {
        group: ["~/i18n", "react", "react-dom", "i18next"],
        message: "app/domain is pure (no UI, no i18n)",
      },
    ),
  },
  {
    files: ["app/utils/**/*.{ts,tsx}"],
    ignores: ["app/utils/db.server.ts"],
    rules: rule(
      ...up("routes", "components", "services", "models", "jobs", "schemas", ...domain, "domain"),
      prismaRuntime,
    ),
  },
  {
    files: ["app/metrics/**/*.ts"],
    rules: rule(
      ...up(
        "routes",
        "components",
        "services",
        "models",
        "jobs",
        "schemas",
        "report",
        "device",
        "ingest",
        "csv",
        "utils",
      ),
      prismaRuntime,
      {
        group: ["~/i18n", "react", "react-dom", "i18next"],
        message: "metrics are pure (no UI, no i18n)",
      },
    ),
  },
  {
    files: domain.filter((d) => d !== "metrics").map((d) => `app/${d}/**/*.{ts,tsx}`),
    rules: rule(
      ...up("routes", "components", "services", "models", "jobs"),
      prismaRuntime,
      dbClient,
    ),
  },
  {
    files: ["app/schemas/**/*.ts"],
    rules: rule(
      ...up("routes", "components", "services", "models", "jobs"),
      prismaRuntime,
      dbClient,
    ),
  },
  {
    files: ["app/wire/**/*.ts"],
    rules: rule(
      ...up("routes", "components", "models", "jobs"),
      typeOnly("services"),
      prismaRuntime,
      dbClient,
    ),
  },
  {
    files: ["app/api-docs/**/*.ts"],
    rules: rule(
      ...up("routes", "components", "services", "models", "jobs"),
      prismaRuntime,
      dbClient,
    ),
  },
  {
    files: ["app/models/**/*.ts"],
    rules: rule(...up("routes", "components", "services", "jobs")),
  },
  {
    files: ["app/services/**/*.ts"],
    rules: rule(...up("routes", "components", "jobs"), prismaRuntime, dbClient),
  },
  {
    files: ["app/jobs/**/*.ts"],
    rules: rule(...up("routes", "components"), prismaRuntime, dbClient),
  },
  {
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx", "app/entry.*.tsx"],
    rules: rule(prismaRuntime, dbClient),
  },
  {
    files: ["app/components/**/*.{ts,tsx}"],
    rules: rule(
      ...up("routes", "jobs"),
      typeOnly("models"),
      typeOnly("services"),
      prismaRuntime,
      dbClient,
    ),
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".cache/",
      ".pg/",
      ".outbox/",
      "reports/",
      "test-results/",
      "node_modules/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ["**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Scrollable regions (wide tables, charts) must be reachable by keyboard.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["region"] }],
    },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // A leading underscore marks a value left out on purpose (`const { secret: _s, ...rest }`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  ...layerRules,
);
