import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";

declare global {
  // Survives module reloads in development so that connections are not leaked.

  var __diacarePrisma: PrismaClient | undefined;
}

/** A Prisma client on `databaseUrl` through the node-postgres driver adapter. */
export function createPrismaClient(databaseUrl: string, maxConnections = 10) {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: maxConnections });
  return new PrismaClient({ adapter });
}

function defaultClient() {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set: start the app with `npm start` (server/start.ts)");
  return createPrismaClient(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));
}

/** The app's Prisma client (created on first use). */
export function db(): PrismaClient {
  globalThis.__diacarePrisma ??= defaultClient();
  return globalThis.__diacarePrisma;
}
