import {
  alarmOf,
  CALCULATOR_CONFIRMED,
  CALCULATOR_SUGGESTED,
  CALCULATOR_UNIT_STEP,
  isCarbRecord,
  type PumpAlarmKind,
} from "~/report/pump-records";
import { carbGrams, compareVersions, parseFirmwareVersion } from "~/report/pump-carbs";

/**
 * The rules that turn the handheld's history records into stored data (pure: no database).
 *
 * Firmware: the version must read x.y.z; a version starting with "1." is a CGM handheld, not a
 * pump; pump firmware older than 5.0.0 is not supported.
 */
export const MIN_PUMP_FIRMWARE = "5.0.0";

/** The software of the Microtech CGM handheld (AiDEX) reads "1.x"; pump handhelds 5.x. */
export const CGM_HANDHELD_VERSION_PREFIX = "1.";

export function isCgmHandheldVersion(text: string | undefined): boolean {
  return (text ?? "").trim().startsWith(CGM_HANDHELD_VERSION_PREFIX);
}

export type VersionProblem =
  "errors.cgmPda" | "errors.versionFormat" | "errors.wrongSoftwareVersion";

export function checkPumpVersion(
  text: string | undefined,
): { ok: true; version: string } | { ok: false; key: VersionProblem } {
  const trimmed = (text ?? "").trim();
  if (isCgmHandheldVersion(trimmed)) return { ok: false, key: "errors.cgmPda" };
  const version = parseFirmwareVersion(trimmed);
  if (!version) return { ok: false, key: "errors.versionFormat" };
  if (compareVersions(version, parseFirmwareVersion(MIN_PUMP_FIRMWARE)!) < 0)
    return { ok: false, key: "errors.wrongSoftwareVersion" };
  return { ok: true, version: version.text };
}

/**
 * The event codes (port/type) the server knows. A record with any other code refuses the upload:
 * storing a record nobody can read would hide data. Port 0 types 4-7 are the bolus calculator's
 * steps; port 3 holds BG (0) and carbohydrate (1); port 4 delivery events; port 5 power alarms.
 */
export const KNOWN_PUMP_EVENTS: ReadonlyMap<number, ReadonlySet<number>> = new Map([
  [0, new Set([4, 5, 6, 7])],
  [3, new Set([0, 1])],
  [4, new Set([0, 1, 2, 3, 5, 6, 7, 8])],
  [5, new Set([0])],
]);

export function isKnownPumpEvent(port: number, type: number): boolean {
  return KNOWN_PUMP_EVENTS.get(port)?.has(type) ?? false;
}

/** BG entered on the handheld (port 3 type 0, mg/dL in basalRateRaw): the values a meter can show. */
export const PUMP_BG_MIN_MGDL = 10;
export const PUMP_BG_MAX_MGDL = 600;

/**
 * The bolus calculator logs its steps as port 0 records: type 4 the BG it used (mg/dL), 5 the
 * carbohydrate (g), 6 the bolus it suggested and 7 the bolus confirmed, both in bolusRateRaw as
 * hundredths of a unit. A run of these records in rising type order, one after the other in the
 * device's order, is one calculation; when its confirmed bolus differs from the suggestion by more
 * than 2 U the whole run is flagged (kept, and marked in the views).
 */
export const BOLUS_CHECK_TOLERANCE_U = 2;
const CALCULATOR_PORT = 0;

export type CalculatorRecord = {
  recordId: number;
  eventPort: number;
  eventType: number;
  bolusRateRaw: number;
};

/** Follows the records in device order and answers the record ids of inconsistent calculations. */
export class BolusCheck {
  private run: CalculatorRecord[] = [];
  private readonly flagged: number[] = [];

  add(recordId: number, eventPort: number, eventType: number, bolusRateRaw: number): void {
    const calculator = eventPort === CALCULATOR_PORT && eventType >= 4 && eventType <= 7;
    if (!calculator && this.run.length === 0) return;
    const last = this.run[this.run.length - 1];
    if (!calculator || (last && eventType <= last.eventType)) this.close();
    if (calculator) this.run.push({ recordId, eventPort, eventType, bolusRateRaw });
  }

  /** Ends the last run; answers every flagged record id so far. */
  finish(): number[] {
    this.close();
    return this.flagged;
  }

  private close() {
    const suggested = this.run.find((r) => r.eventType === CALCULATOR_SUGGESTED);
    const confirmed = this.run.find((r) => r.eventType === CALCULATOR_CONFIRMED);
    if (
      suggested &&
      confirmed &&
      Math.abs(confirmed.bolusRateRaw - suggested.bolusRateRaw) * CALCULATOR_UNIT_STEP >
        BOLUS_CHECK_TOLERANCE_U
    ) {
      this.flagged.push(...this.run.map((r) => r.recordId));
    }
    this.run = [];
  }
}

/** What a history record adds beyond itself: a carbohydrate entry (the handheld's 3/1 log) or an alarm. */
export type PumpDerived = {
  carbGrams: number | null;
  alarm: Exclude<PumpAlarmKind, "rewind" | "prime"> | null;
};

/**
 * Carbohydrate grams are in bolusRateRaw (values above 255 occur), under the carbohydrate rules:
 * handhelds older than 5.2.0 store ten times the grams; a value still above 200 g is ten times too
 * large. Rewinds and primes are events, not alarms.
 */
export function derivePumpRecord(
  r: { eventPort: number; eventType: number; eventUrgency: number; bolusRateRaw: number },
  version: string | null,
): PumpDerived {
  const carb =
    r.eventPort === 3 && r.eventType === 1 && isCarbRecord(r)
      ? carbGrams(r.bolusRateRaw, version).grams
      : null;
  const alarm = alarmOf(r);
  return {
    carbGrams: carb !== null && carb > 0 ? carb : null,
    alarm: alarm && alarm.kind !== "rewind" && alarm.kind !== "prime" ? alarm.kind : null,
  };
}

/** The carbohydrate rules leave at most 200 g; a larger value after them is not a real meal. */
export const CARB_MAX_G = 200;
