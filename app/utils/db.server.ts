import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";

/** How one request's lag-tolerant reads are routed (set per request by server/read-routing.ts). */
export type ReadRouting = {
  /** The reader has just written (or this request writes): read from the primary. */
  primary: boolean;
};

declare global {
  // Survive module reloads in development so that connections are not leaked; the server and the
  // app build (a second copy of this module) share them.

  var __diacarePrisma: PrismaClient | undefined;

  var __diacareReadPrisma: PrismaClient | undefined;

  var __diacareReadRouting: AsyncLocalStorage<ReadRouting> | undefined;
}

/** A Prisma client on `databaseUrl` through the node-postgres driver adapter. */
export function createPrismaClient(databaseUrl: string, maxConnections = 10) {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: maxConnections });
  return new PrismaClient({ adapter });
}

const poolSize = () => Number(process.env.DATABASE_POOL_SIZE ?? 10);

function defaultClient() {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set: start the app with `npm start` (server/start.ts)");
  return createPrismaClient(url, poolSize());
}

/**
 * The app's Prisma client on the primary (created on first use): every write, and every read that
 * must see the latest state (sessions, tokens, rate limits, access checks, the upload queue).
 */
export function db(): PrismaClient {
  globalThis.__diacarePrisma ??= defaultClient();
  return globalThis.__diacarePrisma;
}

function readRouting(): AsyncLocalStorage<ReadRouting> {
  globalThis.__diacareReadRouting ??= new AsyncLocalStorage<ReadRouting>();
  return globalThis.__diacareReadRouting;
}

/** Runs `work` (one request) with its read routing. */
export function withReadRouting<T>(routing: ReadRouting, work: () => T): T {
  return readRouting().run(routing, work);
}

/**
 * The client for reads that tolerate a few seconds of lag (report data, the patient views, the
 * clinic list, the dashboard): the standby at DATABASE_READ_URL during a request whose reader has
 * not just written; the primary otherwise — without DATABASE_READ_URL, outside a request (jobs,
 * scripts), and for a reader who wrote in the last seconds, so that they see their own writes.
 * Never for writes: the standby refuses them.
 */
export function readDb(): PrismaClient {
  const url = process.env.DATABASE_READ_URL;
  const routing = readRouting().getStore();
  if (!url || !routing || routing.primary) return db();
  globalThis.__diacareReadPrisma ??= createPrismaClient(url, poolSize());
  return globalThis.__diacareReadPrisma;
}

/** Closes the primary's and the standby's connections (server shutdown). */
export async function disconnectDatabases(): Promise<void> {
  const clients = [globalThis.__diacarePrisma, globalThis.__diacareReadPrisma];
  globalThis.__diacarePrisma = undefined;
  globalThis.__diacareReadPrisma = undefined;
  await Promise.all(clients.map((client) => client?.$disconnect()));
}
