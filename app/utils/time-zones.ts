/**
 * The time-zone choices of the health record: the runtime's IANA zones plus UTC, each with its
 * current GMT offset ("Europe/Warsaw (GMT+01:00)"), sorted by name so that typing in the select
 * finds a zone. Offsets change with daylight saving time, so the list is rebuilt every 15 minutes.
 */
export type TimeZoneChoice = { value: string; label: string };

let cache: { until: number; list: TimeZoneChoice[] } | undefined;

export function gmtOffset(zone: string, at = new Date()): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName");
  const text = part?.value ?? "GMT";
  return text === "GMT" ? "GMT+00:00" : text;
}

export function timeZoneChoices(now = new Date()): TimeZoneChoice[] {
  if (cache && cache.until > now.getTime()) return cache.list;
  const zones = new Set<string>(["UTC", ...Intl.supportedValuesOf("timeZone")]);
  const list = [...zones]
    .sort((a, b) => a.localeCompare(b))
    .map((value) => ({ value, label: `${value.replace(/_/g, " ")} (${gmtOffset(value, now)})` }));
  cache = { until: now.getTime() + 15 * 60_000, list };
  return list;
}

/** The choices with `current` among them even when this runtime does not list it (an alias). */
export function timeZoneChoicesWith(
  current: string | undefined,
  now = new Date(),
): TimeZoneChoice[] {
  const list = timeZoneChoices(now);
  if (!current || list.some((z) => z.value === current)) return list;
  return [
    { value: current, label: `${current.replace(/_/g, " ")} (${gmtOffset(current, now)})` },
    ...list,
  ];
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
