import { describe, expect, it } from "vitest";
import { signOutEverywhere } from "~/models/account.server";
import { checkApiToken, createApiToken } from "~/models/api-token.server";
import {
  accountProfile,
  profilePhoto,
  removeProfilePhoto,
  saveProfile,
  saveProfilePhoto,
} from "~/models/profile.server";
import { findSessionUser, readSessionData } from "~/models/session.server";
import { db } from "~/utils/db.server";

let n = 0;
async function person() {
  return db().user.create({
    data: {
      email: `profile${++n}@test.diacare`,
      identity: 1,
      firstName: "Anna",
      lastName: "Kowalczyk",
      patient: { create: { timeZone: "Europe/Warsaw" } },
    },
    include: { patient: true },
  });
}

async function session(userId: number) {
  const id = `profile-session-${++n}`;
  await db().session.create({
    data: { id, userId, data: { userId }, expiresAt: new Date(Date.now() + 3_600_000) },
  });
  return id;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);

describe("profile", () => {
  it("saves the four name parts and reads them back with the patient record", async () => {
    const user = await person();
    await saveProfile(user.id, {
      firstName: "Zofia",
      middleName: "Maria",
      lastName: "Nowak",
      userName: "zosia",
    });
    expect(await accountProfile(user.id)).toEqual({
      email: user.email,
      identity: 1,
      firstName: "Zofia",
      middleName: "Maria",
      lastName: "Nowak",
      userName: "zosia",
      photoVersion: null,
      patient: { id: user.patient!.id, timeZone: "Europe/Warsaw" },
    });
    await saveProfile(user.id, {
      firstName: "Zofia",
      middleName: null,
      lastName: "Nowak",
      userName: null,
    });
    expect(await accountProfile(user.id)).toMatchObject({ middleName: null, userName: null });
  });
});

describe("profile photo", () => {
  it("stores the type its bytes show, whatever was declared, and a new version on every save", async () => {
    const user = await person();
    expect(await saveProfilePhoto(user.id, PNG)).toEqual({ ok: true, type: "image/png" });
    expect(await profilePhoto(user.id)).toEqual({ bytes: PNG, type: "image/png" });
    const first = (await accountProfile(user.id)).photoVersion;
    expect(first).toEqual(expect.any(Number));
    await new Promise((r) => setTimeout(r, 5));
    expect(await saveProfilePhoto(user.id, JPEG)).toEqual({ ok: true, type: "image/jpeg" });
    expect(await profilePhoto(user.id)).toEqual({ bytes: JPEG, type: "image/jpeg" });
    expect((await accountProfile(user.id)).photoVersion).toBeGreaterThan(first!);
    expect((await findSessionUser(user.id))?.photo).toEqual({ updatedAt: expect.any(Date) });
  });

  it("refuses what is not a raster image, and a file over 512 KiB, keeping the photo it had", async () => {
    const user = await person();
    await saveProfilePhoto(user.id, PNG);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(await saveProfilePhoto(user.id, svg)).toEqual({ ok: false, error: "errors.photoType" });
    const big = new Uint8Array(512 * 1024 + 1);
    big.set(PNG);
    expect(await saveProfilePhoto(user.id, big)).toEqual({
      ok: false,
      error: "errors.photoTooLarge",
    });
    expect(await profilePhoto(user.id)).toEqual({ bytes: PNG, type: "image/png" });
  });

  it("is removed, and then nobody's photo", async () => {
    const user = await person();
    const other = await person();
    await saveProfilePhoto(user.id, PNG);
    await saveProfilePhoto(other.id, JPEG);
    await removeProfilePhoto(user.id);
    expect(await profilePhoto(user.id)).toBeNull();
    expect((await findSessionUser(user.id))?.photo).toBeNull();
    expect(await profilePhoto(other.id)).toEqual({ bytes: JPEG, type: "image/jpeg" });
  });
});

describe("signOutEverywhere", () => {
  it("ends every other session and every API token of the user, keeps this one and other users' ones", async () => {
    const user = await person();
    const other = await person();
    const here = await session(user.id);
    const elsewhere = [await session(user.id), await session(user.id)];
    const tokens = [await createApiToken(user.id), await createApiToken(user.id)];
    const otherSession = await session(other.id);
    const otherToken = await createApiToken(other.id);

    expect(await signOutEverywhere({ userId: user.id, keepSessionId: here })).toEqual({
      sessions: 2,
      tokens: 2,
    });

    expect(await readSessionData(here)).toEqual({ userId: user.id });
    for (const id of elsewhere) expect(await readSessionData(id)).toBeNull();
    for (const token of tokens)
      expect(await checkApiToken(token)).toEqual({ ok: false, code: 803 });
    expect(await readSessionData(otherSession)).toEqual({ userId: other.id });
    expect(await checkApiToken(otherToken)).toMatchObject({ ok: true, viewer: { id: other.id } });
  });
});
