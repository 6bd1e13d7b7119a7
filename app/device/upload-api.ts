import type { UploadFailureKey } from "./progress";

/**
 * The upload calls the browser makes (the server's `/api/` contract, `docs/api.md`), as an
 * interface so that the upload steps run against the real server in the page and against a fake
 * in tests. Every call answers the `{ code, msg, data }` envelope.
 */
export type Envelope<T> = { code: number; msg: string; data: T };

export type UploadSummary = {
  status: "done" | "failed";
  inserted: number;
  duplicates: number;
  flagged: number;
  otherPatientDevice: boolean;
  error: string | null;
};

export type SliceStart = {
  pid: number;
  deviceKind: "equil" | "gocheck" | "aidex";
  deviceSn: string;
  pdaVersion?: string;
  total: number;
  timeZone: string;
};

export interface UploadApi {
  getSliceId(start: SliceStart): Promise<Envelope<number | null>>;
  sliceSave(slice: {
    sliceId: number;
    index: number;
    dataList: unknown[];
  }): Promise<Envelope<unknown>>;
  completeSliceTask(done: { sliceId: number; isSuccess: boolean }): Promise<Envelope<unknown>>;
  checkSave(sliceId: number): Promise<Envelope<UploadSummary | false | null>>;
}

/** The waits of a sliced upload, ms. */
export const UPLOAD_TIMING = {
  /** Between two looks at whether the server has processed the upload. */
  pollEvery: 3800,
  /** Before a slice the network failed to deliver is sent again. */
  sliceRetryEvery: 1900,
  /** After this long without an answer the upload is given up. */
  giveUpAfter: 180_000,
} as const;

/** Records in one slice: the most the server takes in one call. */
export const SLICE_RECORDS = 1000;

export type SlicedOutcome =
  | { ok: true; summary: UploadSummary }
  | { ok: false; failure: UploadFailureKey; values?: Record<string, string | number> };

export type Clock = { now(): number; sleep(ms: number): Promise<void> };

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Why a call brought no answer: its time limit ("Timeout Error") or the network ("error request").
 * Anything else thrown on the way is a failed upload.
 */
export function lostCallFailure(error: unknown): UploadFailureKey {
  if (error instanceof DOMException && error.name === "TimeoutError") return "requestTimeout";
  if (error instanceof TypeError) return "requestFailed";
  return "uploadFailed";
}

type Sent<T> = { answer: T; lost: null } | { answer: null; lost: UploadFailureKey };

/** A call's answer, or why there is none (it failed on the way, not an answer of the server). */
const sent = async <T>(call: () => Promise<T>): Promise<Sent<T>> => {
  try {
    return { answer: await call(), lost: null };
  } catch (error) {
    return { answer: null, lost: lostCallFailure(error) };
  }
};

/** The failure of a call that brought no answer, or the server's refusal with its message. */
const failureOf = (call: Sent<{ msg: string } | null>): SlicedOutcome =>
  call.lost
    ? { ok: false, failure: call.lost }
    : { ok: false, failure: "uploadFailed", values: { message: call.answer?.msg ?? "" } };

/**
 * Sends records in slices of 1000 and follows the server until it has processed them:
 * getSliceId, each slice (a slice the network lost is sent again every 1.9 s, for up to 180 s: the
 * server takes a repeated slice once), completeSliceTask, then checkSave every 3.8 s until it
 * answers the summary (given up after 180 s). A slice or a completion the server refuses ends the
 * upload as "uploadFailed" (the server keeps nothing of it); a lost processing "pollFailed".
 * `onSlice` hears how many slices of how many are stored, `onCompleted` that the server has them all.
 */
export async function uploadInSlices(
  api: UploadApi,
  start: Omit<SliceStart, "total">,
  records: readonly unknown[],
  clock: Clock = realClock,
  hear: { onSlice?: (sent: number, of: number) => void; onCompleted?: () => void } = {},
): Promise<SlicedOutcome> {
  const opening = await sent(() => api.getSliceId({ ...start, total: records.length }));
  const opened = opening.answer;
  if (!opened || opened.code !== 200 || typeof opened.data !== "number") return failureOf(opening);
  const sliceId = opened.data;
  const slices = Math.ceil(records.length / SLICE_RECORDS);
  for (let index = 0; index < slices; index++) {
    const dataList = records.slice(index * SLICE_RECORDS, (index + 1) * SLICE_RECORDS);
    const deadline = clock.now() + UPLOAD_TIMING.giveUpAfter;
    for (;;) {
      const saving = await sent(() => api.sliceSave({ sliceId, index, dataList: [...dataList] }));
      if (saving.answer?.code === 200) break;
      if (saving.answer) {
        await sent(() => api.completeSliceTask({ sliceId, isSuccess: false }));
        return failureOf(saving);
      }
      if (clock.now() >= deadline) return failureOf(saving);
      await clock.sleep(UPLOAD_TIMING.sliceRetryEvery);
    }
    hear.onSlice?.(index + 1, slices);
  }
  const completing = await sent(() => api.completeSliceTask({ sliceId, isSuccess: true }));
  if (completing.answer?.code !== 200) return failureOf(completing);
  hear.onCompleted?.();
  const deadline = clock.now() + UPLOAD_TIMING.giveUpAfter;
  for (;;) {
    const check = (await sent(() => api.checkSave(sliceId))).answer;
    if (check && check.code !== 200)
      return { ok: false, failure: "pollFailed", values: { message: check.msg } };
    const summary = check?.data;
    if (summary)
      return summary.status === "done"
        ? { ok: true, summary }
        : { ok: false, failure: "uploadFailed", values: { message: summary.error ?? "" } };
    if (clock.now() >= deadline) return { ok: false, failure: "pollFailed" };
    await clock.sleep(UPLOAD_TIMING.pollEvery);
  }
}
