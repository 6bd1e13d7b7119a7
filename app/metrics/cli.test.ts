import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { IGLU_SCALAR_KEYS } from "./iglu-keys";
import { IGLU_CSV, loadIgluExpected, relClose } from "./test-utils";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const CLI = join(ROOT, "app", "metrics", "cli.ts");

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [CLI, ...args],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const tmp = mkdtempSync(join(tmpdir(), "diacare-metrics-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("metrics CLI", { timeout: 60_000 }, () => {
  it("prints iglu's values for the reference data (Subject 1 checked key by key)", async () => {
    const { code, stdout, stderr } = await run([IGLU_CSV]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Record<string, Record<string, unknown>>;
    expect(Object.keys(out)).toEqual([
      "Subject 1",
      "Subject 2",
      "Subject 3",
      "Subject 4",
      "Subject 5",
    ]);
    const s1 = out["Subject 1"]!;
    const expected = loadIgluExpected();
    const e1 = expected.subjects["Subject 1"]!;
    for (const key of IGLU_SCALAR_KEYS) {
      expect(
        relClose(s1[key] as number, e1[key]!),
        `${key}: ${String(s1[key])} vs ${e1[key]}`,
      ).toBe(true);
    }
    expect(typeof s1["auc100"]).toBe("number");
    expect(typeof s1["aac100"]).toBe("number");
    const agp = s1["agp"] as Record<string, (number | null)[]>;
    const ea = expected.agp["Subject 1"]!;
    for (const p of ["p5", "p25", "p50", "p75", "p95"] as const) {
      expect(agp[p]!.length).toBe(288);
      agp[p]!.forEach((v, i) =>
        expect(Math.abs((v as number) - ea[p][i]!), `${p}[${i}]`).toBeLessThanOrEqual(1e-6),
      );
    }
  });

  it("follows --tz for day boundaries (ADRR of iglu's EST data)", async () => {
    const { code, stdout } = await run([IGLU_CSV, "--tz", "-05:00"]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Record<string, Record<string, number>>;
    const est = loadIgluExpected().tz_sensitivity_original_EST.subjects;
    for (const id of Object.keys(est))
      expect(relClose(out[id]!["adrr"], est[id]!["adrr"]!), id).toBe(true);
  });

  it("exits 2 with the line number on an unparsable time", async () => {
    const file = join(tmp, "bad-time.csv");
    writeFileSync(
      file,
      'id,time,gl\n"p","2024-01-01T00:00:00Z",100\n"p","2024-01-01T00:05:00Z",105\n"p","not a time",110\n',
    );
    const { code, stdout, stderr } = await run([file]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`${file}:4:`);
    expect(stderr).toContain("line 4");
    expect(stderr).toContain("cannot parse time");
  });

  it("exits 2 on a missing column, a bad number, a bad zone or no file", async () => {
    const missing = join(tmp, "missing.csv");
    writeFileSync(missing, "id,time\np,2024-01-01T00:00:00Z\n");
    const m = await run([missing]);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain("line 1");
    expect(m.stderr).toContain("missing column gl");

    const badNumber = join(tmp, "bad-number.csv");
    writeFileSync(badNumber, "id,time,gl\np,2024-01-01T00:00:00Z,12x\n");
    const b = await run([badNumber]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("line 2");

    const z = await run([badNumber, "--tz", "Nowhere/City"]);
    expect(z.code).toBe(2);
    expect(z.stderr).toContain("invalid time zone");

    const none = await run([join(tmp, "does-not-exist.csv")]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("cannot read file");

    const usage = await run([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage");
  });
});
