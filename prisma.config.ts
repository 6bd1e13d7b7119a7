import { defineConfig } from "prisma/config";
import { shadowAwarePgAdapter } from "./prisma/cli-adapter";

// Prisma 6.19 with the JS (WASM) schema engine: no native engine download is needed
// (docs/decisions/001-database-and-migrations.md). The CLI talks to PostgreSQL through our own
// driver adapter.
// An unset DATABASE_URL makes the CLI fall back to downloading native engines, so `generate`
// (which needs no database) gets a placeholder; commands that connect fail on it loudly.
process.env.DATABASE_URL ||= "postgresql://database-url-not-set@127.0.0.1:1/unset";
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  async adapter() {
    return shadowAwarePgAdapter(process.env.DATABASE_URL!);
  },
});
