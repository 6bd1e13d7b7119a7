import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { savePatientSettings } from "~/models/patient.server";
import { saveLanguage, saveSettings, saveUnit } from "~/models/setting.server";
import { secondsToTime } from "~/schemas/patient";
import { settingUpdateSchema } from "~/schemas/setting";
import {
  apiFail,
  apiInvalid,
  apiOk,
  API_CODES,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";
import { getLocale } from "~/services/locale.server";
import { settingsForApi } from "~/services/settings-api.server";

const clock = ([start, end]: readonly [number, number]) => [
  secondsToTime(start, true),
  secondsToTime(end, true),
];

/**
 * POST /api/setting/update: all the settings page's settings, `{ lang }` or `{ unit }` (the
 * caller's own settings; data: the settings after the change, as findOne), or `{ pid, timeZone, breakfastTime, lunchTime, supperTime }` (a
 * patient's zone and meal windows; data: what was saved; 404 for a patient the caller may not see).
 */
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireApiUserId(request);
  const parsed = settingUpdateSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "settings");
  const update = parsed.data;
  switch (update.shape) {
    case "language":
      await saveLanguage(userId, update.lang);
      return apiOk(request, await settingsForApi(userId));
    case "unit":
      await saveUnit(userId, update.unit, await getLocale(request));
      return apiOk(request, await settingsForApi(userId));
    case "settings": {
      const { shape: _shape, ...settings } = update;
      await saveSettings(userId, settings);
      return apiOk(request, await settingsForApi(userId));
    }
    case "patient": {
      const { shape: _shape, ...settings } = update;
      if (!(await savePatientSettings(await viewerById(userId), settings)))
        return apiFail(request, API_CODES.notFound, "notFound");
      return apiOk(request, {
        pid: settings.pid,
        timeZone: settings.timeZone,
        breakfastTime: clock(settings.breakfastTime),
        lunchTime: clock(settings.lunchTime),
        supperTime: clock(settings.supperTime),
      });
    }
  }
}

export const loader = postOnly();
