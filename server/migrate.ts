import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const DONE = /All migrations have been successfully applied|No pending migrations to apply/;

/**
 * Runs `prisma migrate deploy` against `databaseUrl`. The WASM schema engine keeps its process
 * alive for ~10 s after finishing (docs/decisions/001-database-and-migrations.md), so the child is
 * ended as soon as it reports success; any other ending is a failure with the CLI's output.
 */
export function migrateDeploy(databaseUrl: string): Promise<void> {
  const cli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let succeeded = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!succeeded && DONE.test(output)) {
        succeeded = true;
        child.kill();
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!succeeded) reject(new Error(`prisma migrate deploy failed (exit ${code}):\n${output}`));
    });
  });
}
