// Linux /proc readers for the PDF tests and benchmark: which processes a Chromium left behind
// (zombies included, which `pgrep -f` cannot see: their command line is empty) and their memory.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters), e.g. "node", "chromium". */
  comm: string;
  /** R, S, Z (zombie), ... */
  state: string;
  ppid: number;
  pgid: number;
  /** User plus system CPU time so far. */
  cpuMs: number;
  rssKb: number;
  /** Proportional set size: shared pages divided among their users, so a sum is meaningful. */
  pssKb: number;
  cmdline: string;
}

type Stat = Pick<ProcInfo, "pid" | "comm" | "state" | "ppid" | "pgid" | "cpuMs">;

/** Milliseconds per /proc clock tick (USER_HZ is 100 on Linux). */
const TICK_MS = 10;

/** Name, state, parent, process group and CPU time from /proc/PID/stat (cheap), or undefined if it exited. */
function readStat(pid: number): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    return {
      pid,
      comm: stat.slice(stat.indexOf("(") + 1, close),
      state: fields[0]!,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      cpuMs,
    };
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
export function readProc(pid: number, pss: boolean): ProcInfo | undefined {
  const stat = readStat(pid);
  if (!stat) return undefined;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readOr(`/proc/${pid}/status`, ""))?.[1] ?? 0);
  const pssKb = pss
    ? Number(/Pss:\s+(\d+)/.exec(readOr(`/proc/${pid}/smaps_rollup`, ""))?.[1] ?? rssKb)
    : rssKb;
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

/**
 * Every process below `pid` (children, their children, ...), zombies included, from the parent
 * links in /proc/PID/stat: unlike /proc/PID/task/TID/children this also finds processes that
 * another thread started (Chromium starts its helpers from a launcher thread).
 */
export function descendants(pid: number, { pss = false } = {}): ProcInfo[] {
  const children = new Map<number, number[]>();
  for (const stat of pids().map(readStat)) {
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat.pid]);
  }
  const below = (parent: number): number[] =>
    (children.get(parent) ?? []).flatMap((child) => [child, ...below(child)]);
  return below(pid)
    .map((child) => readProc(child, pss))
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
