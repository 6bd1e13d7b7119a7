import { describe, expect, it } from "vitest";
import { createEquilLink } from "./equil-link";
import { DeviceFault } from "./pump-upload";
import { scripted } from "./simulator/scripted";

describe("createEquilLink", () => {
  // Expected requests computed apart from this code: CRC-8/MAXIM (reflected 0x8C) over header bytes 0-2 and 4-7, MD5 by Python's hashlib.
  it("sends the password, version, CGM and zone requests as defined", async () => {
    const { transport, writes } = scripted([
      Uint8Array.of(1),
      new TextEncoder().encode("5.3.0\0"),
      new Uint8Array(0),
      new TextEncoder().encode("GMT+01:00\0"),
    ]);
    const link = createEquilLink(transport);
    expect(await link.sendPassword("123456")).toBe(true);
    expect(await link.readVersion()).toBe("5.3.0");
    expect(await link.readCgmRecords()).toEqual([]);
    expect(await link.readTimeZone()).toBe("GMT+01:00");
    expect(writes).toEqual([
      "2b2b000a027d160000002b2b313233343536e10adc3949ba59abbe56e057f20f883e",
      "2b2b00010282140000002b2b00000000f1d3ff8443297732862df21dc4e57262",
      "2b2b0320024a100000002b2bd41d8cd98f00b204e9800998ecf8427e",
      "2b2b05020212140000002b2b00000000f1d3ff8443297732862df21dc4e57262",
    ]);
  });

  it("a password reply other than 1 is a refusal", async () => {
    expect(
      await createEquilLink(scripted([Uint8Array.of(0)]).transport).sendPassword("123456"),
    ).toBe(false);
    expect(
      await createEquilLink(scripted([Uint8Array.of(2)]).transport).sendPassword("123456"),
    ).toBe(false);
  });

  it("a device that answers empty reads forever ends at the loop guard with 'deviceReadFailed'", async () => {
    const { transport, reads } = scripted([]);
    await expect(createEquilLink(transport).readVersion()).rejects.toMatchObject({
      failure: "deviceReadFailed",
      step: "version",
    });
    // The frame reader's guard: 102,400 reads may pass without a frame; the next one stops it.
    expect(reads()).toBe(102_401);
  });

  it("a zone string that is not GMT±hh:mm and a serial number that is not one fail with 'settingsReadFailed'", async () => {
    await expect(
      createEquilLink(scripted([new TextEncoder().encode("Europe/Rome")]).transport).readTimeZone(),
    ).rejects.toMatchObject({ failure: "settingsReadFailed" });
    await expect(
      createEquilLink(scripted([new TextEncoder().encode("EQ 1")]).transport).readSerial(),
    ).rejects.toMatchObject({ failure: "settingsReadFailed" });
  });

  it("a history that is not whole 28-byte records fails with 'deviceReadFailed'", async () => {
    await expect(
      createEquilLink(scripted([new Uint8Array(29)]).transport).readHistory(),
    ).rejects.toMatchObject({ failure: "deviceReadFailed", step: "history" });
  });

  it("a basal program without a name is called 'Program n', n counting from 1", async () => {
    const rates = new Uint8Array(96);
    rates[0] = 64;
    expect(await createEquilLink(scripted([rates]).transport).readBasalProgram(2)).toEqual({
      settingIndex: 2,
      valueArray: [64, ...Array(47).fill(0)],
      name: "Program 3",
    });
  });

  it("a transport that cannot be opened fails with 'deviceOpenFailed'", async () => {
    const opening = createEquilLink(scripted([], { failOpen: true }).transport).open();
    await expect(opening).rejects.toBeInstanceOf(DeviceFault);
    await expect(opening).rejects.toMatchObject({ failure: "deviceOpenFailed" });
  });
});
