import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { db } from "~/utils/db.server";
import { expectDocumented } from "../support/api-contract";
import { startServer, type ServerProcess } from "../support/server-process";

// Killing the server (SIGKILL, no shutdown hooks) at any moment of an upload loses nothing:
// acknowledged slices are stored, a task cut short while being written leaves no records, and
// after a restart the task finishes (the queue's start-up pass hands waiting tasks on); a repeat
// upload of the same records adds nothing.

const SLICE = 1000;
const SLICES = 12;
let token: string;
let pid: number;
let server: ServerProcess | undefined;

const start = () =>
  startServer({
    DATABASE_URL: process.env.DATABASE_URL!,
    DEPLOY_ENV: "test",
    SESSION_SECRET: "durability-secret-that-is-long-enough-0123456789",
  });

async function kill() {
  server!.child.kill("SIGKILL");
  await server!.exited;
  server = undefined;
}

afterEach(async () => {
  if (server) await kill();
});

beforeAll(async () => {
  const user = await db().user.create({
    data: {
      email: "durable@upload.test",
      identity: 1,
      patient: { create: { timeZone: "Europe/Warsaw" } },
    },
    include: { patient: true },
  });
  pid = user.patient!.id;
  token = await createApiToken(user.id);
});

/** Basal records a minute apart from 2026-05-01 00:00 local; record numbers from `first`. */
function slice(index: number, first = 1) {
  return Array.from({ length: SLICE }, (_, i) => {
    const n = first + index * SLICE + i;
    const at = new Date(Date.UTC(2026, 4, 1) + (n - 1) * 60_000).toISOString();
    return {
      recordId: n,
      eventIndex: n % 65_536,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      statusByte0: 80,
      statusByte1: 120,
      statusShort0: 160,
      statusShort1: 0,
      deviceTime: `${at.slice(0, 10)} ${at.slice(11, 19)}`,
    };
  });
}

async function api(path: string, body?: unknown) {
  const response = await fetch(`${server!.baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { token, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: unknown };
  expectDocumented(body === undefined ? "GET" : "POST", path, response.status, answer);
  return answer;
}

const open = async () =>
  (
    await api("/api/patient-data/getSliceId", {
      pid,
      deviceKind: "equil",
      deviceSn: "EQDUR1",
      pdaVersion: "5.3.0",
      total: SLICE * SLICES,
      timeZone: "Europe/Warsaw",
    })
  ).data as number;
const send = (sliceId: number, index: number) =>
  api("/api/patient-data/sliceSave", { sliceId, index, dataList: slice(index) });

async function summary(sliceId: number, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const answer = await api(`/api/patient-data/checkSave?sliceId=${sliceId}`);
    if (answer.data !== false) return answer.data as Record<string, unknown>;
    if (Date.now() > end)
      throw new Error(
        `task ${sliceId} not processed in ${timeoutMs} ms:\n${server!.output().slice(-2000)}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

const stored = () => db().pumpRecord.count({ where: { patientId: pid } });

describe("an upload across kill -9", () => {
  it("slices acknowledged before the kill are kept; the upload goes on after a restart and completes", async () => {
    server = await start();
    const sliceId = await open();
    for (let i = 0; i < 5; i++) expect(await send(sliceId, i)).toMatchObject({ code: 200 });
    await kill();
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(5);

    server = await start();
    // The browser repeats the slice whose answer it did not get: the same records are accepted.
    expect(await send(sliceId, 4)).toMatchObject({ code: 200 });
    for (let i = 5; i < SLICES; i++) expect(await send(sliceId, i)).toMatchObject({ code: 200 });
    expect(
      await api("/api/patient-data/completeSliceTask", { sliceId, isSuccess: true }),
    ).toMatchObject({ code: 200 });
    expect(await summary(sliceId)).toMatchObject({
      status: "done",
      inserted: SLICE * SLICES,
      duplicates: 0,
    });
    expect(await stored()).toBe(SLICE * SLICES);
  }, 240_000);

  it("killed while the task is being written: nothing or everything is stored, and after a restart everything is", async () => {
    await db().pumpRecord.deleteMany({ where: { patientId: pid } });
    server = await start();
    const sliceId = await open();
    for (let i = 0; i < SLICES; i++) await send(sliceId, i);
    expect(
      await api("/api/patient-data/completeSliceTask", { sliceId, isSuccess: true }),
    ).toMatchObject({ code: 200 });
    // The job starts within moments; kill the server at once, most likely mid-transaction.
    await new Promise((r) => setTimeout(r, 150));
    await kill();
    expect([0, SLICE * SLICES]).toContain(await stored());

    server = await start();
    expect(await summary(sliceId)).toMatchObject({ status: "done", inserted: SLICE * SLICES });
    expect(await stored()).toBe(SLICE * SLICES);

    // The same records again, in a new upload: no duplicates.
    const again = await open();
    for (let i = 0; i < SLICES; i++) await send(again, i);
    await api("/api/patient-data/completeSliceTask", { sliceId: again, isSuccess: true });
    expect(await summary(again)).toMatchObject({
      status: "done",
      inserted: 0,
      duplicates: SLICE * SLICES,
    });
    expect(await stored()).toBe(SLICE * SLICES);
  }, 240_000);
});
