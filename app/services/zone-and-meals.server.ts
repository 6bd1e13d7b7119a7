import type { Patient } from "@prisma/client";
import { savePatientSettings } from "~/models/patient.server";
import type { Viewer } from "~/models/access.server";
import { readPatient } from "~/services/patient-read.server";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { limitFromMgdl, MEALS, secondsToTime } from "~/schemas/patient";
import { zoneAndMealsForm } from "~/schemas/setting";
import { timeZoneListWith, type ZoneChoice } from "~/utils/time-zones";

type Meal = (typeof MEALS)[number];
type Times = Pick<Patient, "timeZone" | `${Meal}Start` | `${Meal}End`>;

export type ZoneAndMeals = {
  timeZone: string;
  zones: ZoneChoice[];
  /** When the page was made: the zones' current times are shown at this instant. */
  now: number;
  meals: Record<Meal, { start: string; end: string }>;
};

/** What the zone-and-meals form shows for a patient: the zone list, the zone and the meal windows. */
export function zoneAndMealsOf(patient: Times, now: number): ZoneAndMeals {
  const meal = (start: number, end: number) => ({
    start: secondsToTime(start, true),
    end: secondsToTime(end, true),
  });
  return {
    timeZone: patient.timeZone,
    zones: timeZoneListWith(patient.timeZone, now),
    now,
    meals: {
      breakfast: meal(patient.breakfastStart, patient.breakfastEnd),
      lunch: meal(patient.lunchStart, patient.lunchEnd),
      supper: meal(patient.supperStart, patient.supperEnd),
    },
  };
}

/** A glucose target range in the reader's unit, and that unit. */
export type TargetRange = { unit: GlucoseUnit; lowLimit: number; highLimit: number };

/**
 * The signed-in person's own day settings (zone, meal times, glucose target range in `unit`),
 * read through the access gateway (the read is in their access log); null for an account without
 * a health record.
 */
export async function ownDaySettings(
  user: Viewer & { patient: { id: number } | null },
  unit: GlucoseUnit,
): Promise<{ zoneAndMeals: ZoneAndMeals; targetRange: TargetRange } | null> {
  if (!user.patient) return null;
  const read = await readPatient({
    viewer: user,
    pid: user.patient.id,
    purpose: "record",
    channel: "page",
    detail: { page: "settings" },
  });
  if (!read.ok) return null;
  const { patient } = read;
  return {
    zoneAndMeals: zoneAndMealsOf(patient, read.now),
    targetRange: {
      unit,
      lowLimit: limitFromMgdl(patient.lowLimit, unit),
      highLimit: limitFromMgdl(patient.highLimit, unit),
    },
  };
}

export type ZoneAndMealsReply = {
  saved: boolean;
  /** A key of the `settings` namespace. */
  error: string | null;
  /** The fields as typed, sent back with a refusal so that nothing typed is lost. */
  typed: Record<string, string>;
};

/**
 * Saves the zone-and-meals form (`timeZone`, `{meal}Start`, `{meal}End`) for a patient the viewer
 * may change; `null` when the viewer may not (the caller answers 404).
 */
export async function saveZoneAndMeals(
  viewer: Viewer,
  pid: number,
  form: Record<string, FormDataEntryValue>,
): Promise<ZoneAndMealsReply | null> {
  const parsed = zoneAndMealsForm.safeParse(form);
  if (!parsed.success) {
    const typed = Object.fromEntries(
      Object.entries(form).flatMap(([k, v]) =>
        typeof v === "string" ? [[k, v.slice(0, 64)]] : [],
      ),
    );
    return { saved: false, error: parsed.error.issues[0]?.message ?? "errors.mealTime", typed };
  }
  const saved = await savePatientSettings(viewer, { pid, ...parsed.data });
  return saved ? { saved: true, error: null, typed: {} } : null;
}
