import pg from "pg";
import { hashPassword } from "../../app/utils/password.server";
import { uniqueEmail } from "./support";

/** Direct database set-up for e2e tests (users they need, created fresh for each test). */
async function withDb<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export type TestUser = { id: number; email: string; password: string; name: string; pid: number | null };

export async function createUser(options: { tag: string; identity: 1 | 2; firstName: string; lastName: string; isPass?: number; lang?: string; active?: boolean }): Promise<TestUser> {
  const email = uniqueEmail(options.tag);
  const password = `${options.tag} password 1`;
  const passwordHash = await hashPassword(password);
  return withDb(async (client) => {
    const { rows } = await client.query(
      `INSERT INTO "User" (email, "passwordHash", identity, "isPass", "firstName", "lastName", active, "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING id`,
      [email, passwordHash, options.identity, options.isPass ?? (options.identity === 2 ? 1 : 0), options.firstName, options.lastName, options.active ?? true],
    );
    const id = rows[0].id as number;
    await client.query(`INSERT INTO "Setting" ("userId", lang, "updatedAt") VALUES ($1, $2, now())`, [id, options.lang ?? "en"]);
    let pid: number | null = null;
    if (options.identity === 1) {
      const patient = await client.query(`INSERT INTO "Patient" ("userId", "updatedAt") VALUES ($1, now()) RETURNING id`, [id]);
      pid = patient.rows[0].id;
    }
    return { id, email, password, name: `${options.firstName} ${options.lastName}`, pid };
  });
}

/** An accepted share from `provider` to `reader` (as if the reader had accepted). */
export async function createAcceptedShare(providerId: number, readerId: number, uploadIsNew = 1) {
  await withDb((client) =>
    client.query(`INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "updatedAt") VALUES ($1, $2, 1, 1, 1, $3, now())`, [providerId, readerId, uploadIsNew]),
  );
}
