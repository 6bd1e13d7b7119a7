/**
 * The insulin pump handheld keeps its time zone as a whole-hour offset from UTC, written in a
 * zone string such as "GMT+08:00": the sign and the two digits of the hours are characters 3 to 6
 * of that string (0-based, end excluded). Handhelds offer UTC-12 to UTC+13 (26 zones).
 */
export const PUMP_ZONE_MIN_HOURS = -12;
export const PUMP_ZONE_MAX_HOURS = 13;

/** The handheld's offset in hours, or null when the string names no offset the handheld offers. */
export function pumpZoneOffset(text: string): number | null {
  const m = /^([+-])(\d\d)$/.exec(text.slice(3, 6));
  if (!m) return null;
  const hours = (m[1] === "-" ? -1 : 1) * Number(m[2]);
  return hours >= PUMP_ZONE_MIN_HOURS && hours <= PUMP_ZONE_MAX_HOURS ? hours : null;
}

/** The fixed-offset zone ("+08:00", "-05:00") of a handheld zone string, or null. */
export function pumpTimeZone(text: string): string | null {
  const hours = pumpZoneOffset(text);
  if (hours === null) return null;
  return `${hours < 0 ? "-" : "+"}${String(Math.abs(hours)).padStart(2, "0")}:00`;
}
