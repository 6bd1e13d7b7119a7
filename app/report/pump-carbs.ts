/**
 * The handheld's firmware versions and the carbohydrate rules that depend on them: handhelds below
 * 5.2.0 store ten times the grams, and a value still above 200 g is ten times too large.
 */

/** Carbohydrate limit, g: a value above it is taken as ten times too large. */
export const CARB_LIMIT_G = 200;
/** Handheld versions below this store carbohydrate x 10. */
export const CARB_VERSION_THRESHOLD = "5.2.0";
/**
 * The special handheld versions 5.0.10 and 5.0.3C. They are known only as special next to the
 * 5.2.0 threshold, without saying how; a plain numeric comparison would already put both below
 * 5.2.0, so naming them only makes sense as exceptions.
 * Decision: they are treated as the newer carbohydrate encoding (no division by 10 for the
 * version); the > 200 g rule still applies. A correction is a one-line change here.
 */
export const CARB_SPECIAL_VERSIONS: readonly string[] = ["5.0.10", "5.0.3C"];

/** A handheld version "x.y.z" with an optional letter suffix ("5.0.3C"). */
export interface FirmwareVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly suffix: string;
  readonly text: string;
}

/** Parses "x.y.z" (optional leading "v", optional letter suffix); null for anything else. */
export function parseFirmwareVersion(text: string | null | undefined): FirmwareVersion | null {
  if (typeof text !== "string") return null;
  const m = /^v?(\d+)\.(\d+)\.(\d+)([A-Za-z]*)$/i.exec(text.trim());
  if (!m) return null;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    suffix: m[4]!.toUpperCase(),
    text: text.trim(),
  };
}

/** Numeric comparison part by part (5.0.10 > 5.0.9); equal numbers: no suffix sorts first. */
export function compareVersions(a: FirmwareVersion, b: FirmwareVersion): number {
  return (
    a.major - b.major ||
    a.minor - b.minor ||
    a.patch - b.patch ||
    (a.suffix < b.suffix ? -1 : a.suffix > b.suffix ? 1 : 0)
  );
}

/**
 * How a handheld version stores carbohydrate: "x10" (below 5.2.0: divide by 10), "grams"
 * (5.2.0 and later, and the special versions), or "unknown" (no version, or not x.y.z: only the
 * > 200 g rule applies).
 */
export type CarbEncoding = "x10" | "grams" | "unknown";

export function carbEncodingOf(version: string | null | undefined): CarbEncoding {
  const v = parseFirmwareVersion(version);
  if (v === null) return "unknown";
  if (CARB_SPECIAL_VERSIONS.some((s) => s.toUpperCase() === v.text.toUpperCase().replace(/^V/, "")))
    return "grams";
  return compareVersions(v, parseFirmwareVersion(CARB_VERSION_THRESHOLD)!) < 0 ? "x10" : "grams";
}

/** Grams of one carbohydrate event and which rules changed it. */
export interface CarbValue {
  readonly grams: number;
  /** Divided by 10 because the handheld is older than 5.2.0. */
  readonly byVersion: boolean;
  /** Divided by 10 because the value was still above 200 g. */
  readonly byLimit: boolean;
}

/**
 * The carbohydrate rules: values from handhelds below 5.2.0 are divided by 10; a value still
 * above 200 is ten times too large and divided by 10 (once).
 */
export function carbGrams(raw: number, version: string | null | undefined): CarbValue {
  const byVersion = carbEncodingOf(version) === "x10";
  let grams = byVersion ? raw / 10 : raw;
  const byLimit = grams > CARB_LIMIT_G;
  if (byLimit) grams /= 10;
  return { grams, byVersion, byLimit };
}
