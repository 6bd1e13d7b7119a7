import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { env } from "./env.server";

/** The device drivers the app can offer, by the file name an operator places in DRIVERS_DIR. */
export const DRIVERS = [
  { id: "meter-windows", file: "gochek-meter-driver-windows.zip" },
  { id: "meter-mac", file: "gochek-meter-driver-mac.zip" },
  { id: "pump-cgm-windows", file: "equil-aidex-driver-windows.zip" },
] as const;

export type DriverId = (typeof DRIVERS)[number]["id"];

/** A driver file that is there to download: its name, size and SHA-256 (so a download can be checked). */
export type PlacedDriver = { id: DriverId; file: string; bytes: number; sha256: string };

export function driverPath(id: string, dir = env().DRIVERS_DIR): string | null {
  const driver = DRIVERS.find((d) => d.id === id);
  if (!driver) return null;
  const full = path.resolve(dir, driver.file);
  return existsSync(full) ? full : null;
}

/** Digests by path, size and modification time: a replaced file is read again. */
const digests = new Map<string, string>();

function sha256Of(file: string, bytes: number, modified: number): string {
  const key = `${file}\n${bytes}\n${modified}`;
  let digest = digests.get(key);
  if (!digest) {
    digest = createHash("sha256").update(readFileSync(file)).digest("hex");
    digests.set(key, digest);
  }
  return digest;
}

/** The drivers whose files the operator has placed; the others are not offered at all. */
export function placedDrivers(dir = env().DRIVERS_DIR): PlacedDriver[] {
  return DRIVERS.flatMap((driver) => {
    const full = driverPath(driver.id, dir);
    if (!full) return [];
    const stat = statSync(full);
    return [
      {
        id: driver.id,
        file: driver.file,
        bytes: stat.size,
        sha256: sha256Of(full, stat.size, stat.mtimeMs),
      },
    ];
  });
}
