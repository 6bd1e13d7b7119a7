import { describe, expect, it } from "vitest";
import { pumpTimeZones } from "./upload-time-zones";

describe("pumpTimeZones", () => {
  it("lists the handheld's 26 whole-hour zones, UTC-12 to UTC+13, as fixed-offset zones", () => {
    const zones = pumpTimeZones();
    expect(zones).toHaveLength(26);
    expect(zones[0]).toEqual({ offset: -12, offsetName: "GMT-12:00", timezone: "-12:00" });
    expect(zones[7]).toEqual({ offset: -5, offsetName: "GMT-05:00", timezone: "-05:00" });
    expect(zones[12]).toEqual({ offset: 0, offsetName: "GMT+00:00", timezone: "+00:00" });
    expect(zones[20]).toEqual({ offset: 8, offsetName: "GMT+08:00", timezone: "+08:00" });
    expect(zones[25]).toEqual({ offset: 13, offsetName: "GMT+13:00", timezone: "+13:00" });
    expect(zones.map((z) => z.offset)).toEqual(Array.from({ length: 26 }, (_, i) => i - 12));
  });
});
