import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { savePatientSettings } from "~/models/patient.server";
import { saveAccountZone, saveLanguage, saveSettings, saveUnit } from "~/models/setting.server";
import { secondsToTime } from "~/schemas/patient";
import { settingUpdateSchema } from "~/schemas/setting";
import {
  apiFail,
  apiInvalid,
  apiMessage,
  apiOk,
  apiResponse,
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

/** 400 as for a validation message: the zone was refused for an account with a health record. */
async function zoneRefused(request: Request, error: string) {
  return apiResponse(API_CODES.invalid, await apiMessage(request, `settings:${error}`), {
    fields: { timeZone: [error] },
  });
}

/**
 * POST /api/setting/update: all the settings page's settings, `{ lang }`, `{ unit }` or
 * `{ timeZone }` (the caller's own settings; data: the settings after the change, as findOne; a
 * zone chosen by an account with a health record is refused, 400), or
 * `{ pid, timeZone, breakfastTime, lunchTime, supperTime }` (a patient's zone and meal windows;
 * data: what was saved; 404 for a patient the caller may not see).
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
      const saved = await saveSettings(userId, settings);
      if (!saved.ok) return zoneRefused(request, saved.error);
      return apiOk(request, await settingsForApi(userId));
    }
    case "zone": {
      const saved = await saveAccountZone(userId, update.timeZone, await getLocale(request));
      if (!saved.ok) return zoneRefused(request, saved.error);
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
