import type { LoaderFunctionArgs } from "@remix-run/node";
import { profilePhoto } from "~/models/profile.server";
import { isRasterImageType } from "~/utils/image-type";
import { requireUser } from "~/services/session.server";

/**
 * `/profile-photo`: the signed-in user's own profile photo. Kept only in this browser's cache
 * (private); the pages ask for it with `?v=` the photo's version, so a new photo is fetched anew.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const photo = await profilePhoto(user.id);
  if (!photo || !isRasterImageType(photo.type)) return new Response("Not Found", { status: 404 });
  return new Response(photo.bytes, {
    headers: {
      "Content-Type": photo.type,
      "Cache-Control": "private, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
