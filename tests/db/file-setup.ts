import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { createDatabaseFrom, databaseUrl, dropDatabase } from "./database";

// Each test file gets its own fresh, migrated database: no test sees another file's rows.
const admin = inject("adminDatabaseUrl");
const name = `diacare_test_${randomBytes(6).toString("hex")}`;
await createDatabaseFrom(admin, name, inject("templateDatabase"));
process.env.DATABASE_URL = databaseUrl(admin, name);

afterAll(async () => {
  await globalThis.__diacarePrisma?.$disconnect();
  globalThis.__diacarePrisma = undefined;
  await dropDatabase(admin, name);
});
