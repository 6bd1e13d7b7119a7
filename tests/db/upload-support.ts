import type { Viewer } from "~/models/access.server";
import { completeSlicedUpload, openSlicedUpload, saveSlice } from "~/services/ingest.server";
import { db } from "~/utils/db.server";

let accounts = 0;
/** A new person's account with a health record in UTC: the uploader as a viewer, and the patient's id. */
export async function uploadingPatient(tag: string): Promise<{ viewer: Viewer; pid: number }> {
  const user = await db().user.create({
    data: {
      email: `${tag}-${++accounts}@ingest.test`,
      identity: 1,
      patient: { create: { timeZone: "UTC" } },
    },
    include: { patient: true },
  });
  return {
    viewer: { id: user.id, identity: 1, isPass: 0, role: user.role },
    pid: user.patient!.id,
  };
}

/**
 * Slice `s` (from 0) of 1,000 five-minute CGM readings from 1 July 2026 00:00 UTC: reading n
 * (from 0) has eventIndex n + 1 and raw value 60 + n % 50 (108-196.2 mg/dL).
 */
export function cgmSlice(s: number): unknown[] {
  return Array.from({ length: 1000 }, (_, i) => {
    const n = s * 1000 + i;
    return {
      eventIndex: n + 1,
      eventType: 7,
      eventData: 60 + (n % 50),
      deviceTime: new Date(Date.UTC(2026, 6, 1) + n * 300_000)
        .toISOString()
        .replace("T", " ")
        .slice(0, 19),
    };
  });
}

/** Opens a sliced CGM upload of `slices` and stores every slice, as the browser does; answers the task's id. */
export async function sendCgmSlices(
  viewer: Viewer,
  pid: number,
  deviceSn: string,
  slices: unknown[][],
): Promise<number> {
  const opened = await openSlicedUpload(viewer, {
    pid,
    deviceKind: "aidex",
    deviceSn,
    total: slices.reduce((n, s) => n + s.length, 0),
    timeZone: "UTC",
  });
  if (!opened.ok) throw new Error(`getSliceId refused: ${opened.key}`);
  for (const [index, dataList] of slices.entries()) {
    const saved = await saveSlice(viewer, { sliceId: opened.data, index, dataList });
    if (!saved.ok) throw new Error(`sliceSave ${index} refused: ${saved.key}`);
  }
  return opened.data;
}

/** completeSliceTask with isSuccess; the job is left to the test (`processTask`). */
export async function completeUpload(viewer: Viewer, taskId: number): Promise<void> {
  const done = await completeSlicedUpload(viewer, { sliceId: taskId, isSuccess: true }, () =>
    Promise.resolve(),
  );
  if (!done.ok || done.data.status !== "processing")
    throw new Error(`completeSliceTask: ${JSON.stringify(done)}`);
}
