import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsvFile } from "./parse-csv";
import { diacareCsvStream, writeDiacareCsv, type ExportRow } from "./write";
import type { CsvEntry, CsvParseResult } from "./types";

const base = {
  utc: Date.UTC(2026, 2, 29, 0, 55),
  localTime: "2026-03-29 01:55:00",
  timeZone: "Europe/Warsaw",
  deviceKind: "aidex",
  deviceSerial: "GX-01",
  source: null,
  recordKey: "1201",
  firmware: null,
};

const HEADER =
  "kind,utc,local_time,time_zone,device_kind,device_serial,source,record_key,firmware,glucose_mgdl,glucose_limit,carbs_g,insulin_u,insulin_type,record_id,event_index,event_port,event_type,event_urgency,event_value,status_byte0,status_byte1,status_short0,status_short1";

describe("writeDiacareCsv", () => {
  it("writes a BOM, the header and one CRLF row per record, numbers exactly", () => {
    const text = writeDiacareCsv([
      { ...base, kind: "cgm", mgdl: 106.2 },
      {
        ...base,
        kind: "bg",
        mgdl: 142,
        deviceKind: "gocheck",
        deviceSerial: "=SUM(A1)",
        source: "meter",
        recordKey: null,
      },
      { ...base, kind: "insulin", units: 0.05, insulin: "long", deviceSerial: 'A,"B"' },
      {
        ...base,
        kind: "pump",
        timeZone: "+08:00",
        localTime: "2026-03-29 08:55:00",
        deviceKind: "equil",
        firmware: "2.1.7",
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
      },
    ]);
    expect(text.split("\r\n")).toEqual([
      `\uFEFF${HEADER}`,
      "cgm,2026-03-29T00:55:00.000Z,2026-03-29 01:55:00,Europe/Warsaw,aidex,GX-01,,1201,,106.2,,,,,,,,,,,,,,",
      "bg,2026-03-29T00:55:00.000Z,2026-03-29 01:55:00,Europe/Warsaw,gocheck,'=SUM(A1),meter,,,142,,,,,,,,,,,,,,",
      'insulin,2026-03-29T00:55:00.000Z,2026-03-29 01:55:00,Europe/Warsaw,aidex,"A,""B""",,1201,,,,,0.05,long,,,,,,,,,,',
      "pump,2026-03-29T00:55:00.000Z,2026-03-29 08:55:00,'+08:00,equil,GX-01,,1201,2.1.7,,,,,,5001,17,4,0,0,0,85,40,160,0",
      "",
    ]);
  });

  it("writes `;` files for decimal-comma spreadsheets", () => {
    const text = writeDiacareCsv([{ ...base, kind: "carbs", grams: 12.5 }], { delimiter: ";" });
    expect(text.split("\r\n")[1]).toBe(
      "carbs;2026-03-29T00:55:00.000Z;2026-03-29 01:55:00;Europe/Warsaw;aidex;GX-01;;1201;;;;12.5;;;;;;;;;;;;",
    );
  });

  it("streams the same text", async () => {
    const rows: ExportRow[] = [
      { ...base, kind: "cgm", mgdl: 99, limit: "high" },
      { ...base, kind: "carbs", grams: 30 },
    ];
    let streamed = "";
    for await (const chunk of diacareCsvStream(rows)) streamed += String(chunk);
    expect(streamed).toBe(writeDiacareCsv(rows));
  });
});

// ---------------------------------------------------------------------------------------------
// Round trip: random rows -> write -> parse -> the same rows.

const ZONES = [
  "Europe/Warsaw",
  "UTC",
  "America/New_York",
  "Asia/Kolkata",
  "Europe/Bucharest",
  "+08:00",
  "-03:30",
];
/** Printable text with the characters a CSV writer must take care of (no CR: it reads back as LF). */
const textChar = fc.constantFrom(..."aZ09 ,;\t\"'=+-@\nąłżЖёé€😀/.".split(/(?:)/u));
const text = fc.option(fc.string({ unit: textChar, minLength: 1, maxLength: 24 }), { nil: null });
const wallPart = fc.record({
  year: fc.integer({ min: 2000, max: 2099 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 59 }),
});
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const wall = wallPart.map(
  (p) => `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`,
);
const baseRow = fc.record({
  utc: fc.integer({ min: Date.UTC(1999, 11, 31), max: Date.UTC(2100, 0, 1) }),
  localTime: wall,
  timeZone: fc.constantFrom(...ZONES),
  deviceKind: fc.option(fc.constantFrom("equil", "gocheck", "aidex", "=HYPERLINK()", "'quoted"), {
    nil: null,
  }),
  deviceSerial: text,
  source: fc.option(fc.constantFrom("meter", "cgm_fingerprick", "cgm_manual", "pump", "csv"), {
    nil: null,
  }),
  recordKey: text,
  firmware: fc.option(fc.constantFrom("2.1.7", "1.0.0", "-1"), { nil: null }),
});
const inRange = (min: number, max: number) => fc.double({ min, max, noNaN: true });
const byte = fc.integer({ min: 0, max: 0xff });
const short = fc.integer({ min: 0, max: 0xffff });
const exportRow: fc.Arbitrary<ExportRow> = fc.oneof(
  fc
    .tuple(
      baseRow,
      inRange(10, 600),
      fc.option(fc.constantFrom("low" as const, "high" as const), { nil: undefined }),
    )
    .map(([b, mgdl, limit]) =>
      limit ? { ...b, kind: "cgm" as const, mgdl, limit } : { ...b, kind: "cgm" as const, mgdl },
    ),
  fc.tuple(baseRow, inRange(10, 600)).map(([b, mgdl]) => ({ ...b, kind: "bg" as const, mgdl })),
  fc.tuple(baseRow, inRange(0, 500)).map(([b, grams]) => ({ ...b, kind: "carbs" as const, grams })),
  fc
    .tuple(baseRow, inRange(0, 100), fc.constantFrom("rapid" as const, "long" as const))
    .map(([b, units, insulin]) => ({ ...b, kind: "insulin" as const, units, insulin })),
  fc
    .tuple(
      baseRow,
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      short,
      byte,
      byte,
      byte,
      byte,
      byte,
      byte,
      short,
      short,
    )
    .map(
      ([
        b,
        recordId,
        eventIndex,
        eventPort,
        eventType,
        eventUrgency,
        eventValue,
        battery,
        reservoir,
        basalRateRaw,
        bolusRateRaw,
      ]) => ({
        ...b,
        kind: "pump" as const,
        record: {
          recordId,
          eventIndex,
          eventPort,
          eventType,
          eventUrgency,
          eventValue,
          battery,
          reservoir,
          basalRateRaw,
          bolusRateRaw,
        },
      }),
    ),
);

/** An entry of the own format as the row it was written from. */
function backToRow(entry: CsvEntry): ExportRow {
  const { line: _line, wall: localTime, own, device: _device, ...value } = entry;
  if (!own) throw new Error("no own fields");
  return { ...own, localTime, ...value } as ExportRow;
}

describe("own format round trip", () => {
  it.each([",", ";", "\t"] as const)(
    "reads back exactly what was written, delimiter %j",
    async (delimiter) => {
      await fc.assert(
        fc.asyncProperty(fc.array(exportRow, { minLength: 1, maxLength: 8 }), async (rows) => {
          const bytes = Buffer.from(writeDiacareCsv(rows, { delimiter }), "utf8");
          const result = (await parseCsvFile(bytes)) as CsvParseResult;
          expect(result.ok).toBe(true);
          expect(result.format).toBe("diacare");
          expect(result.errors).toEqual([]);
          expect(result.entries.map(backToRow)).toEqual(rows);
        }),
        { numRuns: 100 },
      );
    },
  );
});
