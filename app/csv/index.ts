/**
 * The CSV layer: reading glucose data files (Dexcom Clarity, LibreView, a generic time/glucose
 * file, our own export) into normalised entries, and writing our own export. Pure: no database, no
 * React. docs/csv-format.md describes the formats.
 */
export {
  decodeCsvBytes,
  detectDelimiter,
  type Decoded,
  type Delimiter,
  type TextEncodingName,
} from "./decode";
export { detectFormat, genericDataColumns, type Detection } from "./detect";
export { DIACARE_COLUMNS, type DiacareColumn } from "./diacare-columns";
export { parseCsvFile, parseCsvText } from "./parse-csv";
export { PREVIEW_ERRORS, summarizeCsv, type CsvSummary } from "./summary";
export {
  diacareCsvStream,
  exportCells,
  writeDiacareCsv,
  type DiacareWriteOptions,
  type ExportRow,
  type ExportRowBase,
} from "./write";
export * from "./types";
