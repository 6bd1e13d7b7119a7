import type { CgmUploadApi } from "./cgm-upload";
import type { ErrorReport } from "./error-log";
import type { MeterUploadApi } from "./meter-upload";
import type { PumpUploadApi } from "./pump-upload";
import type { Envelope } from "./upload-api";

/**
 * The upload calls from the browser: same-origin `/api/` requests with the page's session (no
 * token), JSON bodies, and a time limit per call: 15 s, 30 s for settings, 60 s for a CGM save,
 * 120 s for another call that stores records. A call that cannot be made rejects (a time limit with
 * a "TimeoutError" DOMException, the network with a TypeError); the upload steps treat that as a
 * lost call (a slice is sent again; a one-call save fails the upload).
 */
export const CALL_LIMIT_MS = {
  default: 15_000,
  settings: 30_000,
  cgmSave: 60_000,
  save: 120_000,
} as const;

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export type BrowserUploadApi = PumpUploadApi &
  MeterUploadApi &
  CgmUploadApi & { uploadErrLog(list: ErrorReport[]): Promise<Envelope<unknown>> };

export function browserUploadApi(
  fetchImpl: Fetch = (input, init) => fetch(input, init),
): BrowserUploadApi {
  async function call<T>(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    limitMs: number,
  ): Promise<Envelope<T>> {
    const response = await fetchImpl(path, {
      method,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(limitMs),
    });
    return (await response.json()) as Envelope<T>;
  }
  const post = <T>(path: string, body: unknown, limitMs: number = CALL_LIMIT_MS.default) =>
    call<T>("POST", path, body, limitMs);
  const get = <T>(path: string) => call<T>("GET", path, undefined, CALL_LIMIT_MS.default);
  return {
    getSliceId: (start) => post("/api/patient-data/getSliceId", start),
    sliceSave: (slice) => post("/api/patient-data/sliceSave", slice, CALL_LIMIT_MS.save),
    completeSliceTask: (done) => post("/api/patient-data/completeSliceTask", done),
    checkSave: (sliceId) => get(`/api/patient-data/checkSave?sliceId=${sliceId}`),
    findLastRecord: (pid, origin) =>
      get(`/api/patient-data/findLastRecord?pid=${pid}&origin=${origin}`),
    saveBasalPrograms: (body) =>
      post("/api/basal-rate-base-setting/save", body, CALL_LIMIT_MS.settings),
    savePumpSettings: (body) => post("/api/pda-setting/saveOrUpdate", body, CALL_LIMIT_MS.settings),
    saveCgmsData: (body) => post("/api/patient-data/saveCgmsData", body, CALL_LIMIT_MS.cgmSave),
    saveSugar: (body) => post("/api/patient-data/saveSugar", body, CALL_LIMIT_MS.save),
    uploadErrLog: (list) => post("/api/patient-data/uploadErrLog", { list }),
  };
}
