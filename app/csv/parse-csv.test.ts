import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCsvFile, parseCsvText } from "./parse-csv";
import { summarizeCsv } from "./summary";
import type { CsvEntry, CsvParseOutcome, CsvParseResult } from "./types";

// Every expected value below is read off the fixture by hand (mmol/L x 18 worked out on paper).

const FIXTURES = path.resolve("tests/fixtures/csv");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

function ok(outcome: CsvParseOutcome): CsvParseResult {
  if (!outcome.ok) throw new Error(`expected a result, got ${outcome.key}`);
  return outcome;
}

const at = (result: CsvParseResult, line: number) => result.entries.filter((e) => e.line === line);
const only = (result: CsvParseResult, line: number): CsvEntry => {
  const found = at(result, line);
  expect(found).toHaveLength(1);
  return found[0]!;
};

type Case = {
  file: string;
  format: CsvParseResult["format"];
  unit: CsvParseResult["unit"];
  lines: number;
  counts: { cgm: number; bg: number; carbs: number; insulin: number; pump: number };
  first: string;
  last: string;
  device: { name: string | null; serial: string | null };
  dateOrder?: "DMY" | "MDY" | "YMD";
  clock?: "24h" | "12h";
  /** Entries by line: [line, expected fields]. */
  spots: [number, Partial<CsvEntry>][];
};

const CASES: Case[] = [
  {
    file: "clarity-g7-mgdl.csv",
    format: "clarity",
    unit: "mg/dL",
    lines: 33,
    counts: { cgm: 17, bg: 1, carbs: 1, insulin: 2, pump: 0 },
    first: "2026-01-05 07:00:12",
    last: "2026-01-06 18:05:12",
    device: { name: "Dexcom G7 Mobile App", serial: "123456789012" },
    spots: [
      [12, { kind: "cgm", wall: "2026-01-05 07:00:12", mgdl: 112 }],
      [16, { kind: "insulin", wall: "2026-01-05 07:16:00", units: 4.5, insulin: "rapid" }],
      [17, { kind: "carbs", wall: "2026-01-05 07:17:00", grams: 45 }],
      [21, { kind: "bg", wall: "2026-01-05 07:31:40", mgdl: 152 }],
      [28, { kind: "insulin", wall: "2026-01-05 22:00:00", units: 18, insulin: "long" }],
      [29, { kind: "cgm", wall: "2026-01-06 02:10:12", mgdl: 40, limit: "low" }],
      [31, { kind: "cgm", wall: "2026-01-06 17:40:12", mgdl: 400, limit: "high" }],
      [34, { kind: "cgm", wall: "2026-01-06 18:05:12", mgdl: 388 }],
    ],
  },
  {
    file: "clarity-g6-mmol.csv",
    format: "clarity",
    unit: "mmol/L",
    lines: 20,
    counts: { cgm: 12, bg: 1, carbs: 1, insulin: 1, pump: 0 },
    first: "2025-11-02 06:58:31",
    last: "2025-11-03 07:35:31",
    device: { name: "android G6", serial: null },
    spots: [
      [7, { kind: "cgm", wall: "2025-11-02 06:58:31", mgdl: 97.2 }], // 5.4 x 18
      [10, { kind: "cgm", mgdl: 140.4 }], // 7.8 x 18
      [11, { kind: "insulin", units: 3, insulin: "rapid" }],
      [13, { kind: "cgm", mgdl: 180 }], // 10.0 x 18
      [15, { kind: "cgm", mgdl: 400, limit: "high" }],
      [16, { kind: "bg", wall: "2025-11-02 07:40:00", mgdl: 237.6 }], // 13.2 x 18
      [17, { kind: "cgm", mgdl: 70.2 }], // 3.9 x 18
      [18, { kind: "cgm", mgdl: 40, limit: "low" }],
      [19, { kind: "cgm", mgdl: 41.4 }], // 2.3 x 18
      [20, { kind: "carbs", grams: 30 }],
      [21, { kind: "cgm", wall: "2025-11-03 07:35:31", mgdl: 79.2 }], // 4.4 x 18
    ],
  },
  {
    file: "libreview-dmy-24h-mgdl.csv",
    format: "libreview",
    unit: "mg/dL",
    lines: 25,
    counts: { cgm: 14, bg: 1, carbs: 2, insulin: 5, pump: 0 },
    first: "2026-02-03 00:08:00",
    last: "2026-02-14 22:05:00",
    device: { name: "FreeStyle Libre 2", serial: "ABCD123-E4567" },
    dateOrder: "DMY",
    clock: "24h",
    spots: [
      [3, { kind: "cgm", wall: "2026-02-03 00:08:00", mgdl: 104 }],
      [9, { kind: "cgm", wall: "2026-02-14 09:01:00", mgdl: 95 }],
      [15, { kind: "cgm", wall: "2026-02-03 07:45:00", mgdl: 126 }], // a scan
      [17, { kind: "bg", wall: "2026-02-14 09:42:00", mgdl: 148 }],
      [20, { kind: "insulin", wall: "2026-02-14 09:45:00", units: 5.5, insulin: "rapid" }],
      [21, { kind: "insulin", wall: "2026-02-14 22:00:00", units: 14, insulin: "long" }],
      [23, { kind: "carbs", wall: "2026-02-03 07:48:00", grams: 40 }],
      [24, { kind: "carbs", wall: "2026-02-14 09:44:00", grams: 62 }], // its note spans lines 24-25
    ],
  },
  {
    file: "libreview-mdy-12h-mmol.csv",
    format: "libreview",
    unit: "mmol/L",
    lines: 16,
    counts: { cgm: 11, bg: 1, carbs: 1, insulin: 2, pump: 0 },
    first: "2026-01-15 00:05:00",
    last: "2026-01-16 21:00:00",
    device: { name: "FreeStyle LibreLink", serial: "0a1b2c3d-0000-4000-8000-000000000001" },
    dateOrder: "MDY",
    clock: "12h",
    spots: [
      [3, { kind: "cgm", wall: "2026-01-15 00:05:00", mgdl: 97.2 }], // 12:05 AM, 5.4 x 18
      [7, { kind: "cgm", wall: "2026-01-15 07:05:00", mgdl: 39.6 }], // 2.2 x 18
      [8, { kind: "cgm", wall: "2026-01-15 11:50:00", mgdl: 140.4 }], // 7.8 x 18
      [9, { kind: "cgm", wall: "2026-01-15 12:05:00", mgdl: 180 }], // 12:05 PM
      [11, { kind: "cgm", wall: "2026-01-15 13:15:00", mgdl: 169.2 }], // 01:15 PM, 9.4 x 18
      [12, { kind: "cgm", wall: "2026-01-15 23:59:00", mgdl: 120.6 }], // 6.7 x 18
      [13, { kind: "cgm", wall: "2026-01-16 08:10:00", mgdl: 113.4 }], // a scan, 6.3 x 18
      [14, { kind: "bg", wall: "2026-01-16 08:12:00", mgdl: 117 }], // 6.5 x 18
      [16, { kind: "insulin", wall: "2026-01-16 21:00:00", units: 20, insulin: "long" }],
      [17, { kind: "carbs", grams: 55.5 }],
    ],
  },
  {
    file: "libreview-ambiguous-24h.csv",
    format: "libreview",
    unit: "mg/dL",
    lines: 6,
    counts: { cgm: 6, bg: 0, carbs: 0, insulin: 0, pump: 0 },
    first: "2026-03-05 08:00:00",
    last: "2026-03-12 23:45:00",
    device: { name: "FreeStyle Libre 2", serial: "ABCD123-E4567" },
    dateOrder: "DMY",
    clock: "24h",
    spots: [
      [3, { kind: "cgm", wall: "2026-03-05 08:00:00", mgdl: 100 }],
      [7, { kind: "cgm", wall: "2026-03-08 08:00:00", mgdl: 120 }],
    ],
  },
  {
    file: "libreview-utf16le.txt",
    format: "libreview",
    unit: "mmol/L",
    lines: 4,
    counts: { cgm: 3, bg: 0, carbs: 1, insulin: 0, pump: 0 },
    first: "2026-04-20 10:00:00",
    last: "2026-04-20 10:32:00",
    device: { name: "FreeStyle Libre 2", serial: "ABCD123-E4567" },
    dateOrder: "DMY",
    clock: "24h",
    spots: [
      [3, { kind: "cgm", mgdl: 99 }], // 5,5 x 18
      [4, { kind: "cgm", mgdl: 108 }], // 6,0 x 18
      [5, { kind: "cgm", mgdl: 129.6 }], // 7,2 x 18
      [6, { kind: "carbs", grams: 30 }],
    ],
  },
  {
    file: "generic-header-mmol.csv",
    format: "generic",
    unit: "mmol/L",
    lines: 20,
    counts: { cgm: 20, bg: 0, carbs: 0, insulin: 0, pump: 0 },
    first: "2026-03-01 06:00:00",
    last: "2026-03-01 07:35:00",
    device: { name: null, serial: null },
    spots: [
      [2, { kind: "cgm", mgdl: 93.6 }], // 5.2 x 18
      [8, { kind: "cgm", wall: "2026-03-01 06:30:00", mgdl: 140.4 }], // 7.8 x 18
      [11, { kind: "cgm", mgdl: 163.8 }], // 9.1 x 18
      [21, { kind: "cgm", mgdl: 99 }], // 5.5 x 18
    ],
  },
  {
    file: "generic-semicolon-comma.csv",
    format: "generic",
    unit: "mmol/L",
    lines: 12,
    counts: { cgm: 12, bg: 0, carbs: 0, insulin: 0, pump: 0 },
    first: "2026-03-02 21:00:00",
    last: "2026-03-02 21:55:00",
    device: { name: null, serial: null },
    spots: [
      [1, { kind: "cgm", wall: "2026-03-02 21:00:00", mgdl: 109.8 }], // 6,1 x 18
      [5, { kind: "cgm", mgdl: 131.4 }], // 7,3 x 18
      [12, { kind: "cgm", mgdl: 79.2 }], // 4,4 x 18
    ],
  },
  {
    file: "generic-unit-column.csv",
    format: "generic",
    unit: "mg/dL",
    lines: 8,
    counts: { cgm: 8, bg: 0, carbs: 0, insulin: 0, pump: 0 },
    first: "2026-04-10 12:00:00",
    last: "2026-04-10 12:35:00",
    device: { name: null, serial: null },
    spots: [
      [2, { kind: "cgm", mgdl: 110 }],
      [4, { kind: "cgm", mgdl: 126 }], // "mg/dl"
      [5, { kind: "cgm", mgdl: 135 }], // 7.5 mmol/L x 18
      [6, { kind: "cgm", mgdl: 142.2 }], // 7.9 "MMOL/L" x 18
      [7, { kind: "cgm", mgdl: 150 }], // no unit: the file's, mg/dL
      [9, { kind: "cgm", mgdl: 172.8 }], // 9.6 x 18
    ],
  },
  {
    file: "diacare-export.csv",
    format: "diacare",
    unit: "mg/dL",
    lines: 6,
    counts: { cgm: 2, bg: 1, carbs: 1, insulin: 1, pump: 1 },
    first: "2026-03-29 01:55:00",
    last: "2026-03-29 13:22:00",
    device: { name: "aidex", serial: "GX-01,A" },
    spots: [
      [2, { kind: "cgm", wall: "2026-03-29 01:55:00", mgdl: 106.2 }],
      [3, { kind: "cgm", wall: "2026-03-29 03:00:00", mgdl: 40, limit: "low" }],
      [4, { kind: "bg", mgdl: 142 }],
      [5, { kind: "carbs", grams: 45.5 }],
      [6, { kind: "insulin", units: 4.35, insulin: "rapid" }],
    ],
  },
];

describe.each(CASES)("$file", (c) => {
  it("is read with the expected format, unit, device and counts", async () => {
    const result = ok(await parseCsvFile(fixture(c.file)));
    const summary = summarizeCsv(result);
    expect(result.format).toBe(c.format);
    expect(result.unit).toBe(c.unit);
    expect(result.device).toEqual(c.device);
    expect(result.errors).toEqual([]);
    expect(result.lines).toBe(c.lines);
    expect(summary.counts).toEqual(c.counts);
    expect([summary.first, summary.last]).toEqual([c.first, c.last]);
    expect(result.dateOrder).toBe(c.dateOrder);
    expect(result.clock).toBe(c.clock);
  });

  it("converts the values written on given lines", async () => {
    const result = ok(await parseCsvFile(fixture(c.file)));
    for (const [line, expected] of c.spots)
      expect(only(result, line), `line ${line}`).toMatchObject({ line, ...expected });
  });

  it("keeps the entries in file order", async () => {
    const lines = ok(await parseCsvFile(fixture(c.file))).entries.map((e) => e.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });
});

describe("LibreView details", () => {
  it("makes one entry for each insulin column of an insulin line", async () => {
    const result = ok(await parseCsvFile(fixture("libreview-dmy-24h-mgdl.csv")));
    expect(at(result, 22)).toMatchObject([
      { kind: "insulin", wall: "2026-02-14 22:05:00", units: 1, insulin: "rapid" },
      { kind: "insulin", wall: "2026-02-14 22:05:00", units: 2, insulin: "long" },
    ]);
  });

  it("skips ketone, time-change and non-numeric food lines without errors", async () => {
    const result = ok(await parseCsvFile(fixture("libreview-dmy-24h-mgdl.csv")));
    // 18: ketone (type 3); 26: non-numeric food; 27, 28: type 6
    for (const line of [18, 26, 27, 28]) expect(at(result, line)).toEqual([]);
    expect(result.errors).toEqual([]);
  });

  it("names the device of every line", async () => {
    const result = ok(await parseCsvFile(fixture("libreview-mdy-12h-mmol.csv")));
    expect(new Set(result.entries.map((e) => e.device?.serial))).toEqual(
      new Set(["0a1b2c3d-0000-4000-8000-000000000001"]),
    );
  });

  const lv = (stamps: string[]) =>
    [
      "Glucose Data,Generated on,x,Generated by,y",
      "Device,Serial Number,Device Timestamp,Record Type,Historic Glucose mg/dL,Scan Glucose mg/dL",
      ...stamps.map((s, i) => `FreeStyle LibreLink,S1,${s},0,${100 + i},`),
    ].join("\n");

  it.each([
    [
      "an ambiguous 12-hour file is month-first",
      ["05-03-2026 08:00 AM", "06-03-2026 09:30 PM"],
      "MDY",
      "12h",
      ["2026-05-03 08:00:00", "2026-06-03 21:30:00"],
    ],
    [
      "an ambiguous 24-hour file is day-first",
      ["05-03-2026 08:00", "06-03-2026 21:30"],
      "DMY",
      "24h",
      ["2026-03-05 08:00:00", "2026-03-06 21:30:00"],
    ],
    [
      "one first number over 12 makes the whole 12-hour file day-first",
      ["05/03/2026 08:00 AM", "13/03/2026 08:00 PM"],
      "DMY",
      "12h",
      ["2026-03-05 08:00:00", "2026-03-13 20:00:00"],
    ],
    [
      "one second number over 12 makes the whole 24-hour file month-first",
      ["05/03/2026 08:00", "05/13/2026 08:00"],
      "MDY",
      "24h",
      ["2026-05-03 08:00:00", "2026-05-13 08:00:00"],
    ],
    [
      "year-first stamps are YMD",
      ["2026-03-05 08:00", "2026/03/06 07:15:30"],
      "YMD",
      "24h",
      ["2026-03-05 08:00:00", "2026-03-06 07:15:30"],
    ],
    [
      "12 AM is midnight and 12 PM noon, also written p.m.",
      ["01-20-2026 12:00 AM", "01-20-2026 12:00 p.m."],
      "MDY",
      "12h",
      ["2026-01-20 00:00:00", "2026-01-20 12:00:00"],
    ],
  ])("%s", async (_name, stamps, order, clock, walls) => {
    const result = ok(await parseCsvText(lv(stamps)));
    expect([result.dateOrder, result.clock]).toEqual([order, clock]);
    expect(result.entries.map((e) => e.wall)).toEqual(walls);
  });

  it("takes the user's day/month order over the detected one", async () => {
    const result = ok(await parseCsvText(lv(["05-03-2026 08:00"]), { dateOrder: "MDY" }));
    expect(result.dateOrder).toBe("MDY");
    expect(result.entries[0]!.wall).toBe("2026-05-03 08:00:00");
  });

  it("reports the lines that do not fit the order the file proves", async () => {
    const result = ok(
      await parseCsvText(lv(["13-03-2026 08:00", "03-13-2026 08:00", "31-02-2026 08:00"])),
    );
    expect(result.dateOrder).toBe("DMY");
    expect(result.entries.map((e) => e.line)).toEqual([3]);
    expect(result.errors).toEqual([
      { line: 4, key: "errors.date", values: { line: 4, value: "03-13-2026 08:00" } },
      { line: 5, key: "errors.date", values: { line: 5, value: "31-02-2026 08:00" } },
    ]);
  });

  it("reports an unknown record type and skips types it does not read", async () => {
    const text = [
      "Device,Serial Number,Device Timestamp,Record Type,Historic Glucose mg/dL",
      "L,S,01-02-2026 10:00,x,100",
      "L,S,01-02-2026 10:00,7,100",
      "L,S,01-02-2026 10:00,0,",
    ].join("\n");
    const result = ok(await parseCsvText(text));
    expect(result.errors.map((e) => [e.line, e.key])).toEqual([
      [2, "errors.recordType"],
      [4, "errors.glucose"],
    ]);
  });
});

describe("Clarity details", () => {
  const header =
    "Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,Source Device ID,Glucose Value (mg/dL),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),Glucose Rate of Change (mg/dL/min),Transmitter Time (Long Integer),Transmitter ID";

  it("reads Low and High from the subtype when the glucose cell is empty", async () => {
    const text = [
      header,
      "1,2026-01-05T08:00:00,EGV,Low,,,iOS G7,,,,,,100,TX1",
      "2,2026-01-05T08:05:00,EGV,High,,,iOS G7,,,,,,400,TX1",
    ].join("\n");
    const result = ok(await parseCsvText(text));
    expect(result.entries).toMatchObject([
      { mgdl: 40, limit: "low" },
      { mgdl: 400, limit: "high" },
    ]);
  });

  it("reports bad lines and keeps the good ones", async () => {
    const text = [
      header,
      "1,2026-01-05T08:00:00,EGV,,,,iOS G7,120,,,,,100,TX1",
      "2,2026-13-05T08:05:00,EGV,,,,iOS G7,121,,,,,400,TX1",
      "3,2026-01-05T08:10:00,EGV,,,,iOS G7,5,,,,,400,TX1",
      "4,2026-01-05T08:11:00,Insulin,Rapid,,,iOS G7,,4,,,,,",
      "5,2026-01-05T08:12:00,Carbs,,,,iOS G7,,,600,,,,",
      "6,2026-01-05T08:13:00,Insulin,Fast-Acting,,,iOS G7,,120,,,,,",
      "7,2026-01-05T08:15:00,EGV,,,,iOS G7,125,,,,,700,TX1",
    ].join("\r\n");
    const result = ok(await parseCsvText(text));
    expect(result.entries.map((e) => e.line)).toEqual([2, 8]);
    expect(result.errors.map((e) => [e.line, e.key])).toEqual([
      [3, "errors.date"],
      [4, "errors.glucose"],
      [5, "errors.insulinType"],
      [6, "errors.carbs"],
      [7, "errors.insulin"],
    ]);
  });
});

describe("generic details", () => {
  it("reports bad lines with their numbers and keeps the good ones", async () => {
    const result = ok(await parseCsvFile(fixture("generic-bad-lines.csv")));
    expect(result.unit).toBe("mg/dL");
    expect(result.lines).toBe(11);
    expect(result.entries.map((e) => [e.line, e.wall, e.kind === "cgm" && e.mgdl])).toEqual([
      [2, "2026-05-01 08:00:00", 120],
      [10, "2026-05-01 08:40:00", 116],
      [12, "2026-05-01 08:50:00", 114.5],
    ]);
    expect(result.errors).toEqual([
      { line: 3, key: "errors.date", values: { line: 3, value: "2026-02-30 08:05" } },
      { line: 4, key: "errors.glucose", values: { line: 4, value: "abc" } },
      { line: 5, key: "errors.glucose", values: { line: 5, value: "700" } },
      { line: 6, key: "errors.columns", values: { line: 6, count: 1, expected: 2 } },
      { line: 7, key: "errors.date", values: { line: 7, value: "1999-12-31 23:59" } },
      { line: 8, key: "errors.glucose", values: { line: 8, value: "9" } },
      { line: 9, key: "errors.date", values: { line: 9, value: "2026-05-01 25:00" } },
      { line: 11, key: "errors.date", values: { line: 11, value: "2026-05-01T08:45:00Z" } },
    ]);
  });

  it("takes the unit from the glucose header", async () => {
    const result = ok(await parseCsvText("time,glucose (mmol/L)\n2026-01-01 10:00,40\n"));
    expect(result.unit).toBe("mmol/L");
    expect(result.errors.map((e) => e.key)).toEqual(["errors.glucose"]); // 40 mmol/L is 720 mg/dL
  });

  it("is mg/dL when some value is 35 or more", async () => {
    const result = ok(await parseCsvText("2026-01-01 10:00,5.5\n2026-01-01 10:05,35\n"));
    expect(result.unit).toBe("mg/dL");
    expect(result.errors.map((e) => [e.line, e.key])).toEqual([[1, "errors.glucose"]]);
  });

  it("finds the time in either column and takes a column choice", async () => {
    const swapped = ok(await parseCsvText("glucose,time\n100,2026-01-01 10:00\n"));
    expect(swapped.entries).toMatchObject([{ wall: "2026-01-01 10:00:00", mgdl: 100 }]);
    const chosen = ok(
      await parseCsvText("id;note;when;bg\n1;x;2026-01-01 10:00;5,5\n", {
        columns: { time: 2, glucose: 3 },
      }),
    );
    expect(chosen.entries).toMatchObject([{ wall: "2026-01-01 10:00:00", mgdl: 99 }]);
  });

  it("reports an unknown unit", async () => {
    const result = ok(await parseCsvText("2026-01-01 10:00,100,mg\n2026-01-01 10:05,101,mg/dL\n"));
    expect(result.errors).toEqual([
      { line: 1, key: "errors.unit", values: { line: 1, value: "mg" } },
    ]);
  });

  it("reads a quoted field holding the delimiter and a line break, with the line it starts on", async () => {
    const text =
      'time,glucose,unit\r\n2026-01-01 10:00,"5,5","mmol/L"\r\n"2026-01-01\r\n10:05",100,mg/dL\r\n2026-01-01 10:10,"101",mg/dL\r\n';
    const result = ok(await parseCsvText(text));
    // "5,5" in a comma file is not a number; line 3's time holds a line break, so it is not a time.
    expect(result.errors.map((e) => [e.line, e.key])).toEqual([
      [2, "errors.glucose"],
      [3, "errors.date"],
    ]);
    expect(result.entries).toMatchObject([{ line: 5, wall: "2026-01-01 10:10:00", mgdl: 101 }]);
  });
});

describe("own format details", () => {
  it("reads the own fields, taking off the formula guard", async () => {
    const result = ok(await parseCsvFile(fixture("diacare-export.csv")));
    expect(only(result, 2).own).toEqual({
      utc: Date.UTC(2026, 2, 29, 0, 55),
      timeZone: "Europe/Warsaw",
      deviceKind: "aidex",
      deviceSerial: "GX-01,A",
      source: null,
      recordKey: "1201",
      firmware: null,
    });
    expect(only(result, 4).own).toMatchObject({
      deviceKind: "gocheck",
      deviceSerial: "=SUM(A1)",
      source: "meter",
      recordKey: null,
    });
    expect(only(result, 6).own).toMatchObject({ deviceKind: null, deviceSerial: null });
    expect(only(result, 7)).toMatchObject({
      kind: "pump",
      wall: "2026-03-29 13:22:00",
      own: {
        timeZone: "+08:00",
        utc: Date.UTC(2026, 2, 29, 5, 22),
        recordKey: "5001",
        firmware: "2.1.7",
      },
      record: {
        recordId: 5001,
        eventIndex: 17,
        eventPort: 4,
        eventType: 0,
        eventUrgency: 0,
        eventValue: 0,
        battery: 85,
        reservoir: 40,
        basalRateRaw: 160,
        bolusRateRaw: 0,
      },
    });
  });

  it("reports each kind of bad own line", async () => {
    const header = readFileSync(path.join(FIXTURES, "diacare-export.csv"), "utf8").split("\n")[0]!;
    const row = (cells: Record<string, string>) =>
      header
        .split(",")
        .map((c) => cells[c] ?? "")
        .join(",");
    const base = {
      utc: "2026-01-01T10:00:00.000Z",
      local_time: "2026-01-01 11:00:00",
      time_zone: "Europe/Warsaw",
    };
    const lines = [
      row({ ...base, kind: "sugar" }),
      row({ ...base, kind: "cgm", utc: "2026-01-01 10:00" }),
      row({ ...base, kind: "cgm", time_zone: "Mars/Olympus", glucose_mgdl: "100" }),
      row({ ...base, kind: "cgm", glucose_mgdl: "100", glucose_limit: "LOW" }),
      row({ ...base, kind: "insulin", insulin_u: "2", insulin_type: "mixed" }),
      row({ ...base, kind: "pump", record_id: "1", event_index: "70000" }),
      row({ ...base, kind: "bg", local_time: "2026-02-29 11:00:00", glucose_mgdl: "100" }),
      "cgm,2026-01-01T10:00:00.000Z",
    ];
    const result = ok(await parseCsvText([header, ...lines].join("\n")));
    expect(result.entries).toEqual([]);
    expect(result.errors.map((e) => [e.line, e.key, e.values?.field ?? null])).toEqual([
      [2, "errors.kind", null],
      [3, "errors.utc", null],
      [4, "errors.timeZone", null],
      [5, "errors.limit", null],
      [6, "errors.insulinType", null],
      [7, "errors.pumpField", "event_index"],
      [8, "errors.date", null],
      [9, "errors.columns", null],
    ]);
  });
});

describe("file-level answers", () => {
  it.each([
    ["an empty file", Buffer.alloc(0), "errors.empty"],
    ["blank lines only", Buffer.from("\r\n \r\n,,\r\n"), "errors.empty"],
    ["a BOM only", Buffer.from([0xef, 0xbb, 0xbf]), "errors.empty"],
    ["text of no known format", Buffer.from("Hello,world\nthis is,not glucose\n"), "errors.format"],
    [
      "bytes that are not UTF-8",
      Buffer.from([0x74, 0x69, 0x6d, 0x65, 0xff, 0xfe, 0x0a]),
      "errors.encoding",
    ],
    ["Latin-1 text", Buffer.from("time,glucose\nZoë,5\n", "latin1"), "errors.encoding"],
    ["a NUL byte", Buffer.from("time,glucose\n2026-01-01 10:00,1\u00000\n"), "errors.binary"],
    [
      "UTF-16 without a BOM",
      Buffer.from("time,glucose\n2026-01-01 10:00,100\n", "utf16le"),
      "errors.binary",
    ],
    ["a header row only", Buffer.from("time,glucose\n"), "errors.format"],
  ])("refuses %s", async (_name, bytes, key) => {
    expect(await parseCsvFile(bytes)).toMatchObject({ ok: false, key });
  });

  it("refuses a chosen vendor format whose header is missing", async () => {
    expect(await parseCsvText("2026-01-01 10:00,100\n", { format: "libreview" })).toEqual({
      ok: false,
      key: "errors.header",
      values: { format: "libreview" },
    });
  });

  it("reads a chosen generic format whose first line is a header of any kind", async () => {
    const result = ok(
      await parseCsvText("a,b\nnot,data\n2026-01-01 10:00,100\n", { format: "generic" }),
    );
    expect(result.errors.map((e) => [e.line, e.key])).toEqual([[2, "errors.date"]]);
    expect(result.entries).toMatchObject([{ line: 3, mgdl: 100 }]);
  });

  it("reads UTF-16 big-endian with its BOM", async () => {
    const text = "time\tglucose\r\n2026-01-01 10:00\t100\r\n";
    const le = Buffer.from(text, "utf16le");
    const be = Buffer.alloc(le.length + 2);
    be[0] = 0xfe;
    be[1] = 0xff;
    for (let i = 0; i < le.length; i += 2) [be[i + 2], be[i + 3]] = [le[i + 1]!, le[i]!];
    expect(ok(await parseCsvFile(be)).entries).toMatchObject([
      { wall: "2026-01-01 10:00:00", mgdl: 100 },
    ]);
  });

  it("stops with a typed error after 100,000 data lines", async () => {
    const text = "time,glucose\n" + "2026-01-01 10:00,100\n".repeat(100_001);
    expect(await parseCsvText(text)).toEqual({
      ok: false,
      key: "errors.tooManyLines",
      values: { limit: 100_000, count: 100_000 },
    });
    const exactly = ok(
      await parseCsvText("time,glucose\n" + "2026-01-01 10:00,100\n".repeat(100_000)),
    );
    expect(exactly.lines).toBe(100_000);
  });

  it("reports a field over 1,000 characters, a line of over 200 fields and an unclosed quote as line errors", async () => {
    const text = [
      "time,glucose",
      "2026-01-01 10:00,100",
      `2026-01-01 10:05,${"1".repeat(1_001)}`,
      `2026-01-01 10:10,${"1,".repeat(200)}1`,
      "2026-01-01 10:15,1".padEnd(1_000, "0"),
      "2026-01-01 10:20,101",
      '2026-01-01 10:25,"102',
      "2026-01-01 10:30,103",
    ].join("\n");
    const result = ok(await parseCsvText(text));
    expect(result.entries.map((e) => e.line)).toEqual([2, 6]);
    expect(result.errors).toEqual([
      {
        line: 3,
        key: "errors.fieldTooLong",
        values: { line: 3, field: 2, limit: 1_000, count: 1_000 },
      },
      { line: 4, key: "errors.tooManyFields", values: { line: 4, count: 202, limit: 200 } },
      { line: 5, key: "errors.glucose", values: { line: 5, value: `1${"0".repeat(39)}…` } },
      { line: 7, key: "errors.quote", values: { line: 7 } },
    ]);
  });
});
