import { userSettings } from "~/models/setting.server";

/** The caller's settings as `setting/findOne` and `setting/update` answer them (the logo is left out). */
export async function settingsForApi(userId: number) {
  const { logo: _logo, ...settings } = await userSettings(userId);
  return settings;
}
