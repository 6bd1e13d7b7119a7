import { accountZoneOf, userSettings } from "~/models/setting.server";

/**
 * The caller's settings as `setting/findOne` and `setting/update` answer them (the logo is left
 * out), with `accountTimeZone`, the zone the caller's own times are shown in.
 */
export async function settingsForApi(userId: number) {
  const [{ logo: _logo, ...settings }, accountTimeZone] = await Promise.all([
    userSettings(userId),
    accountZoneOf(userId),
  ]);
  return { ...settings, accountTimeZone };
}
