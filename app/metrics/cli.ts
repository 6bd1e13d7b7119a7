/**
 * Metrics command-line tool.
 *
 *   npx tsx app/metrics/cli.ts FILE.csv [--tz ZONE]
 *
 * Reads a CSV with the header id,time,gl (csv.ts: ISO 8601 times, glucose in mg/dL, fields may be
 * double-quoted) and prints one JSON object { "<id>": { "<metric>": number | null, ...,
 * "agp": { p5: [288], p25, p50, p75, p95 } } } with iglu's key names (iglu-keys.ts). Day
 * boundaries (ADRR days, the grid's first midnight, the AGP's time of day) follow --tz, an IANA
 * zone (default UTC). Exit codes: 0 success; 2 bad usage or bad input (message with the line
 * number on stderr).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { CsvInputError, parseCgmCsv } from "./csv";
import { toIgluRecord, type IgluRecord } from "./iglu-keys";
import { computeAll } from "./index";
import { assertTimeZone } from "./timezone";

const USAGE = "usage: tsx app/metrics/cli.ts FILE.csv [--tz ZONE]";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI on its arguments (without node and script); pure apart from reading the file. */
export function runCli(args: readonly string[]): CliResult {
  let file: string | undefined;
  let timeZone = "UTC";
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--tz") {
      const z = args[i + 1];
      if (z === undefined)
        return { code: 2, stdout: "", stderr: `--tz needs a time zone\n${USAGE}\n` };
      timeZone = z;
      i++;
    } else if (a.startsWith("--tz=")) {
      timeZone = a.slice("--tz=".length);
    } else if (a === "-h" || a === "--help") {
      return { code: 0, stdout: `${USAGE}\n`, stderr: "" };
    } else if (a.startsWith("-") && a !== "-") {
      return { code: 2, stdout: "", stderr: `unknown option ${a}\n${USAGE}\n` };
    } else if (file === undefined) {
      file = a;
    } else {
      return { code: 2, stdout: "", stderr: `unexpected argument ${a}\n${USAGE}\n` };
    }
  }
  if (file === undefined) return { code: 2, stdout: "", stderr: `${USAGE}\n` };
  try {
    assertTimeZone(timeZone);
  } catch {
    return {
      code: 2,
      stdout: "",
      stderr: `invalid time zone ${JSON.stringify(timeZone)} (expected an IANA zone such as Europe/Warsaw)\n`,
    };
  }
  let text: string;
  try {
    text = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    return { code: 2, stdout: "", stderr: `${file}: cannot read file (${(e as Error).message})\n` };
  }
  try {
    const out: Record<string, IgluRecord> = {};
    for (const s of parseCgmCsv(text, timeZone))
      out[s.id] = toIgluRecord(computeAll(s.readings, { timeZone }));
    return { code: 0, stdout: `${JSON.stringify(out)}\n`, stderr: "" };
  } catch (e) {
    if (e instanceof CsvInputError)
      return { code: 2, stdout: "", stderr: `${file}:${e.line}: error: ${e.message}\n` };
    throw e;
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  const r = runCli(process.argv.slice(2));
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  process.exitCode = r.code;
}
