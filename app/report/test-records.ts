import type { PumpHistoryRecord } from "./pump-records";

/**
 * Options of {@link pumpRecord}: rates in U/h (converted to raw 0.00625 steps), event code, `bg`:
 * the mg/dL a BG record holds in basalRateRaw, and `carbs`: the raw carbohydrate value a
 * carbohydrate record holds in bolusRateRaw.
 */
export type PumpRecordOptions = {
  basal?: number;
  bolus?: number;
  port?: number;
  type?: number;
  urgency?: number;
  value?: number;
  bg?: number;
  carbs?: number;
  battery?: number;
  reservoir?: number;
};

/** A pump history record for tests: a basal event (4/0/0) unless another code is given. */
export function pumpRecord(time: number, o: PumpRecordOptions = {}): PumpHistoryRecord {
  return {
    dateTime: time,
    eventPort: o.port ?? 4,
    eventType: o.type ?? 0,
    eventUrgency: o.urgency ?? 0,
    eventValue: o.value ?? 0,
    basalRateRaw: o.bg ?? Math.round((o.basal ?? 0) / 0.00625),
    bolusRateRaw: o.carbs ?? Math.round((o.bolus ?? 0) / 0.00625),
    battery: o.battery ?? 80,
    reservoir: o.reservoir ?? 150,
  };
}
