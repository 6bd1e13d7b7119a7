import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { XlsxStream } from "./xlsx-stream.server";

const COLUMNS = [
  { header: "Patient ID", width: 10, numFmt: "0" },
  { header: "Local time", width: 20, numFmt: "yyyy-mm-dd hh:mm:ss" },
  { header: "Glucose", width: 10, numFmt: "0.0" },
  { header: "Serial", width: 10, numFmt: null },
];

/** Reads a web stream to the end, optionally waiting `delayMs` before each piece. */
async function readAll(body: ReadableStream<Uint8Array>, delayMs = 0): Promise<ArrayBuffer> {
  const pieces: Uint8Array[] = [];
  const reader = body.getReader();
  for (;;) {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const { done, value } = await reader.read();
    if (done) {
      const all = new Uint8Array(pieces.reduce((n, piece) => n + piece.byteLength, 0));
      let at = 0;
      for (const piece of pieces) {
        all.set(piece, at);
        at += piece.byteLength;
      }
      return all.buffer;
    }
    pieces.push(value);
  }
}

describe("XlsxStream", () => {
  it("writes sheets that read back: header, values, number formats, empty cells, the tab it opens on", async () => {
    const xlsx = new XlsxStream();
    const body = readAll(xlsx.body());
    const first = xlsx.addSheet("CGM", COLUMNS);
    first.write([7, new Date(Date.UTC(2026, 10, 20, 8, 0)), 8.5, "AX1"]);
    first.write([7, new Date(Date.UTC(2026, 10, 20, 8, 5)), null, "AX1"]);
    first.commit();
    const summary = xlsx.addSheet("Summary", COLUMNS.slice(0, 1));
    summary.write([7]);
    summary.commit();
    xlsx.openOnLastSheet();
    await xlsx.finish();

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await body);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["CGM", "Summary"]);
    expect(workbook.views[0]?.activeTab).toBe(1);
    const sheet = workbook.getWorksheet("CGM")!;
    expect(sheet.getRow(1).getCell(2).value).toBe("Local time");
    expect(sheet.getRow(1).getCell(2).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const row = sheet.getRow(2);
    expect((row.getCell(2).value as Date).toISOString()).toBe("2026-11-20T08:00:00.000Z");
    expect(row.getCell(2).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect([row.getCell(3).value, row.getCell(3).numFmt]).toEqual([8.5, "0.0"]);
    expect(row.getCell(4).value).toBe("AX1");
    expect(sheet.getRow(3).getCell(3).value).toBeNull();
  });

  it("keeps at most about a megabyte waiting for the compressor and for a slow reader", async () => {
    const xlsx = new XlsxStream();
    const body = readAll(xlsx.body(), 1);
    const sheet = xlsx.addSheet("CGM", COLUMNS);
    let most = 0;
    const start = Date.UTC(2026, 0, 1);
    // 60,000 rows are about 4 MB of sheet XML: without the waits it would all be held at once.
    for (let i = 0; i < 60_000; i++) {
      sheet.write([i % 100, new Date(start + i * 300_000), 5 + (i % 70) / 10, `AX${i % 7}`]);
      if (i % 1000 === 999) {
        most = Math.max(most, sheet.zipBacklog());
        expect(await xlsx.ready()).toBe(true);
      }
    }
    sheet.commit();
    await xlsx.finish();
    expect(Buffer.from(await body, 0, 2).toString()).toBe("PK");
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(2 * 1024 * 1024);
  });

  it("tells the producer to stop when the reader goes away", async () => {
    const xlsx = new XlsxStream();
    const reader = xlsx.body().getReader();
    const sheet = xlsx.addSheet("CGM", COLUMNS);
    for (let i = 0; i < 1000; i++) sheet.write([i, new Date(0), 1, "x"]);
    await reader.cancel();
    expect(await xlsx.ready()).toBe(false);
  });
});
