import { Temporal } from "temporal-polyfill";

/**
 * The time zones a person chooses from (the health record, the settings, the upload centre, the
 * CSV import): the world's main UTC offsets (one or two places
 * each, the half-hour zones of Iran and India included) and the product's markets (Poland, Italy,
 * Romania, Russia, the United Kingdom, the United States). A place's offset is never stored here:
 * it is worked out for the moment of asking, so that daylight saving time moves it.
 */
export const TIME_ZONES = [
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

const LISTED_ZONES: ReadonlySet<string> = new Set(TIME_ZONES.map((z) => z.timezone));

/** Whether `zone` is one of the 31 zones offered (its IANA id exactly). */
export function isListedZone(zone: string): boolean {
  return LISTED_ZONES.has(zone);
}

/** The zone shown when an account has none: Coordinated Universal Time. */
export const DEFAULT_ACCOUNT_ZONE = "UTC";

/**
 * The zone an account reads its own times in (when something was sent, reported or printed; not a
 * patient's data, which is always read in the patient's zone): a person with a health record, the
 * record's zone; an account without one, the zone it chose, if that is one of the 31; else UTC.
 */
export function accountZone(account: {
  patient: { timeZone: string } | null;
  setting: { timeZone: string | null } | null;
}): string {
  if (account.patient) return account.patient.timeZone;
  const chosen = account.setting?.timeZone;
  return chosen && isListedZone(chosen) ? chosen : DEFAULT_ACCOUNT_ZONE;
}

export type ZoneChoice = { timezone: string; name: string; offsetName: string; offset: number };
export type PumpTimeZoneChoice = { offset: number; offsetName: string; timezone: string };

/** The zones with their offsets at `now` (minutes east of UTC, and as "GMT+01:00"), sorted by offset, then by name. */
export function timeZoneList(now = Date.now()): ZoneChoice[] {
  const at = Temporal.Instant.fromEpochMilliseconds(now);
  return TIME_ZONES.map(({ timezone, name }) => {
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
 * The list with `current` in it even when it is not one of the 31 (a zone saved before, or sent
 * through the API): first, under its IANA name.
 */
export function timeZoneListWith(current: string | undefined, now = Date.now()): ZoneChoice[] {
  const list = timeZoneList(now);
  if (!current || list.some((z) => z.timezone === current) || !isTimeZone(current)) return list;
  const zoned = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(current);
  return [
    {
      timezone: current,
      name: current.replace(/_/g, " "),
      offsetName: `GMT${zoned.offset}`,
      offset: zoned.offsetNanoseconds / 60_000_000_000,
    },
    ...list,
  ];
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** "08:30": the time in a zone at `now`, on a 24-hour clock. */
export function clockIn(zone: string, now: number, locale: string): string {
  const key = `${locale} ${zone}`;
  let format = clockFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    clockFormats.set(key, format);
  }
  return format.format(now);
}

export type TimeZoneOption = { value: string; label: string };

/** The zones as the options of a select, `current` among them. */
export function timeZoneOptions(
  current: string | undefined,
  now: number,
  locale: string,
): TimeZoneOption[] {
  return timeZoneListWith(current, now).map((zone) => ({
    value: zone.timezone,
    label: zoneLabel(zone, now, locale),
  }));
}

/** How a zone is offered: "(GMT+01:00) Warsaw — 08:30", its offset, its name and the time there now. */
export function zoneLabel(zone: ZoneChoice, now: number, locale: string): string {
  return `(${zone.offsetName}) ${zone.name} — ${clockIn(zone.timezone, now, locale)}`;
}

/** Whether the runtime knows this IANA time zone (aliases such as "Europe/Kiev" included). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
