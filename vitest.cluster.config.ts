import { defineConfig } from "vitest/config";

// `npm run test:cluster` only (scripts/test-cluster.sh starts the topology first): end-to-end
// tests through HAProxy and against each app server of `npm run cluster`. Not part of `npm test`,
// whose projects (vitest.config.ts) do not include tests/cluster/.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    environment: "node",
    // One file, in order: the checks of the standby's activity must not see another test's reads.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
