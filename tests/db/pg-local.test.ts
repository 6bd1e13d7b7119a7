/**
 * scripts/pg-local.sh in a clone that other users cannot enter (a 0700 parent, as a home
 * directory or a private temporary folder is): the cluster starts, answers, and stops, and stop
 * leaves no server behind.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const parent = mkdtempSync(path.join(os.tmpdir(), "diacare-private-"));
const clone = path.join(parent, "clone");

const script = (command: string, port: number | string = 1) =>
  execFileSync("bash", [path.join(clone, "scripts/pg-local.sh"), command], {
    encoding: "utf8",
    env: { ...process.env, PG_LOCAL_PORT: String(port) },
  });

beforeAll(() => {
  chmodSync(parent, 0o700);
  mkdirSync(path.join(clone, "scripts"), { recursive: true });
  copyFileSync("scripts/pg-local.sh", path.join(clone, "scripts/pg-local.sh"));
});

afterAll(() => {
  const cluster = script("dir").trim();
  script("stop");
  rmSync(cluster, { recursive: true, force: true });
  rmSync(parent, { recursive: true, force: true });
});

describe("scripts/pg-local.sh from a 0700 parent", () => {
  it(
    "starts a cluster that answers, reports its status, and stops it",
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const run = (command: string) => script(command, port);
      const status = () => {
        try {
          run("status");
          return "running";
        } catch {
          return "stopped";
        }
      };

      expect(status()).toBe("stopped");
      const url = run("start").trim();
      expect(url).toBe(`postgresql://postgres@127.0.0.1:${port}`);
      expect(status()).toBe("running");
      const client = new pg.Client({ connectionString: `${url}/postgres` });
      await client.connect();
      const { rows } = await client.query("SELECT current_setting('port') AS port");
      await client.end();
      expect(rows[0].port).toBe(String(port));

      run("stop");
      expect(status()).toBe("stopped");
      await expect(
        new pg.Client({
          connectionString: `${url}/postgres`,
          connectionTimeoutMillis: 2000,
        }).connect(),
      ).rejects.toThrow();
    },
  );

  it(
    "starts a stopped cluster on the port asked for, not the one it was made with",
    { timeout: 120_000 },
    async () => {
      const made = await freePort();
      script("start", made);
      script("stop", made);
      const port = await freePort();
      const url = script("start", port).trim();
      expect(url).toBe(`postgresql://postgres@127.0.0.1:${port}`);
      const client = new pg.Client({ connectionString: `${url}/postgres` });
      await client.connect();
      const { rows } = await client.query("SELECT current_setting('port') AS port");
      await client.end();
      expect(rows[0].port).toBe(String(port));
      // Asked for another port while it runs, it answers where it runs.
      expect(script("start", made).trim()).toBe(url);
      script("stop", port);
    },
  );

  it("refuses a PG_LOCAL_PORT that is not a port number, before touching any cluster", () => {
    expect(() => script("start", "5432; rm -rf /")).toThrow(/PG_LOCAL_PORT must be a port number/);
  });
});
