import { Prisma } from "@prisma/client";
import pg from "pg";
import { db, poolOf } from "~/utils/db.server";
import type { Tx } from "./transaction.server";

/**
 * Raw statements sent straight to node-postgres, on the pool under the app's Prisma client, for
 * the device-upload path only. Prisma's query layer reads every parameter of a raw query into its
 * query compiler: about 5 ms of the server's time per 100 KB, where the driver takes 1 ms. An
 * upload sends a stored slice and an insert of 1,000 records per request, so that cost was a
 * good part of an upload's time. The statements are the same `Prisma.sql` templates, and the
 * answers have Prisma's types (bigint for int8, a UTC Date for a timestamp without zone).
 */

/** What the upload's model functions need of a connection: a Prisma transaction client has it. */
export type SqlTx = Pick<Tx, "$queryRaw" | "$executeRaw">;

/** The result types Prisma's `$queryRaw` answers, where node-postgres's defaults differ. */
const PRISMA_TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8) return (value: string) => BigInt(value);
    // Prisma keeps DateTime as UTC wall time in `timestamp(3)` columns.
    if (oid === pg.types.builtins.TIMESTAMP)
      return (value: string) => new Date(`${value.replace(" ", "T")}Z`);
    return format === "binary"
      ? pg.types.getTypeParser(oid, "binary")
      : pg.types.getTypeParser(oid, "text");
  },
};

/** A parameter as Prisma sends it: a Date as its UTC instant, a bigint as its digits. */
function parameter(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  return value;
}

function statement(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return "text" in query ? query : Prisma.sql(query, ...values);
}

/**
 * Raw statements on one connection (inside its transaction) or on the pool (each on its own).
 * `usable` says whether the connection may still be used: a held transaction's connection is not
 * once its end is decided (a statement sent after the ROLLBACK would run outside any
 * transaction, on a connection already handed back to the pool).
 */
function directOn(connection: pg.Pool | pg.ClientBase, usable: () => boolean = () => true): SqlTx {
  const run = async (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    if (!usable()) throw new Error("the transaction has ended");
    const sql = statement(query, values);
    return connection.query({
      text: sql.text,
      values: sql.values.map(parameter),
      types: PRISMA_TYPES,
    });
  };
  const direct = {
    $queryRaw: (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      run(query, values).then((result) => result.rows),
    $executeRaw: (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      run(query, values).then((result) => result.rowCount ?? 0),
  };
  return direct as unknown as SqlTx;
}

/** Statements on the primary's pool, each in its own transaction. */
export function direct(): SqlTx {
  return directOn(poolOf(db()));
}

/** A connection of the primary's pool, unless none frees up within `ms`. */
function connectWithin(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error(`no database connection free within ${ms} ms`));
    }, ms);
    pool.connect().then(
      (client) => {
        if (late) client.release();
        else {
          clearTimeout(timer);
          resolve(client);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!late) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A transaction held open across requests: see {@link holdTransaction}. */
export type HeldTransaction<T> = {
  /** The transaction, once `begin` has run in it; rejects when it could not begin. */
  tx: Promise<SqlTx>;
  /** Commits, answering `value`, or rolls back with null. */
  end: (value: T | null) => void;
  /** The outcome: the committed value, or null when it rolled back or failed. */
  ended: Promise<T | null>;
};

/** PostgreSQL ends a held transaction left idle this long (its holder is gone or stuck). */
const HELD_IDLE_LIMIT = "60s";

/**
 * Begins a transaction on a connection of the primary's pool that stays open until `end` is
 * called, for work that arrives piece by piece; `begin` runs first in it. Waits at most
 * `maxWaitMs` for a connection. `onFailure` hears why it failed, when it did not simply roll back
 * at `end(null)`; a connection closed under it (a stopping database) is only a failure too.
 */
export function holdTransaction<T>(
  begin: (tx: SqlTx) => Promise<void>,
  maxWaitMs: number,
  onFailure: (error: unknown) => void,
): HeldTransaction<T> {
  let end!: (value: T | null) => void;
  const verdict = new Promise<T | null>((resolve) => (end = resolve));
  const connection = connectWithin(poolOf(db()), maxWaitMs);
  let open = true;
  const tx = connection.then(async (client) => {
    await client.query("BEGIN");
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = '${HELD_IDLE_LIMIT}'`);
    const held = directOn(client, () => open);
    await begin(held);
    return held;
  });
  tx.catch(() => undefined);
  const ended = (async (): Promise<T | null> => {
    let client: pg.PoolClient;
    try {
      client = await connection;
    } catch (error) {
      onFailure(error);
      return null;
    }
    const lost = (error: Error) => onFailure(error);
    client.on("error", lost);
    let failure: Error | undefined;
    try {
      await tx;
      const value = await verdict;
      open = false;
      await client.query(value === null ? "ROLLBACK" : "COMMIT");
      return value;
    } catch (error) {
      open = false;
      failure = error instanceof Error ? error : new Error(String(error));
      onFailure(failure);
      return null;
    } finally {
      client.off("error", lost);
      // A connection that failed mid-transaction is closed rather than handed to the next user.
      client.release(failure);
    }
  })();
  return { tx, end, ended };
}
