import { PHOTO_MAX_BYTES, type ProfileInput } from "~/schemas/auth";
import { db } from "~/utils/db.server";
import { checkImage, type RasterImageType } from "~/utils/image-type";

/** What the account page shows of a user: names, the photo's version, and the patient record. */
export async function accountProfile(userId: number) {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      email: true,
      identity: true,
      firstName: true,
      middleName: true,
      lastName: true,
      userName: true,
      photo: { select: { updatedAt: true } },
      patient: { select: { id: true, timeZone: true } },
    },
  });
  const { photo, ...rest } = user;
  // The version changes with every save, so that a new photo is not hidden by the cached old one.
  return { ...rest, photoVersion: photo ? photo.updatedAt.getTime() : null };
}

export async function saveProfile(userId: number, profile: ProfileInput) {
  await db().user.update({ where: { id: userId }, data: profile });
}

export type PhotoSaveResult =
  | { ok: true; type: RasterImageType }
  | { ok: false; error: "errors.photoType" | "errors.photoTooLarge" };

/**
 * Saves the profile photo if its bytes are a PNG, JPEG, GIF or WebP image of at most
 * PHOTO_MAX_BYTES; the type stored is the one the bytes show, not the one the upload declared.
 */
export async function saveProfilePhoto(
  userId: number,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<PhotoSaveResult> {
  const checked = checkImage(bytes, PHOTO_MAX_BYTES);
  if (!checked.ok)
    return {
      ok: false,
      error: checked.problem === "tooLarge" ? "errors.photoTooLarge" : "errors.photoType",
    };
  const { type } = checked;
  await db().profilePhoto.upsert({
    where: { userId },
    create: { userId, bytes, type },
    update: { bytes, type },
  });
  return { ok: true, type };
}

export async function removeProfilePhoto(userId: number) {
  await db().profilePhoto.deleteMany({ where: { userId } });
}

/** A user's profile photo (bytes and content type), or null. */
export async function profilePhoto(
  userId: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
  const photo = await db().profilePhoto.findUnique({
    where: { userId },
    select: { bytes: true, type: true },
  });
  return photo ? { bytes: new Uint8Array(photo.bytes), type: photo.type } : null;
}
