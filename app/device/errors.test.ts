import { describe, expect, it } from "vitest";
import upload from "../../locales/en/upload.json";
import { DEVICE_ERROR_KEYS, messageOf, type DeviceErrorKind } from "./errors";

describe("device error messages", () => {
  const firmwareKinds: DeviceErrorKind[] = ["cgmPda", "versionFormat", "wrongSoftwareVersion"];

  it("names each key device.<kind>, except the firmware kinds", () => {
    for (const [kind, key] of Object.entries(DEVICE_ERROR_KEYS)) {
      if (!firmwareKinds.includes(kind as DeviceErrorKind)) expect(key).toBe(`device.${kind}`);
    }
  });

  it.each(firmwareKinds)("%s shares the server's translated upload key", (kind) => {
    expect(DEVICE_ERROR_KEYS[kind]).toBe(`errors.${kind}`);
    expect(upload.errors).toHaveProperty(kind);
  });

  it.each([
    [{ kind: "recordSize", detail: { size: 28, length: 30 } } as const, { key: "device.recordSize", values: { size: 28, length: 30 } }],
    [{ kind: "notManualBloodRecords", detail: { length: 28 } } as const, { key: "device.notManualBloodRecords", values: { length: 28 } }],
    [{ kind: "sureSameDevice" } as const, { key: "device.sureSameDevice", values: {} }],
    [{ kind: "cgmPda" } as const, { key: "errors.cgmPda", values: {} }],
  ])("%j", (error, message) => {
    expect(messageOf(error)).toEqual(message);
  });
});
