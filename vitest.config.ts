import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";

// Three projects: `unit` (pure modules, no I/O), `db` (real PostgreSQL; each file gets its own
// fresh database from tests/db/file-setup.ts) and `pdf` (the PDF renderer with Debian's Chromium
// and poppler-utils). `npm test` runs all three, then Playwright.
export default defineConfig({
  // Route modules import their `*.css.ts` styles; tests that call loaders compile them too.
  plugins: [vanillaExtractPlugin()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    env: { SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.ts",
            "app/**/*.test.tsx",
            "server/**/*.test.ts",
            "prisma/**/*.test.ts",
            "tests/unit/**/*.test.ts",
          ],
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
      {
        extends: true,
        test: {
          name: "pdf",
          include: ["tests/pdf/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
