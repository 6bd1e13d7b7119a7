import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { zoneLabel, type ZoneChoice } from "~/utils/time-zones";

/**
 * The instant the zone labels show: `start` (when the page was made, so that the document and the
 * hydrated page agree), then, with JavaScript, the current time every 30 s.
 */
export function useZoneClock(start: number): number {
  const [now, setNow] = useState(start);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The zones as the options of a select: "(GMT+01:00) Warsaw — 14:05", the time there at `now`. */
export function ZoneOptions({ zones, now }: { zones: readonly ZoneChoice[]; now: number }) {
  const { i18n } = useTranslation();
  return (
    <>
      {zones.map((zone) => (
        <option key={zone.timezone} value={zone.timezone}>
          {zoneLabel(zone, now, i18n.language)}
        </option>
      ))}
    </>
  );
}
