/**
 * The product's version and the open-source packages it ships, from package.json files: the
 * app's own and each production dependency's (node_modules/<name>/package.json). Pure: the caller
 * reads the files.
 */

/** The parts of a package.json read here; anything may be missing or of the wrong type. */
export type PackageManifest = {
  name?: unknown;
  version?: unknown;
  dependencies?: unknown;
  /** An SPDX expression ("MIT", "(MIT OR Apache-2.0)"), or in old manifests `{ type }`. */
  license?: unknown;
  /** Old manifests: a list of `{ type }`. */
  licenses?: unknown;
};

export type OpenSourcePackage = {
  name: string;
  /** The installed version (the dependency's own manifest), or the range package.json asks for. */
  version: string;
  /** The SPDX licence expression; null when the package states none. */
  licence: string | null;
};

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The app's version: package.json's `version`, which must be a semantic version (1.2.3). */
export function productVersion(app: PackageManifest): string {
  if (typeof app.version !== "string" || !SEMVER.test(app.version))
    throw new Error(`package.json has no semantic version: ${JSON.stringify(app.version)}`);
  return app.version;
}

function licenceType(entry: unknown): string | null {
  if (typeof entry === "string") return entry.trim() || null;
  if (entry && typeof entry === "object" && "type" in entry) return licenceType(entry.type);
  return null;
}

/**
 * A package's licence: `license` as a string or `{ type }`; else the old `licenses` list, joined
 * with OR (such a list offered a choice); else null.
 */
export function licenceOf(manifest: PackageManifest): string | null {
  const single = licenceType(manifest.license);
  if (single) return single;
  if (!Array.isArray(manifest.licenses)) return null;
  const types = manifest.licenses.map(licenceType).filter((type) => type !== null);
  if (types.length === 0) return null;
  return types.length === 1 ? types[0]! : `(${types.join(" OR ")})`;
}

/** The production dependencies' names (package.json's `dependencies`), in alphabetical order. */
export function productionDependencies(app: PackageManifest): string[] {
  const deps = app.dependencies;
  if (!deps || typeof deps !== "object" || Array.isArray(deps)) return [];
  return Object.keys(deps).sort((a, b) => a.localeCompare(b, "en"));
}

/**
 * The open-source list: every production dependency of `app`, by name, with the version and
 * licence its own manifest states. A dependency without a manifest (`installed` lacks it) keeps
 * the version range the app asks for and no licence.
 */
export function openSourcePackages(
  app: PackageManifest,
  installed: ReadonlyMap<string, PackageManifest>,
): OpenSourcePackage[] {
  const ranges = (app.dependencies ?? {}) as Record<string, unknown>;
  return productionDependencies(app).map((name) => {
    const manifest = installed.get(name);
    const version = typeof manifest?.version === "string" ? manifest.version : ranges[name];
    return {
      name,
      version: typeof version === "string" ? version : "",
      licence: manifest ? licenceOf(manifest) : null,
    };
  });
}
