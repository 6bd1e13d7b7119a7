import { execFileSync } from "node:child_process";

/** pg_ctl of PostgreSQL 15 (the cluster's standby, stopped and started by tests and benchmarks), as the `postgres` user when this runs as root; throws when it fails. */
export function pgCtl(args: string[]): void {
  const pgCtlPath = "/usr/lib/postgresql/15/bin/pg_ctl";
  const [file, argv] =
    process.getuid?.() === 0
      ? ["runuser", ["-u", "postgres", "--", pgCtlPath, ...args]]
      : [pgCtlPath, args];
  execFileSync(file, argv, { stdio: "ignore", cwd: "/" });
}
