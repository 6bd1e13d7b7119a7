import type { PumpHistoryRecord } from "./pump-day";

/**
 * Options of {@link pumpRecord}: rates in U/h (converted to raw 0.00625 steps), event code, raw
 * statusShort0, and `carbs`: the raw carbohydrate value a carbohydrate record holds in statusShort1.
 */
export type PumpRecordOptions = {
  basal?: number;
  bolus?: number;
  port?: number;
  type?: number;
  urgency?: number;
  value?: number;
  s0?: number;
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
    statusShort0: o.s0 ?? Math.round((o.basal ?? 0) / 0.00625),
    statusShort1: o.carbs ?? Math.round((o.bolus ?? 0) / 0.00625),
    statusByte0: o.battery ?? 80,
    statusByte1: o.reservoir ?? 150,
  };
}
