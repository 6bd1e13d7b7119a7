import path from "node:path";
import { db } from "~/utils/db.server";
import { migrationNames, missingMigrations, type ReadinessCheck } from "~/utils/readiness.server";

let expectedMigrations: Promise<string[]> | undefined;

/**
 * The database answers, and has finished every migration of `migrationsDir` (the app's
 * prisma/migrations by default).
 */
export function databaseChecks(
  migrationsDir = path.resolve("prisma/migrations"),
): ReadinessCheck[] {
  return [
    {
      name: "database",
      async run() {
        await db().$queryRaw`SELECT 1`;
      },
    },
    {
      name: "migrations",
      async run() {
        expectedMigrations ??= migrationNames(migrationsDir);
        const rows = await db().$queryRaw<{ migration_name: string }[]>`
          SELECT migration_name FROM "_prisma_migrations"
           WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
        const missing = missingMigrations(
          await expectedMigrations,
          rows.map((row) => row.migration_name),
        );
        if (missing.length > 0) throw new Error(`not applied: ${missing.join(", ")}`);
      },
    },
  ];
}
