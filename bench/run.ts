// `npm run bench`: runs every bench/*.bench.ts module's exported `bench*` functions and prints
// their figures. Targets are stated next to each figure; nothing here fails a build.
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

type Result = { name: string; ms: number; detail?: string };

const dir = path.dirname(new URL(import.meta.url).pathname);
// The benchmarks of the production server (each with its own database and server, one after the
// other) run after the in-process ones.
const SERVER_BENCHES = [
  "csv-import.bench.ts",
  "device-upload.bench.ts",
  "excel-export.bench.ts",
  "pages.bench.ts",
  "report-pdf.bench.ts",
  "triage.bench.ts",
  "nightscout.bench.ts",
  "load.bench.ts",
];
const last = (f: string) => Number(SERVER_BENCHES.includes(f));
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort((a, b) => last(a) - last(b) || a.localeCompare(b));
const only = process.argv[2];

for (const file of files) {
  if (only && !file.includes(only)) continue;
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith("bench") || typeof fn !== "function") continue;
    const results = (await (fn as () => Promise<Result[]>)()) ?? [];
    console.log(`\n${file} · ${name}`);
    for (const r of results) {
      const figure = Number.isNaN(r.ms) ? "".padStart(13) : `${r.ms.toFixed(2).padStart(10)} ms`;
      console.log(`  ${r.name.padEnd(48)} ${figure}${r.detail ? `  ${r.detail}` : ""}`);
    }
  }
}
