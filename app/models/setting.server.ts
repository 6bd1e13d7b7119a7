import { fallbackLng, isLocale, type Locale } from "~/i18n";
import type { NameStyle } from "~/report/pump-report-model";
import { HeightUnit, WeightUnit, type BodyUnits } from "~/domain/body-measures";
import { toGlucoseUnit, type GlucoseUnit } from "~/domain/glucose-unit";
import { LOGO_MAX_BYTES, type Orientation, type SettingsInput } from "~/schemas/setting";
import { db } from "~/utils/db.server";
import { checkImage, type RasterImageType } from "~/utils/image-type";
import { toPaperSize, type PaperSize } from "~/utils/paper-size";
import { accountZone } from "~/utils/time-zones";

/** Saves the interface language of a user (creating their settings row if needed). */
export async function saveLanguage(userId: number, lang: Locale) {
  await db().setting.upsert({ where: { userId }, create: { userId, lang }, update: { lang } });
}

/** Saves the glucose unit: 0 = mmol/L, 1 = mg/dL; a first save keeps the language the user is reading in. */
export async function saveUnit(userId: number, unit: GlucoseUnit, lang: Locale) {
  await db().setting.upsert({
    where: { userId },
    create: { userId, unit, lang },
    update: { unit },
  });
}

/** How a user's reports are printed: paper size and orientation, title alignment, a line under the header. */
export type PrintSettings = {
  paperSize: PaperSize;
  orientation: Orientation;
  nameStyle: NameStyle;
  splitLine: boolean;
};

/**
 * The print settings of a stored settings row: A4 unless Letter, portrait unless landscape, a
 * title aligned left unless centred (1) or right (2), the split line unless turned off. No row
 * gives those defaults.
 */
export function printSettingsOf(
  row:
    | {
        paperSize: string | null;
        orientation: string | null;
        nameStyle: number | null;
        splitLine: boolean | null;
      }
    | null
    | undefined,
): PrintSettings {
  return {
    paperSize: toPaperSize(row?.paperSize),
    orientation: row?.orientation === "landscape" ? "landscape" : "portrait",
    nameStyle: row?.nameStyle === 1 || row?.nameStyle === 2 ? row.nameStyle : 0,
    splitLine: row?.splitLine ?? true,
  };
}

/** What the settings page shows: language, units, print settings and whether there is a logo. */
export type UserSettings = PrintSettings & {
  lang: Locale;
  unit: GlucoseUnit;
  weightUnit: 0 | 1;
  heightUnit: 0 | 1;
  /** The zone the account chose for its own times (an account without a health record); null: none. */
  timeZone: string | null;
  /** The stored logo's type, and a version that changes with every save (for the image URL); null without a logo. */
  logo: { type: string; version: number } | null;
};

/**
 * A user's language, units and print settings; the defaults when they have no settings row yet
 * (`lang` then: `defaultLang`).
 */
export async function userSettings(
  userId: number,
  defaultLang: Locale = fallbackLng,
): Promise<UserSettings> {
  const row = await db().setting.findUnique({
    where: { userId },
    select: {
      lang: true,
      unit: true,
      weightUnit: true,
      heightUnit: true,
      paperSize: true,
      orientation: true,
      nameStyle: true,
      splitLine: true,
      timeZone: true,
      reportLogoType: true,
      updatedAt: true,
    },
  });
  return {
    lang: isLocale(row?.lang) ? row.lang : defaultLang,
    unit: toGlucoseUnit(row?.unit),
    weightUnit: row?.weightUnit === 1 ? 1 : 0,
    heightUnit: row?.heightUnit === 1 ? 1 : 0,
    ...printSettingsOf(row),
    timeZone: row?.timeZone ?? null,
    // saveReportLogo and removeReportLogo set and clear the type together with the bytes.
    logo: row?.reportLogoType
      ? { type: row.reportLogoType, version: row.updatedAt.getTime() }
      : null,
  };
}

/** The units a user reads and types heights and weights in: cm and kg without a settings row. */
export async function bodyUnitsOf(userId: number): Promise<BodyUnits> {
  const row = await db().setting.findUnique({
    where: { userId },
    select: { heightUnit: true, weightUnit: true },
  });
  return {
    height: row?.heightUnit === HeightUnit.FtIn ? HeightUnit.FtIn : HeightUnit.Cm,
    weight: row?.weightUnit === WeightUnit.Lb ? WeightUnit.Lb : WeightUnit.Kg,
  };
}

/** The paper a user's reports are printed on (A4 without a settings row). */
export async function paperSizeOf(userId: number): Promise<PaperSize> {
  const row = await db().setting.findUnique({ where: { userId }, select: { paperSize: true } });
  return toPaperSize(row?.paperSize);
}

/** The glucose unit a user reads (mmol/L without a settings row). */
export async function glucoseUnitOf(userId: number): Promise<GlucoseUnit> {
  const row = await db().setting.findUnique({ where: { userId }, select: { unit: true } });
  return toGlucoseUnit(row?.unit);
}

/** The zone a user's own times are shown in (app/utils/time-zones.ts `accountZone`); UTC for no such user. */
export async function accountZoneOf(userId: number): Promise<string> {
  const row = await db().user.findUnique({
    where: { id: userId },
    select: { patient: { select: { timeZone: true } }, setting: { select: { timeZone: true } } },
  });
  return accountZone(row ?? { patient: null, setting: null });
}

export type SettingsSaveResult = { ok: true } | { ok: false; error: "errors.accountZoneOfRecord" };

/**
 * A zone may be chosen only by an account without a health record: a person with one reads
 * their times in the record's zone, which they change with the record. Choosing none is allowed
 * to everyone.
 */
async function zoneRefused(userId: number, timeZone: string | null | undefined) {
  if (typeof timeZone !== "string") return false;
  const record = await db().patient.findUnique({ where: { userId }, select: { id: true } });
  return record !== null;
}

/**
 * Saves language, units, print settings and, when given, the paper size and the account's zone
 * in one statement (all or nothing; a value left out stays as it is, a new row gets its default);
 * nothing is written when the zone is refused.
 */
export async function saveSettings(
  userId: number,
  values: SettingsInput,
): Promise<SettingsSaveResult> {
  if (await zoneRefused(userId, values.timeZone))
    return { ok: false, error: "errors.accountZoneOfRecord" };
  await db().setting.upsert({ where: { userId }, create: { userId, ...values }, update: values });
  return { ok: true };
}

/**
 * Saves the zone of an account's own times (null: none, UTC); a first save keeps the language
 * the user is reading in. Refused for an account with a health record, unless it is none.
 */
export async function saveAccountZone(
  userId: number,
  timeZone: string | null,
  lang: Locale,
): Promise<SettingsSaveResult> {
  if (await zoneRefused(userId, timeZone))
    return { ok: false, error: "errors.accountZoneOfRecord" };
  await db().setting.upsert({
    where: { userId },
    create: { userId, lang, timeZone },
    update: { timeZone },
  });
  return { ok: true };
}

export type LogoSaveResult =
  | { ok: true; type: RasterImageType }
  | { ok: false; error: "errors.logoType" | "errors.logoTooLarge" };

/**
 * Saves the report logo if its bytes are a PNG, JPEG, GIF or WebP image of at most
 * LOGO_MAX_BYTES; the type stored is the one the bytes show, not the one the upload declared.
 */
export async function saveReportLogo(
  userId: number,
  bytes: Uint8Array<ArrayBuffer>,
  lang: Locale,
): Promise<LogoSaveResult> {
  const checked = checkImage(bytes, LOGO_MAX_BYTES);
  if (!checked.ok)
    return {
      ok: false,
      error: checked.problem === "tooLarge" ? "errors.logoTooLarge" : "errors.logoType",
    };
  const { type } = checked;
  const logo = { reportLogo: bytes, reportLogoType: type };
  await db().setting.upsert({ where: { userId }, create: { userId, lang, ...logo }, update: logo });
  return { ok: true, type };
}

/** Removes the report logo (reports are then printed without one). */
export async function removeReportLogo(userId: number) {
  await db().setting.updateMany({
    where: { userId },
    data: { reportLogo: null, reportLogoType: null },
  });
}

/** The signed-in user's report logo (bytes and content type), or null. */
export async function reportLogo(
  userId: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
  const setting = await db().setting.findUnique({
    where: { userId },
    select: { reportLogo: true, reportLogoType: true },
  });
  if (!setting?.reportLogo || !setting.reportLogoType) return null;
  return { bytes: new Uint8Array(setting.reportLogo), type: setting.reportLogoType };
}

/** The interface language a user chose, or null when the account has no settings yet. */
export async function savedLanguage(userId: number): Promise<string | null> {
  const setting = await db().setting.findUnique({ where: { userId }, select: { lang: true } });
  return setting?.lang ?? null;
}
