import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { driverPath, placedDrivers } from "./drivers.server";

const dir = mkdtempSync(path.join(tmpdir(), "drivers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("placedDrivers", () => {
  it("offers only the files that are there, with their size and SHA-256", () => {
    expect(placedDrivers(dir)).toEqual([]);
    writeFileSync(path.join(dir, "gochek-meter-driver-mac.zip"), "hello");
    // sha256("hello"), from `printf hello | sha256sum`.
    expect(placedDrivers(dir)).toEqual([
      {
        id: "meter-mac",
        file: "gochek-meter-driver-mac.zip",
        bytes: 5,
        sha256: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
      },
    ]);
  });

  it("reads a replaced file again", () => {
    const file = path.join(dir, "equil-aidex-driver-windows.zip");
    writeFileSync(file, "a");
    const first = placedDrivers(dir).find((d) => d.id === "pump-cgm-windows");
    writeFileSync(file, "ab");
    const second = placedDrivers(dir).find((d) => d.id === "pump-cgm-windows");
    // sha256("a") and sha256("ab").
    expect([first?.sha256, second?.sha256, second?.bytes]).toEqual([
      "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
      "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603",
      2,
    ]);
  });

  it("knows no driver by another name", () => {
    expect(driverPath("../../etc/passwd", dir)).toBeNull();
  });
});
