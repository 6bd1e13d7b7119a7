import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { supportedLngs } from "~/i18n";
import { saveLanguage } from "~/models/setting.server";
import { localeCookie } from "~/utils/i18n.server";
import { safeRedirectPath } from "~/utils/safe-redirect";
import { getSessionUser } from "~/services/session.server";

const schema = z.object({ lng: z.enum(supportedLngs), redirectTo: z.string().optional() });

/** The language menu posts here (works without JavaScript): cookie for everyone, setting for users. */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Unsupported language", { status: 400 });
  const user = await getSessionUser(request);
  if (user) await saveLanguage(user.id, parsed.data.lng);
  return redirect(safeRedirectPath(parsed.data.redirectTo), {
    headers: { "Set-Cookie": await localeCookie.serialize(parsed.data.lng) },
  });
}

export async function loader() {
  return redirect("/");
}
