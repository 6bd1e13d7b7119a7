import { readFileSync } from "node:fs";
import path from "node:path";

let version: string | undefined;

/** The product version shown in the footer: package.json's `version`. */
export function appVersion(): string {
  version ??= (
    JSON.parse(readFileSync(path.resolve(process.cwd(), "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  return version;
}
