/**
 * The insulin pump handheld stores its time zone as a whole-hour offset from UTC inside a zone
 * string such as "GMT+08:00" or "UTC+13": the sign and the two digits of the hours are the
 * characters 3 to 6 of that string (0-based, end excluded). The handheld offers UTC-12 to UTC+13,
 * 26 zones. The server reads such a zone as the fixed-offset zone "+08:00" (Temporal's offset
 * time zone id), never as a named zone: the handheld knows no daylight-saving rules.
 */
export const PUMP_ZONE_MIN_HOURS = -12;
export const PUMP_ZONE_MAX_HOURS = 13;

const SIGNED_HOURS = /^([+-])(\d{2})$/;

/** The handheld's offset in whole hours, or null when the string names no offset the handheld offers. */
export function pumpZoneOffset(text: string): number | null {
  const match = SIGNED_HOURS.exec(text.substring(3, 6));
  if (!match) return null;
  const hours = Number(match[2]);
  if (hours === 0) return 0;
  const signed = match[1] === "-" ? -hours : hours;
  return signed >= PUMP_ZONE_MIN_HOURS && signed <= PUMP_ZONE_MAX_HOURS ? signed : null;
}

/** The fixed-offset zone id ("+08:00", "-05:00", "+00:00") of a handheld zone string, or null. */
export function pumpTimeZone(text: string): string | null {
  const hours = pumpZoneOffset(text);
  if (hours === null) return null;
  return `${hours < 0 ? "-" : "+"}${String(Math.abs(hours)).padStart(2, "0")}:00`;
}
