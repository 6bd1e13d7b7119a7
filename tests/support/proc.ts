// Linux /proc readers for the PDF tests and benchmark: which processes a Chromium left behind
// (zombies included, which `pgrep -f` cannot see: their command line is empty) and their memory.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  /** R, S, Z (zombie), ... */
  state: string;
  pgid: number;
  rssKb: number;
  /** Proportional set size: shared pages divided among their users, so a sum is meaningful. */
  pssKb: number;
  cmdline: string;
}

/** pid, state and process group from /proc/PID/stat (cheap), or undefined if it exited. */
function readStat(pid: number): { pid: number; state: string; pgid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, state: fields[0]!, pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return fallback; // exited meanwhile, or a zombie (no smaps)
  }
}

/** Memory and command line; PSS only when asked (smaps_rollup walks every mapping: slow). */
function readProc(pid: number, pss: boolean): ProcInfo | undefined {
  const stat = readStat(pid);
  if (!stat) return undefined;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readOr(`/proc/${pid}/status`, ""))?.[1] ?? 0);
  const pssKb = pss ? Number(/Pss:\s+(\d+)/.exec(readOr(`/proc/${pid}/smaps_rollup`, ""))?.[1] ?? rssKb) : rssKb;
  const cmdline = readOr(`/proc/${pid}/cmdline`, "").replaceAll("\0", " ").trim();
  return { ...stat, rssKb, pssKb, cmdline };
}

function pids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export function allProcesses(): ProcInfo[] {
  return pids()
    .map((pid) => readProc(pid, false))
    .filter((p): p is ProcInfo => p !== undefined);
}

/** Members of a process group (Puppeteer makes Chromium a group leader: pgid = its pid), zombies included. */
export function processGroup(pgid: number, { pss = false } = {}): ProcInfo[] {
  return pids()
    .filter((pid) => readStat(pid)?.pgid === pgid)
    .map((pid) => readProc(pid, pss))
    .filter((p): p is ProcInfo => p !== undefined);
}

/** Processes whose command line mentions `text` (e.g. a unique --user-data-dir). */
export function processesMentioning(text: string): ProcInfo[] {
  return allProcesses().filter((p) => p.cmdline.includes(text));
}

/** Polls until `check` returns true or `ms` pass; returns the last result. */
export async function eventually(check: () => boolean, ms = 10_000, every = 100): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
  return check();
}
