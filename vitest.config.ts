import { defineConfig } from "vitest/config";

// Two projects: `unit` (pure modules, no I/O) and `db` (real PostgreSQL; each file gets its own
// fresh database from tests/db/setup.ts). `npm test` runs both, then Playwright.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "tests/unit/**/*.test.ts", "bench/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/db/global-setup.ts"],
          setupFiles: ["tests/db/file-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
