import type { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";

/** A database connection inside a transaction; model functions that take one join it. */
export type Tx = Prisma.TransactionClient;

/** Runs `work` in one transaction: everything it writes is kept, or nothing is. */
export function inTransaction<T>(
  work: (tx: Tx) => Promise<T>,
  options?: { timeout?: number; maxWait?: number },
): Promise<T> {
  return db().$transaction(work, options);
}

/** The connection outside any transaction, for model functions that take an optional `Tx`. */
export function noTransaction(): Tx {
  return db();
}

/** Connections this server keeps to the database (the embedded database: one). */
export { poolSize as databaseConnections } from "~/utils/db.server";
