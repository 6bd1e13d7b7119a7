import { PUMP_ZONE_MAX_HOURS, PUMP_ZONE_MIN_HOURS, pumpTimeZone } from "./device-zone";

export type PumpTimeZoneChoice = { offset: number; offsetName: string; timezone: string };

/**
 * The handheld's 26 zones, UTC-12 to UTC+13 in whole hours: `offsetName` is the zone string the
 * handheld stores ("GMT+08:00"), `timezone` the fixed-offset zone the server reads it as.
 */
export function pumpTimeZones(): PumpTimeZoneChoice[] {
  const list: PumpTimeZoneChoice[] = [];
  for (let hours = PUMP_ZONE_MIN_HOURS; hours <= PUMP_ZONE_MAX_HOURS; hours++) {
    const offsetName = `GMT${hours < 0 ? "-" : "+"}${String(Math.abs(hours)).padStart(2, "0")}:00`;
    list.push({ offset: hours, offsetName, timezone: pumpTimeZone(offsetName)! });
  }
  return list;
}
