import { defineConfig } from "prisma/config";
import { shadowAwarePgAdapter } from "./prisma/cli-adapter";

// Prisma 6.19 with the JS (WASM) schema engine: no native engine download is needed
// (DESIGN.md 1.1). The CLI talks to PostgreSQL through our own driver adapter.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  async adapter() {
    return shadowAwarePgAdapter(process.env.DATABASE_URL ?? "");
  },
});
