import { Temporal } from "temporal-polyfill";
import { PUMP_ZONE_MAX_HOURS, PUMP_ZONE_MIN_HOURS, pumpTimeZone } from "./device-zone";

/**
 * The time zones the device-upload wizard offers: the world's main UTC offsets (one or two places
 * each, the half-hour zones of Iran and India included) and the product's markets (Poland, Italy,
 * Romania, Russia, the United Kingdom, the United States). A place's offset is never stored here:
 * it is worked out for the moment of asking, so that daylight saving time moves it.
 */
export const UPLOAD_TIME_ZONES = [
  { timezone: "Pacific/Pago_Pago", name: "Pago Pago" },
  { timezone: "Pacific/Honolulu", name: "Honolulu" },
  { timezone: "America/Anchorage", name: "Anchorage" },
  { timezone: "America/Los_Angeles", name: "Los Angeles" },
  { timezone: "America/Denver", name: "Denver" },
  { timezone: "America/Chicago", name: "Chicago" },
  { timezone: "America/Mexico_City", name: "Mexico City" },
  { timezone: "America/New_York", name: "New York" },
  { timezone: "America/Halifax", name: "Halifax" },
  { timezone: "America/Sao_Paulo", name: "São Paulo" },
  { timezone: "America/Argentina/Buenos_Aires", name: "Buenos Aires" },
  { timezone: "Atlantic/Azores", name: "Azores" },
  { timezone: "UTC", name: "Coordinated Universal Time" },
  { timezone: "Europe/London", name: "London" },
  { timezone: "Africa/Lagos", name: "Lagos" },
  { timezone: "Europe/Rome", name: "Rome" },
  { timezone: "Europe/Warsaw", name: "Warsaw" },
  { timezone: "Europe/Bucharest", name: "Bucharest" },
  { timezone: "Africa/Cairo", name: "Cairo" },
  { timezone: "Europe/Moscow", name: "Moscow" },
  { timezone: "Asia/Tehran", name: "Tehran" },
  { timezone: "Asia/Dubai", name: "Dubai" },
  { timezone: "Asia/Karachi", name: "Karachi" },
  { timezone: "Asia/Kolkata", name: "Kolkata" },
  { timezone: "Asia/Dhaka", name: "Dhaka" },
  { timezone: "Asia/Bangkok", name: "Bangkok" },
  { timezone: "Asia/Shanghai", name: "Shanghai" },
  { timezone: "Asia/Tokyo", name: "Tokyo" },
  { timezone: "Australia/Sydney", name: "Sydney" },
  { timezone: "Pacific/Noumea", name: "Nouméa" },
  { timezone: "Pacific/Auckland", name: "Auckland" },
] as const;

export type UploadTimeZone = { timezone: string; name: string; offsetName: string; offset: number };
export type PumpTimeZoneChoice = { offset: number; offsetName: string; timezone: string };

/** The wizard's zones with their offsets at `now` (minutes east of UTC, and as "GMT+01:00"), sorted by offset, then by name. */
export function uploadTimeZones(now = Date.now()): UploadTimeZone[] {
  const at = Temporal.Instant.fromEpochMilliseconds(now);
  return UPLOAD_TIME_ZONES.map(({ timezone, name }) => {
    const zoned = at.toZonedDateTimeISO(timezone);
    return {
      timezone,
      name,
      offsetName: `GMT${zoned.offset}`,
      offset: zoned.offsetNanoseconds / 60_000_000_000,
    };
  }).sort((a, b) => a.offset - b.offset || a.name.localeCompare(b.name, "en"));
}

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
