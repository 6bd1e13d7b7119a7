import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { saveUnit } from "~/models/setting.server";
import { getLocale } from "~/services/locale.server";
import { safeRedirectPath } from "~/utils/safe-redirect";
import { requireUser } from "~/services/session.server";

const schema = z.object({
  unit: z.enum(["0", "1"]).transform(toGlucoseUnit),
  redirectTo: z.string().optional(),
});

/** The unit menu (signed-in users) posts here: 0 = mmol/L, 1 = mg/dL. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Unsupported unit", { status: 400 });
  await saveUnit(user.id, parsed.data.unit, await getLocale(request));
  return redirect(safeRedirectPath(parsed.data.redirectTo));
}

export async function loader() {
  return redirect("/");
}
