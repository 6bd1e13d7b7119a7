import { readFileSync } from "node:fs";
import path from "node:path";
import { productVersion, type PackageManifest } from "./open-source";

let manifest: PackageManifest | undefined;

/** The app's package.json, read once (the server runs from the app's folder). */
export function appManifest(): PackageManifest {
  manifest ??= JSON.parse(
    readFileSync(path.resolve(process.cwd(), "package.json"), "utf8"),
  ) as PackageManifest;
  return manifest;
}

/** The product version shown in the footer and on the about page: package.json's `version`. */
export function appVersion(): string {
  return productVersion(appManifest());
}
