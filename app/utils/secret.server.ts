import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "./env.server";

/** SESSION_SECRET, or outside production a random secret kept in DATA_DIR. */
export function sessionSecret(): string {
  const { SESSION_SECRET, DATA_DIR } = env();
  if (SESSION_SECRET) return SESSION_SECRET;
  const file = path.resolve(DATA_DIR, "session-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim(); // another process wrote it first
    }
  }
}
