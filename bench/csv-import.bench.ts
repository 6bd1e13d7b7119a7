/**
 * The CSV import through the real HTTP API (`POST /api/patient-data/importCsv`, multipart) on the
 * local PostgreSQL: a LibreView export just under the 2 MB limit (about 31,000 lines: 15-minute
 * historic readings, scans, insulin and food), previewed (dryRun=1, median of 5), imported, then
 * imported again (everything already stored, median of 5). Each call is timed from the request to
 * the answer.
 *
 * Targets: parse and preview < 1 s; import < 1.5 s; the same file again < 0.5 s.
 */
import { DEMO_ACCOUNTS } from "../prisma/seed";
import { syntheticLibreView } from "./csv.bench";
import { rssMegabytes, seededPatient, withBenchServer } from "./server";
import { median, type BenchResult } from "./timing";

const LIMIT_BYTES = 2 * 1024 * 1024;

/** The largest synthetic LibreView file under the import's 2 MB limit. */
function fileUnderLimit(): { bytes: Buffer; lines: number } {
  for (let lines = 32_000; lines > 0; lines -= 250) {
    const bytes = syntheticLibreView(lines);
    if (bytes.byteLength <= LIMIT_BYTES) return { bytes, lines };
  }
  throw new Error("no file fits the limit");
}

async function apiToken(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/user/login`, {
    method: "POST",
    body: JSON.stringify({
      userName: DEMO_ACCOUNTS.patient.email,
      password: DEMO_ACCOUNTS.patient.password,
      identity: 1,
    }),
    headers: { Origin: origin, "Content-Type": "application/json" },
  });
  const token = res.headers.get("token");
  if (!token) throw new Error(`API sign-in failed: HTTP ${res.status}`);
  return token;
}

type Answer = {
  code: number;
  msg: string;
  data: { inserted: number; duplicates: number; counts: Record<string, number> };
};

export async function benchCsvImport(): Promise<BenchResult[]> {
  return withBenchServer("csv_import", async (server) => {
    const { pid } = await seededPatient(server.databaseUrl);
    const token = await apiToken(server.origin);
    const file = fileUnderLimit();
    const post = async (dryRun: boolean) => {
      const form = new FormData();
      form.set("pid", String(pid));
      form.set("timeZone", "Europe/Warsaw");
      form.set("dryRun", dryRun ? "1" : "0");
      form.set(
        "file",
        new File([new Uint8Array(file.bytes)], "libreview.csv", { type: "text/csv" }),
      );
      const t0 = performance.now();
      const res = await fetch(`${server.origin}/api/patient-data/importCsv`, {
        method: "POST",
        body: form,
        headers: { token, Origin: server.origin },
      });
      const answer = (await res.json()) as Answer;
      const ms = performance.now() - t0;
      if (answer.code !== 200) throw new Error(`importCsv: ${answer.code} ${answer.msg}`);
      return { ms, answer: answer.data };
    };
    /** The median of `times` calls (each answers the same: a preview, or an import of a file already stored). */
    const medianOf = async (times: number, dryRun: boolean) => {
      const runs = [];
      for (let i = 0; i < times; i++) runs.push(await post(dryRun));
      return {
        ms: median(runs.map((r) => r.ms)),
        answer: runs[0]!.answer,
        spread: `${Math.round(Math.min(...runs.map((r) => r.ms)))}-${Math.round(Math.max(...runs.map((r) => r.ms)))} ms`,
      };
    };
    const before = rssMegabytes(server.serverPid);
    const preview = await medianOf(5, true);
    const imported = await post(false);
    const again = await medianOf(5, false);
    const size = `${(file.bytes.byteLength / 1024 / 1024).toFixed(2)} MiB, ${file.lines} lines`;
    return [
      {
        name: "CSV import: LibreView file, preview (dryRun)",
        ms: preview.ms,
        detail: `target < 1000 ms; median of 5 (${preview.spread}); ${size}; would add ${preview.answer.inserted}`,
      },
      {
        name: "CSV import: the same file imported",
        ms: imported.ms,
        detail: `target < 1500 ms; added ${imported.answer.inserted}, ${imported.answer.duplicates} duplicates`,
      },
      {
        name: "CSV import: the same file again",
        ms: again.ms,
        detail: `target < 500 ms; median of 5 (${again.spread}); added ${again.answer.inserted}, ${again.answer.duplicates} duplicates`,
      },
      {
        name: "CSV import: server RSS",
        ms: Number.NaN,
        detail: `${before} before, ${rssMegabytes(server.serverPid)} after`,
      },
    ];
  });
}
