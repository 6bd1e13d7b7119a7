/**
 * The upload centre's error reports, kept in the browser and sent to the server's
 * `uploadErrLog`: a report waits until 5 s pass without a new one (a failing device reports in
 * bursts), and every 20 s whatever is still waiting (a send that failed) is tried again. At most
 * 500 reports wait; past that the oldest 250 are dropped. One call carries at most 250 reports of
 * at most 2048 characters (what the server accepts).
 */
export type ErrorReport = { operatorUserId: number; patientUserId: number | null; content: string };

export const ERROR_LOG = {
  debounceMs: 5000,
  checkEveryMs: 20_000,
  keep: 500,
  drop: 250,
  perCall: 250,
  contentChars: 2048,
} as const;

/** Sends reports; true when the server stored them. */
export type ReportSender = (list: ErrorReport[]) => Promise<boolean>;

export class UploadErrorLog {
  private waiting: ErrorReport[] = [];
  private debounce: ReturnType<typeof setTimeout> | null = null;
  private readonly check: ReturnType<typeof setInterval>;
  private sending = false;

  constructor(private readonly send: ReportSender) {
    this.check = setInterval(() => void this.flush(), ERROR_LOG.checkEveryMs);
  }

  add(report: ErrorReport): void {
    this.waiting.push({
      ...report,
      content: report.content.trim().slice(0, ERROR_LOG.contentChars),
    });
    if (this.waiting.length > ERROR_LOG.keep) this.waiting = this.waiting.slice(ERROR_LOG.drop);
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.flush(), ERROR_LOG.debounceMs);
  }

  get pending(): number {
    return this.waiting.length;
  }

  /** Sends what waits, 250 at a time; what a failed call carried waits for the next try. */
  async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.slice(0, ERROR_LOG.perCall);
        const stored = await this.send(batch).catch(() => false);
        if (!stored) return;
        this.waiting = this.waiting.slice(batch.length);
      }
    } finally {
      this.sending = false;
    }
  }

  /** Stops the timers (the page is left). */
  stop(): void {
    clearInterval(this.check);
    if (this.debounce) clearTimeout(this.debounce);
  }
}
