import { describe, expect, it } from "vitest";
import { createAidexLink } from "./aidex-link";
import { scripted } from "./simulator/scripted";

const u32 = (value: number) =>
  Uint8Array.of(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24);

describe("createAidexLink", () => {
  // Expected requests computed apart from this code: CRC-8/MAXIM (reflected 0x8C) over header bytes 0-2 and 4-7, MD5 by Python's hashlib.
  it("sends the finger-prick count, finger-prick record and history requests as defined", async () => {
    const record = Uint8Array.of(7, 0, 0, 0, 26, 7, 1, 8, 30, 0, 61, 0);
    const { transport, writes } = scripted([u32(6), record, new Uint8Array(0), new Uint8Array(0)]);
    const link = createAidexLink(transport);
    expect(await link.readManualCount()).toBe(6);
    expect(await link.readManualRecord(5)).toEqual({
      eventIndex: 7,
      deviceTime: "2026-07-01 08:30:00",
      rawGlucose: 61,
      eventType: 0,
      dataOrigin: 3,
    });
    expect(await link.readHistory(-1)).toEqual([]);
    expect(await link.readHistory(870)).toEqual([]);
    expect(writes).toEqual([
      "2b2b0322022a140000002b2b00000000f1d3ff8443297732862df21dc4e57262",
      "2b2b0323021d140000002b2b05000000cbe23d9655fccd4311acdd6261c81bd8",
      "2b2b03240298140000002b2bffffffffa54f0041a9e15b050f25c463f1db7449",
      "2b2b03240298140000002b2b660300009ddc29f5ad6db42ef97e8d04d935167a",
    ]);
  });

  it("a finger-prick reply that is not 12-byte records is an Equil pump handheld; an empty or double one a read failure", async () => {
    await expect(
      createAidexLink(scripted([new Uint8Array(28)]).transport).readManualRecord(0),
    ).rejects.toMatchObject({ failure: "equilPumpPda", step: "manualRecord" });
    await expect(
      createAidexLink(scripted([new Uint8Array(0)]).transport).readManualRecord(0),
    ).rejects.toMatchObject({ failure: "deviceReadFailed" });
    await expect(
      createAidexLink(scripted([new Uint8Array(24)]).transport).readManualRecord(0),
    ).rejects.toMatchObject({ failure: "deviceReadFailed" });
  });

  it("a count that is not 4 bytes and a history that is not whole 22-byte records fail with 'deviceReadFailed'", async () => {
    await expect(
      createAidexLink(scripted([new Uint8Array(2)]).transport).readManualCount(),
    ).rejects.toMatchObject({ failure: "deviceReadFailed", step: "manualCount" });
    await expect(
      createAidexLink(scripted([new Uint8Array(23)]).transport).readHistory(-1),
    ).rejects.toMatchObject({ failure: "deviceReadFailed", step: "history" });
  });
});
