/**
 * The progress of one device upload as the upload centre shows it: a percent and a state.
 *
 * - Active uploads move the percent forward only; a value lower than the current one is kept out
 *   (steps of one device report in order, but a slow answer must not move the bar back).
 * - Success is 100. "No new records" and failures end the upload at the percent that tells where
 *   it stopped (98 or 98.1 no new records; 99.8 a slice the server refused; 99.9 the server's
 *   processing could not be followed), with the message to show.
 * - Once an upload has ended in a failure, every later update is ignored until `reset`: the
 *   user's last view of the failure stays until they start again.
 */

/** The percent each step of an upload reaches (the same on every device the product supports). */
export const PROGRESS = {
  passwordAccepted: 30,
  version: 60,
  settings: 62,
  pumpCgm: 65,
  timeZone: 70,
  history: 75,
  cgmDevice: 60,
  cgmFingerPricks: 65,
  cgmHistory: 70,
  uploaded: 99.01,
  serialStart: 10,
  serialRead: 60,
  serialUploadFrom: 99.1,
  serialUploadTo: 99.5,
  noNewRecords: 98,
  noNewRecordsServer: 98.1,
  sliceFailed: 99.8,
  pollFailed: 99.9,
  done: 100,
} as const;

/** Why an upload failed: a key of the `upload` namespace's `device` messages. */
export type UploadFailureKey =
  | "wrongPassword"
  | "wrongSoftwareVersion"
  | "cgmPda"
  | "equilPumpPda"
  | "timeout"
  | "replugUsb"
  | "deviceOpenFailed"
  | "accessError"
  | "notAccessoryMode"
  | "serialOpenFailed"
  | "serialStartFailed"
  | "deviceReadFailed"
  | "settingsReadFailed"
  | "versionIncorrect"
  | "uploadFailed"
  | "requestTimeout"
  | "requestFailed"
  | "pollFailed"
  | "sureSameDevice"
  | "notSupported"
  | "unknownUser";

export type UploadState =
  | { readonly status: "idle"; readonly percent: 0 }
  | { readonly status: "active"; readonly percent: number; readonly step: string }
  | {
      readonly status: "success";
      readonly percent: 100;
      readonly added: number;
      readonly duplicates: number;
      readonly flagged: number;
      readonly otherPatientDevice: boolean;
    }
  | { readonly status: "noNewRecords"; readonly percent: number }
  | {
      readonly status: "failed";
      readonly percent: number;
      readonly failure: UploadFailureKey;
      readonly values?: Readonly<Record<string, string | number>>;
    };

export const IDLE: UploadState = { status: "idle", percent: 0 };

/** The progress of one upload; listeners hear every state it takes. */
export class UploadProgress {
  private current: UploadState = IDLE;
  private readonly listeners = new Set<(state: UploadState) => void>();

  get state(): UploadState {
    return this.current;
  }

  subscribe(listener: (state: UploadState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An ended upload (success, no new records, failure) takes no update but `reset`. */
  get ended(): boolean {
    return (
      this.current.status === "success" ||
      this.current.status === "noNewRecords" ||
      this.current.status === "failed"
    );
  }

  step(percent: number, step: string): void {
    if (this.ended) return;
    const forward =
      this.current.status === "active" ? Math.max(this.current.percent, percent) : percent;
    this.set({ status: "active", percent: forward, step });
  }

  succeed(summary: {
    added: number;
    duplicates: number;
    flagged: number;
    otherPatientDevice: boolean;
  }): void {
    if (this.ended) return;
    this.set({ status: "success", percent: PROGRESS.done, ...summary });
  }

  noNewRecords(percent: typeof PROGRESS.noNewRecords | typeof PROGRESS.noNewRecordsServer): void {
    if (this.ended) return;
    this.set({ status: "noNewRecords", percent });
  }

  fail(failure: UploadFailureKey, values?: Record<string, string | number>): void {
    if (this.ended) return;
    const percent =
      failure === "uploadFailed"
        ? PROGRESS.sliceFailed
        : failure === "pollFailed"
          ? PROGRESS.pollFailed
          : this.current.percent;
    this.set({ status: "failed", percent, failure, ...(values ? { values } : {}) });
  }

  /** Back to the start: percent, device details and anything read are forgotten by the caller. */
  reset(): void {
    this.set(IDLE);
  }

  private set(state: UploadState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }
}
