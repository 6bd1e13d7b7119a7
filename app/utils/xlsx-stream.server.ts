/**
 * An .xlsx workbook written as it is made (exceljs's streaming WorkbookWriter) into a web
 * ReadableStream that an HTTP answer carries: rows are turned into sheet XML and zipped as they
 * come, and nothing holds the whole workbook. The producer waits ({@link XlsxStream.ready}) while
 * the zip has not compressed what was written or the reader has not taken what was zipped, so
 * neither a slow download nor a busy machine fills the server's memory.
 *
 * Rules of exceljs's streaming writer that shape this module:
 * - Each sheet enters the zip when it is added, and the zip takes one entry after the other: rows
 *   of a sheet added after one that is still open wait in memory until that one is committed. So
 *   a sheet is added only when the one before it is committed, and the tabs are in the order the
 *   sheets were written; {@link XlsxStream.openOnLastSheet} names the tab the workbook opens on.
 * - The style of every row and cell is written out as XML and looked up, unless rows and cells
 *   share style objects (those are remembered): every row gets one empty style, each column one
 *   style for its cells, and every empty cell another (a third of the time a row took before).
 * - Strings are written inline (no shared-strings table kept in memory).
 * - A sheet's XML is handed to the zip's compressor without regard to how much it still holds,
 *   so the compressor's backlog is read from the sheet's stream ({@link XlsxSheet.zipBacklog}):
 *   the only place exceljs's internals are used.
 */
import ExcelJS from "exceljs";
import { PassThrough } from "node:stream";

export interface XlsxColumn {
  readonly header: string;
  /** Width in characters. */
  readonly width: number;
  /** Excel number format ("0.0", "yyyy-mm-dd hh:mm:ss"), or null for General. */
  readonly numFmt: string | null;
}

export type XlsxCell = number | string | Date | null;

/** Bytes not yet compressed, or compressed but not yet taken by the reader, before the producer waits. */
const BUFFERED_LIMIT = 1 << 20;
/** How often a waiting producer looks at the compressor again (it signals nothing when it catches up). */
const ZIP_POLL_MS = 5;
/** zlib level of the zip: the fastest; sheet XML still shrinks about sevenfold. */
const ZIP_LEVEL = 1;
const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true } };
/** The one style of every row, and of every empty cell (see the file comment). */
const ROW_STYLE: Partial<ExcelJS.Style> = {};
const EMPTY_CELL_STYLE: Partial<ExcelJS.Style> = {};

/**
 * Gives a row the shared row style. exceljs keeps a row's style in its `style` property, which its
 * type declarations leave out.
 */
function shareRowStyle(row: ExcelJS.Row): void {
  (row as unknown as { style: Partial<ExcelJS.Style> }).style = ROW_STYLE;
}

/** One sheet of an {@link XlsxStream}: rows are written in order, then it is committed. */
export class XlsxSheet {
  private readonly styles: Partial<ExcelJS.Style>[];
  private started = false;
  rows = 0;

  constructor(
    private readonly sheet: ExcelJS.Worksheet,
    private readonly columns: readonly XlsxColumn[],
  ) {
    this.styles = columns.map((c) => (c.numFmt === null ? {} : { numFmt: c.numFmt }));
  }

  private start() {
    if (this.started) return;
    this.started = true;
    this.sheet.columns = this.columns.map((c) => ({ width: c.width }));
    const header = this.sheet.addRow(this.columns.map((c) => c.header));
    shareRowStyle(header);
    header.eachCell((cell) => (cell.style = HEADER_STYLE));
    header.commit();
  }

  /** Writes one row (its cells in the columns' order; null leaves a cell empty). */
  write(values: readonly XlsxCell[]): void {
    this.start();
    const row = this.sheet.addRow(values as XlsxCell[]);
    shareRowStyle(row);
    for (let c = 0; c < values.length; c++)
      row.getCell(c + 1).style = values[c] === null ? EMPTY_CELL_STYLE : this.styles[c]!;
    row.commit();
    this.rows += 1;
  }

  /**
   * Bytes of this sheet's XML handed on towards the zip but not yet taken by its compressor: what
   * the streams exceljs pipes the sheet into hold (its `stream.pipes`, streams of the
   * readable-stream package, whose lengths are in their `_writableState` and `_readableState`; 0
   * if a later exceljs keeps them elsewhere).
   */
  zipBacklog(): number {
    const pipes = (this.sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
    if (!Array.isArray(pipes)) return 0;
    type State = { length?: unknown } | undefined;
    const held = (state: State) => (typeof state?.length === "number" ? state.length : 0);
    let bytes = 0;
    for (const pipe of pipes as { _writableState?: State; _readableState?: State }[])
      bytes += held(pipe._writableState) + held(pipe._readableState);
    return bytes;
  }

  /** Ends the sheet (its header is written even when it has no rows). */
  commit(): void {
    this.start();
    this.sheet.commit();
  }
}

/** A workbook streamed as it is written. */
export class XlsxStream {
  private readonly out = new PassThrough();
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly chunks: AsyncIterator<Buffer>;
  private waiting: (() => void) | null = null;
  /** Set when the reader went away: the producer stops at its next {@link ready}. */
  cancelled = false;

  constructor() {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: this.out,
      useStyles: true,
      useSharedStrings: false,
      zip: { zlib: { level: ZIP_LEVEL } },
    });
    this.chunks = this.out[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  private sheets = 0;
  private current: XlsxSheet | null = null;

  /**
   * A new sheet, its header row frozen; add it only once the sheet before it is committed. The
   * tabs keep the order in which sheets are added.
   */
  addSheet(name: string, columns: readonly XlsxColumn[]): XlsxSheet {
    this.sheets += 1;
    this.current = new XlsxSheet(
      this.workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1 }] }),
      columns,
    );
    return this.current;
  }

  /** The workbook opens on the last sheet added so far (its tab selected). */
  openOnLastSheet(): void {
    this.workbook.views = [
      {
        x: 0,
        y: 0,
        width: 20000,
        height: 12000,
        firstSheet: 0,
        activeTab: this.sheets - 1,
        visibility: "visible",
      },
    ];
  }

  /**
   * Resolves once the zip has compressed what was written and the reader has taken what was
   * zipped (at once when little of either is waiting); false when the reader has gone and the
   * producer should stop.
   */
  async ready(): Promise<boolean> {
    // Let the zip and the reader run between batches of rows.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      if (this.cancelled) return false;
      if (this.out.readableLength > BUFFERED_LIMIT)
        await new Promise<void>((resolve) => (this.waiting = resolve));
      else if ((this.current?.zipBacklog() ?? 0) > BUFFERED_LIMIT)
        await new Promise((resolve) => setTimeout(resolve, ZIP_POLL_MS));
      else return true;
    }
  }

  /** Writes the rest of the workbook and ends the stream. */
  async finish(): Promise<void> {
    await this.workbook.commit();
  }

  /** Ends the stream with an error (the download breaks off). */
  fail(error: unknown): void {
    this.out.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  /** What the HTTP answer carries: each pull takes the next piece of the zip. */
  body(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const next = await this.chunks.next();
          const wake = this.waiting;
          this.waiting = null;
          wake?.();
          if (next.done) controller.close();
          else controller.enqueue(new Uint8Array(next.value));
        },
        cancel: () => {
          this.cancelled = true;
          const wake = this.waiting;
          this.waiting = null;
          wake?.();
          this.out.destroy();
        },
      },
      { highWaterMark: 0 },
    );
  }
}
