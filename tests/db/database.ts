import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";

/**
 * Where database tests create their databases: TEST_DATABASE_URL, else DATABASE_URL, else the
 * project-local PostgreSQL that scripts/pg-local.sh starts (installing it if needed).
 */
export function adminDatabaseUrl(): string {
  const given = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (given) return given;
  const base = execFileSync("bash", [path.resolve("scripts/pg-local.sh"), "start"], {
    encoding: "utf8",
  }).trim();
  return `${base}/postgres`;
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(
  adminUrl: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE from a template; retried while the template still has a closing connection. */
export async function createDatabaseFrom(adminUrl: string, name: string, template: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      return;
    } catch (error) {
      const busy = error instanceof Error && /being accessed by other users/.test(error.message);
      if (!busy || attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function dropDatabase(adminUrl: string, name: string) {
  await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
