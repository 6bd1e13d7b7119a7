import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";

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

  var __diacareStandbyPausedUntil: number | undefined;

  var __diacareReadRouting: AsyncLocalStorage<ReadRouting> | undefined;
}

/** Where a client keeps its connection pool (a registered symbol: both module copies find it). */
const POOL = Symbol.for("diacare.pgPool");

/**
 * A Prisma client on `databaseUrl` through the node-postgres driver adapter, on a pool that
 * {@link poolOf} also answers (for the few statements that skip Prisma's query layer) and that
 * `$disconnect` closes.
 */
export function createPrismaClient(
  databaseUrl: string,
  maxConnections = 10,
  { connectTimeoutMs }: { connectTimeoutMs?: number } = {},
) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
  });
  const client = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
  });
  Object.defineProperty(client, POOL, { value: pool });
  return client;
}

/** The node-postgres pool under a client made by {@link createPrismaClient}. */
export function poolOf(client: PrismaClient): pg.Pool {
  const pool = (client as unknown as { [POOL]?: pg.Pool })[POOL];
  if (!pool) throw new Error("poolOf: this Prisma client was not made by createPrismaClient");
  return pool;
}

/** How long reads skip a standby that failed to answer before trying it again. */
export const STANDBY_PAUSE_MS = 5_000;
/** A standby (or its pooler) that takes longer to connect counts as down. */
const STANDBY_CONNECT_TIMEOUT_MS = 2_000;
/** Prisma's codes for a database it cannot reach or that closed the connection. */
const UNREACHABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
const UNREACHABLE_SYSTEM_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"]);

/**
 * Whether a failed query says the database is unreachable (rather than that the query was
 * wrong): Prisma's connection codes, socket errors, and the SQLSTATEs of class 08 (connection
 * exception, which PgBouncer also answers when its server is down) and 57P01-57P03 (the server
 * is shutting down or starting). A raw query's SQLSTATE is only in its message.
 */
export function isUnreachable(error: unknown): boolean {
  const codes: string[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const e = current as {
      code?: unknown;
      originalCode?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    for (const code of [e.code, e.originalCode]) if (typeof code === "string") codes.push(code);
    if (typeof e.message === "string") messages.push(e.message);
    current = e.cause;
  }
  for (const message of messages) {
    const sqlState = /Code: `([0-9A-Z]{5})`/.exec(message)?.[1];
    if (sqlState) codes.push(sqlState);
    if (/\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated)\b/.test(message))
      codes.push("ECONNREFUSED");
    if (/timeout exceeded when trying to connect/i.test(message)) codes.push("ETIMEDOUT");
    // Prisma's words for P1001 and P1017 where a raw query reports no code of its own.
    if (/Can't reach database server|Server has closed the connection/.test(message))
      codes.push("P1001");
  }
  return codes.some(
    (code) =>
      UNREACHABLE_PRISMA_CODES.has(code) ||
      UNREACHABLE_SYSTEM_CODES.has(code) ||
      /^08[0-9A-Z]{3}$/.test(code) ||
      ["57P01", "57P02", "57P03"].includes(code),
  );
}

/** Connections each database client keeps (DATABASE_POOL_SIZE; the embedded database takes one). */
export const poolSize = () => Number(process.env.DATABASE_POOL_SIZE ?? 10);

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
  if ((globalThis.__diacareStandbyPausedUntil ?? 0) > Date.now()) return db();
  globalThis.__diacareReadPrisma ??= standbyClient(url);
  return globalThis.__diacareReadPrisma;
}

/**
 * The standby's client: a read it cannot answer because it is unreachable is read again from the
 * primary, and for STANDBY_PAUSE_MS every read goes to the primary; then the standby is tried
 * again. A standby that is stopped or restarting costs the reader a short wait, not an error.
 */
function standbyClient(url: string): PrismaClient {
  const standby = createPrismaClient(url, poolSize(), {
    connectTimeoutMs: STANDBY_CONNECT_TIMEOUT_MS,
  });
  return standby.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        try {
          return await query(args);
        } catch (error) {
          if (!isUnreachable(error)) throw error;
          globalThis.__diacareStandbyPausedUntil = Date.now() + STANDBY_PAUSE_MS;
          console.warn(
            `[db] standby unreachable, reading from the primary for ${STANDBY_PAUSE_MS} ms:`,
            error instanceof Error ? error.message.split("\n").filter(Boolean).pop() : error,
          );
          return onPrimary(model, operation, args);
        }
      },
    },
  }) as unknown as PrismaClient;
}

/** Runs one Prisma operation (a model's, or a raw query) on the primary. */
function onPrimary(model: string | undefined, operation: string, args: unknown): Promise<unknown> {
  type Operation = (args: unknown) => Promise<unknown>;
  const primary = db() as unknown as Record<string, Record<string, Operation> | Operation>;
  if (!model) return (primary[operation] as Operation).call(primary, args);
  const delegate = primary[model.charAt(0).toLowerCase() + model.slice(1)] as Record<
    string,
    Operation
  >;
  return delegate[operation]!.call(delegate, args);
}

/** Closes the primary's and the standby's connections (server shutdown). */
export async function disconnectDatabases(): Promise<void> {
  const clients = [globalThis.__diacarePrisma, globalThis.__diacareReadPrisma];
  globalThis.__diacarePrisma = undefined;
  globalThis.__diacareReadPrisma = undefined;
  globalThis.__diacareStandbyPausedUntil = undefined;
  await Promise.all(clients.map((client) => client?.$disconnect()));
}
