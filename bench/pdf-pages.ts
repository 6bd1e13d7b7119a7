import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const HAS_PDFINFO = spawnSync("pdfinfo", ["-v"]).error === undefined;

/** Whether the bytes start like a PDF file. */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}

/**
 * A PDF's page count: pdfinfo's (poppler-utils) when it is installed, 0 when pdfinfo cannot read
 * the file; without pdfinfo, the number of `/Type /Page` objects (Chromium writes them
 * uncompressed).
 */
export function pdfPageCount(pdf: Uint8Array): number {
  if (!HAS_PDFINFO)
    return (
      Buffer.from(pdf)
        .toString("latin1")
        .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
    );
  const dir = mkdtempSync(path.join(os.tmpdir(), "diacare-bench-pdf-"));
  try {
    const file = path.join(dir, "report.pdf");
    writeFileSync(file, pdf);
    return Number(
      /Pages:\s+(\d+)/.exec(
        execFileSync("pdfinfo", [file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
      )?.[1] ?? 0,
    );
  } catch {
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
