import type { Locale } from "~/i18n";
import { db } from "~/utils/db.server";

/** Saves the interface language of a user (creating their settings row if needed). */
export async function saveLanguage(userId: number, lang: Locale) {
  await db().setting.upsert({ where: { userId }, create: { userId, lang }, update: { lang } });
}

/** Saves the glucose unit: 0 = mmol/L, 1 = mg/dL. */
export async function saveUnit(userId: number, unit: 0 | 1) {
  await db().setting.upsert({ where: { userId }, create: { userId, unit }, update: { unit } });
}
