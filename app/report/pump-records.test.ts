import { describe, expect, it } from "vitest";
import { alarmOf, carriesBasalRate, carriesBolusRate, carriesRates } from "./pump-records";

describe("event codes", () => {
  const code = (port: number, type: number, urgency: number) =>
    alarmOf({ eventPort: port, eventType: type, eventUrgency: urgency });
  it("maps the handheld's event codes to kinds", () => {
    expect(code(4, 1, 1)).toEqual({ kind: "low_insulin", severity: "warning" });
    expect(code(4, 1, 2)).toEqual({ kind: "no_insulin", severity: "alarm" });
    expect(code(4, 2, 0)?.kind).toBe("occlusion");
    expect(code(4, 3, 2)?.kind).toBe("occlusion");
    expect(code(4, 5, 0)).toEqual({ kind: "suspend", severity: "event" });
    expect(code(4, 6, 2)).toEqual({ kind: "auto_off", severity: "alarm" });
    expect(code(5, 0, 1)).toEqual({ kind: "low_power", severity: "warning" });
    expect(code(5, 0, 2)).toEqual({ kind: "no_power", severity: "alarm" });
    expect(code(4, 8, 0)?.kind).toBe("rewind");
    expect(code(4, 7, 3)?.kind).toBe("prime");
  });

  it("other codes are not alarms", () => {
    expect(code(4, 0, 0)).toBeNull(); // basal
    expect(code(4, 6, 1)).toBeNull();
    expect(code(5, 0, 0)).toBeNull();
    expect(code(3, 1, 0)).toBeNull();
  });

  it("BG records carry no basal rate, carbohydrate records no bolus rate, calculator records neither", () => {
    expect(carriesBasalRate({ eventPort: 3, eventType: 0 })).toBe(false);
    expect(carriesBasalRate({ eventPort: 3, eventType: 1 })).toBe(true);
    expect(carriesBasalRate({ eventPort: 4, eventType: 0 })).toBe(true);
    expect(carriesBasalRate({ eventPort: 0, eventType: 6 })).toBe(false);
    expect(carriesBolusRate({ eventPort: 3, eventType: 1 })).toBe(false);
    expect(carriesBolusRate({ eventPort: 0, eventType: 5 })).toBe(false);
    expect(carriesBolusRate({ eventPort: 3, eventType: 0 })).toBe(true);
    expect(carriesBolusRate({ eventPort: 4, eventType: 8 })).toBe(true);
    expect(
      [
        [4, 0],
        [4, 8],
        [5, 0],
      ].every(([p, t]) => carriesRates({ eventPort: p!, eventType: t! })),
    ).toBe(true);
    expect(
      [
        [3, 0],
        [3, 1],
        [0, 7],
      ].some(([p, t]) => carriesRates({ eventPort: p!, eventType: t! })),
    ).toBe(false);
  });
});
