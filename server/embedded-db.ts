import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { mkdirSync } from "node:fs";

/**
 * The zero-setup database (docs/decisions/001-database-and-migrations.md): PGlite keeps its files
 * in `dataDir` and is served on a loopback port, so the app, the Prisma CLI and psql all speak
 * plain PostgreSQL to it. The socket server multiplexes connections and keeps a transaction on its
 * own connection.
 */
export async function startEmbeddedPostgres(dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 16 });
  await server.start();
  const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
