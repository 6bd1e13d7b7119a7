/**
 * Texts of the glucose profile page that the runtime's locale data writes, so that they need no
 * translation: the period's dates ("3–16 March 2025", in the language's own order and month
 * names) and the time per day a band's share of the time means ("58 min", "1 hr 12 min").
 * Made on the server (in the loader), so that the page reads the same in every browser.
 */
import type { IsoDate } from "./day";

/** The period's first and last day as one localised range of dates, e.g. "March 3 – 16, 2025". */
export function formatPeriod(from: IsoDate, to: IsoDate, locale: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return format.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
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
