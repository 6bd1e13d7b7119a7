import { readFileSync } from "node:fs";
import path from "node:path";
import {
  openSourcePackages,
  productionDependencies,
  type OpenSourcePackage,
  type PackageManifest,
} from "./open-source";
import { appManifest } from "./version.server";

let list: readonly OpenSourcePackage[] | undefined;

function installedManifest(name: string): PackageManifest | null {
  try {
    const file = path.resolve(process.cwd(), "node_modules", ...name.split("/"), "package.json");
    return JSON.parse(readFileSync(file, "utf8")) as PackageManifest;
  } catch {
    return null;
  }
}

/**
 * The production dependencies with their licences, read once from node_modules: the installed
 * packages do not change while the server runs.
 */
export function openSourceList(): readonly OpenSourcePackage[] {
  if (list) return list;
  const app = appManifest();
  const installed = new Map<string, PackageManifest>();
  for (const name of productionDependencies(app)) {
    const manifest = installedManifest(name);
    if (manifest) installed.set(name, manifest);
  }
  list = openSourcePackages(app, installed);
  return list;
}
