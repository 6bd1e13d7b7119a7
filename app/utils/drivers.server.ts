import { existsSync } from "node:fs";
import path from "node:path";
import { env } from "./env.server";

/** The device drivers offered on the sign-in page, by file name in DRIVERS_DIR. */
export const DRIVERS = [
  { id: "meter-windows", file: "gochek-meter-driver-windows.zip" },
  { id: "meter-mac", file: "gochek-meter-driver-mac.zip" },
  { id: "pump-cgm-windows", file: "equil-aidex-driver-windows.zip" },
] as const;

export type DriverId = (typeof DRIVERS)[number]["id"];

export function driverPath(id: string): string | null {
  const driver = DRIVERS.find((d) => d.id === id);
  if (!driver) return null;
  const full = path.resolve(env().DRIVERS_DIR, driver.file);
  return existsSync(full) ? full : null;
}

/** Which drivers can be downloaded now: a missing file is shown as unavailable, never as a broken link. */
export function driverAvailability(): { id: DriverId; available: boolean }[] {
  return DRIVERS.map((d) => ({ id: d.id, available: driverPath(d.id) !== null }));
}
