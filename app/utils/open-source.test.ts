import { describe, expect, it } from "vitest";
import {
  licenceOf,
  openSourcePackages,
  productionDependencies,
  productVersion,
  type PackageManifest,
} from "./open-source";

describe("productVersion", () => {
  it("is package.json's semantic version", () => {
    expect(productVersion({ name: "diacare", version: "2.4.1" })).toBe("2.4.1");
    expect(productVersion({ version: "3.0.0-rc.2+build.7" })).toBe("3.0.0-rc.2+build.7");
  });

  it("refuses a manifest without one", () => {
    expect(() => productVersion({ name: "diacare" })).toThrow(/semantic version/);
    expect(() => productVersion({ version: "latest" })).toThrow(/semantic version/);
    expect(() => productVersion({ version: 2 })).toThrow(/semantic version/);
  });
});

describe("licenceOf", () => {
  it("reads an SPDX string, trimmed", () => {
    expect(licenceOf({ license: "MIT" })).toBe("MIT");
    expect(licenceOf({ license: " (MIT OR Apache-2.0) " })).toBe("(MIT OR Apache-2.0)");
  });

  it("reads the old object and list forms", () => {
    expect(licenceOf({ license: { type: "BSD-3-Clause", url: "https://x.test" } })).toBe(
      "BSD-3-Clause",
    );
    expect(licenceOf({ licenses: [{ type: "MIT" }] })).toBe("MIT");
    expect(licenceOf({ licenses: [{ type: "MIT" }, { type: "GPL-2.0" }] })).toBe(
      "(MIT OR GPL-2.0)",
    );
  });

  it("is null when none is stated", () => {
    expect(licenceOf({})).toBeNull();
    expect(licenceOf({ license: "" })).toBeNull();
    expect(licenceOf({ licenses: [] })).toBeNull();
    expect(licenceOf({ license: 7 })).toBeNull();
  });
});

describe("productionDependencies", () => {
  it("lists `dependencies` alphabetically and ignores devDependencies", () => {
    const app = {
      dependencies: { zod: "3.0.0", "@scope/tool": "1.0.0", express: "4.0.0" },
      devDependencies: { vitest: "3.0.0" },
    } as PackageManifest;
    expect(productionDependencies(app)).toEqual(["@scope/tool", "express", "zod"]);
  });

  it("is empty without dependencies", () => {
    expect(productionDependencies({ name: "x" })).toEqual([]);
    expect(productionDependencies({ dependencies: ["a"] })).toEqual([]);
  });
});

describe("openSourcePackages", () => {
  const app: PackageManifest = {
    name: "diacare",
    version: "1.0.0",
    dependencies: { "left-pad": "^1.3.0", "@acme/charts": "2.0.0", gone: "~0.4.0" },
  };
  const installed = new Map<string, PackageManifest>([
    ["left-pad", { name: "left-pad", version: "1.3.0", license: "WTFPL" }],
    ["@acme/charts", { name: "@acme/charts", version: "2.0.1", licenses: [{ type: "ISC" }] }],
  ]);

  it("gives each dependency its installed version and licence, by name", () => {
    expect(openSourcePackages(app, installed)).toEqual([
      { name: "@acme/charts", version: "2.0.1", licence: "ISC" },
      { name: "gone", version: "~0.4.0", licence: null },
      { name: "left-pad", version: "1.3.0", licence: "WTFPL" },
    ]);
  });
});
