import { PrismaPg } from "@prisma/adapter-pg";
import { randomUUID } from "node:crypto";
import pg from "pg";

const NAME_OID = 19;
const CHAR_OID = 18;
const TEXT_OID = 25;

type QueryResultLike = { fields?: { dataTypeID: number }[] };

function reportCatalogTypesAsText<T>(result: T): T {
  for (const part of Array.isArray(result) ? result : [result]) {
    for (const field of (part as QueryResultLike)?.fields ?? []) {
      if (field.dataTypeID === NAME_OID || field.dataTypeID === CHAR_OID)
        field.dataTypeID = TEXT_OID;
    }
  }
  return result;
}

/**
 * A pg client for the Prisma CLI's WASM schema engine, which cannot deserialize the catalog column
 * types `name` and `"char"` ("Column type 'name' could not be deserialized"). pg already returns
 * both as strings, so announcing them as `text` is exact.
 */
class CatalogTextClient extends pg.Client {
  // pg's overloads cannot be restated on a subclass; both the promise and the callback form
  // (the one pg-pool uses) are patched.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) =>
        last(err, err ? res : reportCatalogTypesAsText(res));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result = (super.query as any)(...args);
    return result && typeof result.then === "function"
      ? result.then(reportCatalogTypesAsText)
      : result;
  }
}

function pool(connectionString: string) {
  return new pg.Pool({ connectionString, Client: CatalogTextClient, max: 2 });
}

type Connected = Awaited<ReturnType<PrismaPg["connect"]>>;

/**
 * A connection that sends a migration script to PostgreSQL whole, in one simple query (which
 * also runs it as one transaction). `@prisma/adapter-pg` 6.19 cuts a script at every semicolon,
 * which breaks the body of any SQL function or trigger the migration defines.
 */
function wholeScripts(connection: Connected, target: pg.Pool): Connected {
  const reportError = (connection as unknown as { onError(error: unknown): never }).onError.bind(
    connection,
  );
  connection.executeScript = async (script: string) => {
    try {
      await target.query(script);
    } catch (error) {
      reportError(error);
    }
  };
  return connection;
}

/** The adapter factory of a pool whose connections send scripts whole. */
function scriptAdapter(target: pg.Pool) {
  const factory = new PrismaPg(target);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => wholeScripts(await connect(), target);
  return factory;
}

/**
 * The driver adapter the Prisma CLI uses (docs/decisions/001-database-and-migrations.md). Besides
 * the catalog-type fix and whole scripts, it creates the shadow database of `migrate dev` itself:
 * `@prisma/adapter-pg` 6.19 points the shadow pool back at the main database when a connection
 * string is used, and drops the shadow while its pool is still connected.
 */
export function shadowAwarePgAdapter(connectionString: string) {
  if (!connectionString) throw new Error("DATABASE_URL must be set for the Prisma CLI");
  const factory = scriptAdapter(pool(connectionString));
  return Object.assign(factory, {
    async connectToShadowDb() {
      const name = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
      await runAdmin(connectionString, `CREATE DATABASE "${name}"`);
      const url = new URL(connectionString);
      url.pathname = `/${name}`;
      const shadowPool = pool(url.toString());
      const shadow = await scriptAdapter(shadowPool).connect();
      shadow.dispose = async () => {
        await shadowPool.end();
        await runAdmin(connectionString, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return shadow;
    },
  });
}

async function runAdmin(connectionString: string, sql: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
