import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/embedded-db";
import { migrateDeploy } from "../../server/migrate";

/**
 * Runs `run` with a client of a new embedded database (PGlite served by pglite-socket, as
 * `npm start` runs it without DATABASE_URL) on which every migration has been applied; the
 * database and its folder are gone afterwards.
 */
export async function withMigratedEmbedded<T>(
  tag: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), `diacare-pglite-${tag}-`));
  const embedded = await startEmbeddedPostgres(dir);
  const client = new pg.Client({ connectionString: embedded.url });
  try {
    await migrateDeploy(embedded.url);
    await client.connect();
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
