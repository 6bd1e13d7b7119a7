/**
 * Dates, times and durations as a reader of the page's language writes them, from the runtime's
 * locale data (Intl), so that they need no translation (docs/decisions/022-dates-in-the-locale.md):
 *
 * - a date: the language's medium form, with the month's short name, so that day and month cannot
 *   be swapped: "Nov 25, 2026", "25 lis 2026", "25 нояб. 2026 г.", "25 nov 2026", "25 nov. 2026";
 * - a range of dates: one range in the language's form: "Nov 1 – 14, 2026", "1–14 lis 2026";
 * - a day and month only, where the year stands in a heading nearby: "Nov 25", "25 lis";
 * - an instant on the clock of a time zone: the date as above and the 24-hour time:
 *   "Nov 25, 2026, 16:04" (with seconds "…, 16:04:05").
 *
 * A date field, a link's query and the API keep the fixed "YYYY/MM/DD" (day.ts `displayDate`):
 * these forms are for reading only. Dates are calendar days already in the patient's zone; an
 * instant is written on the clock of the zone the caller names. An unknown language writes "en".
 */
import type { IsoDate } from "./day";

const formats = new Map<string, Intl.DateTimeFormat>();

/** A cached Intl.DateTimeFormat; a language the runtime refuses falls back to "en". */
function dateTimeFormat(
  locale: string,
  name: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${name}|${options.timeZone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(locale, options);
    } catch {
      format = new Intl.DateTimeFormat("en", options);
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * The text with every run of spaces as one plain space. Runtimes write the same forms but not
 * the same spaces (Node a thin or narrow no-break space around a range's dash, Chromium a plain
 * one); a text made on the server must read the same after the browser renders it again.
 */
function spaced(text: string): string {
  return text.replace(/\s+/g, " ");
}

/** Midnight UTC of a calendar date: formatted in UTC, it is that date in every zone. */
function utcMidnight(date: IsoDate): Date {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) throw new RangeError(`not an ISO date: ${JSON.stringify(date)}`);
  return at;
}

const mediumDate = (locale: string) =>
  dateTimeFormat(locale, "date", { dateStyle: "medium", timeZone: "UTC" });

/** A calendar date in the language's medium form: "Nov 25, 2026", "25 lis 2026". */
export function formatDate(date: IsoDate, locale: string): string {
  return spaced(mediumDate(locale).format(utcMidnight(date)));
}

/**
 * Two calendar dates as one range, parts they share written once: "Nov 1 – 14, 2026",
 * "20 окт. – 14 нояб. 2026 г."; the same date twice is that date alone.
 */
export function formatDateRange(from: IsoDate, to: IsoDate, locale: string): string {
  return spaced(mediumDate(locale).formatRange(utcMidnight(from), utcMidnight(to)));
}

/** The weekday of a calendar date: "Wednesday", "środa", "среда". */
export function formatWeekday(date: IsoDate, locale: string): string {
  return spaced(
    dateTimeFormat(locale, "weekday", { weekday: "long", timeZone: "UTC" }).format(
      utcMidnight(date),
    ),
  );
}

/** A day and the month's short name, without the year: "Nov 25", "25 lis", "25 нояб.". */
export function formatDayMonth(date: IsoDate, locale: string): string {
  return spaced(
    dateTimeFormat(locale, "dayMonth", { day: "numeric", month: "short", timeZone: "UTC" }).format(
      utcMidnight(date),
    ),
  );
}

/**
 * An instant (epoch ms) on the clock of `timeZone`: the medium date and the 24-hour time,
 * "Nov 25, 2026, 16:04", with `seconds` "Nov 25, 2026, 16:04:05". A 24-hour clock in every
 * language, as the times of the records and reports are written.
 */
export function formatDateTime(
  at: number,
  timeZone: string,
  locale: string,
  { seconds = false } = {},
): string {
  return spaced(
    dateTimeFormat(locale, seconds ? "dateTimeSeconds" : "dateTime", {
      dateStyle: "medium",
      timeStyle: seconds ? "medium" : "short",
      hourCycle: "h23",
      timeZone,
    }).format(at),
  );
}

/** The period's first and last day as one localised range of dates, e.g. "March 3 – 16, 2025". */
export function formatPeriod(from: IsoDate, to: IsoDate, locale: string): string {
  return spaced(
    dateTimeFormat(locale, "period", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).formatRange(utcMidnight(from), utcMidnight(to)),
  );
}

/** Whole minutes as the language's short hours and minutes: "0 min", "58 min", "1 hr 12 min", "24 hr". */
export function formatMinutes(minutes: number, locale: string): string {
  const unit = (value: number, name: "hour" | "minute") =>
    new Intl.NumberFormat(locale, { style: "unit", unit: name, unitDisplay: "short" }).format(
      value,
    );
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return unit(rest, "minute");
  if (rest === 0) return unit(hours, "hour");
  return `${unit(hours, "hour")} ${unit(rest, "minute")}`;
}

/**
 * A calendar date and a wall-clock time already on the patient's clock ("HH:mm" or "HH:mm:ss"),
 * written as {@link formatDateTime} writes an instant: "Nov 25, 2026, 16:04".
 */
export function formatDateClock(date: IsoDate, clock: string, locale: string): string {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(clock);
  if (!match) throw new RangeError(`not a clock time: ${JSON.stringify(clock)}`);
  const at = utcMidnight(date).getTime() + (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  return formatDateTime(at + Number(match[3] ?? 0) * 1000, "UTC", locale, {
    seconds: match[3] !== undefined,
  });
}
