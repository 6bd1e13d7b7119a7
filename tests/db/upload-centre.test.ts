import { describe, expect, it } from "vitest";
import { action, loader } from "~/routes/patientShow.$id.upload";
import { db } from "~/utils/db.server";
import { cookieFor, statusOf } from "./report-support";

// The upload centre page: who may open it (the patient and accepted readers; 404 for others), the
// zones it offers, and the time zone and meal times form, which works without JavaScript.

async function people() {
  const tag = `${Date.now()}-${Math.random()}`;
  const owner = await db().user.create({
    data: {
      email: `owner-${tag}@centre.test`,
      identity: 1,
      patient: { create: { timeZone: "Europe/Warsaw" } },
    },
    include: { patient: true },
  });
  const clinic = await db().user.create({
    data: { email: `clinic-${tag}@centre.test`, identity: 2, isPass: 1 },
  });
  const stranger = await db().user.create({
    data: { email: `stranger-${tag}@centre.test`, identity: 1, patient: { create: {} } },
  });
  await db().readPower.create({ data: { providerId: owner.id, readerId: clinic.id, state: 1 } });
  return { owner, clinic, stranger, pid: owner.patient!.id };
}

const page = async (userId: number, pid: number) =>
  loader({
    request: new Request(`http://localhost/patientShow/${pid}/upload`, {
      headers: { Cookie: await cookieFor(userId) },
    }),
    params: { id: String(pid) },
    context: {},
  });

async function post(userId: number, pid: number, fields: Record<string, string>) {
  const request = new Request(`http://localhost/patientShow/${pid}/upload`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: await cookieFor(userId) },
  });
  const response = (await action({
    request,
    params: { id: String(pid) },
    context: {},
  })) as unknown as {
    data: { saved: boolean; error: string | null; typed: Record<string, string> };
    init: { status?: number } | null;
  };
  return { ...response.data, status: response.init?.status ?? 200 };
}

const MEALS = {
  breakfastStart: "06:30",
  breakfastEnd: "09:00:00",
  lunchStart: "12:00:00",
  lunchEnd: "14:30:00",
  supperStart: "18:00:00",
  supperEnd: "20:00:00",
};

describe("the upload centre", () => {
  it("opens for the patient and an accepted reader with the 31 zones and the meal times; a stranger gets 404", async () => {
    const { owner, clinic, stranger, pid } = await people();
    const own = await page(owner.id, pid);
    expect(own.zoneAndMeals.zones).toHaveLength(31);
    expect(own.zoneAndMeals.zones.map((z) => z.timezone)).toContain("Europe/Warsaw");
    // The default meal windows: breakfast 06:00-10:00, lunch 11:00-14:00, supper 17:00-20:00.
    expect(own.zoneAndMeals.meals).toEqual({
      breakfast: { start: "06:00:00", end: "10:00:00" },
      lunch: { start: "11:00:00", end: "14:00:00" },
      supper: { start: "17:00:00", end: "20:00:00" },
    });
    expect((await page(clinic.id, pid)).pid).toBe(pid);
    expect(await statusOf(() => page(stranger.id, pid))).toBe(404);
  });

  it("saves the zone and meal times (a time field's HH:mm is read as HH:mm:00); refuses a meal that ends before it starts, writing nothing", async () => {
    const { owner, clinic, stranger, pid } = await people();
    expect(await post(clinic.id, pid, { timeZone: "America/New_York", ...MEALS })).toMatchObject({
      saved: true,
      status: 200,
    });
    expect(await db().patient.findUniqueOrThrow({ where: { id: pid } })).toMatchObject({
      timeZone: "America/New_York",
      breakfastStart: 6.5 * 3600,
      breakfastEnd: 9 * 3600,
      lunchEnd: 14.5 * 3600,
    });
    expect(
      await post(owner.id, pid, { timeZone: "Europe/Warsaw", ...MEALS, lunchEnd: "11:00:00" }),
    ).toMatchObject({
      saved: false,
      error: "errors.mealTimeWrong",
      status: 400,
      typed: { timeZone: "Europe/Warsaw", lunchEnd: "11:00:00" },
    });
    expect(await post(owner.id, pid, { timeZone: "Mars/Olympus", ...MEALS })).toMatchObject({
      saved: false,
      error: "errors.timeZone",
      status: 400,
    });
    expect((await db().patient.findUniqueOrThrow({ where: { id: pid } })).timeZone).toBe(
      "America/New_York",
    );
    expect(
      await statusOf(() => post(stranger.id, pid, { timeZone: "Europe/Warsaw", ...MEALS })),
    ).toBe(404);
  });
});
