import { describe, expect, it } from "vitest";
import { CsvInputError, parseCgmCsv, parseCsvRecords, parseIsoTime, parseNumber } from "./csv";

function errorOf(f: () => unknown): CsvInputError {
  try {
    f();
  } catch (e) {
    if (e instanceof CsvInputError) return e;
    throw e;
  }
  throw new Error("expected a CsvInputError");
}

describe("CSV records", () => {
  it("quoted fields, escaped quotes, CRLF, BOM, blank lines", () => {
    const text =
      '\ufeff"id","time","gl"\r\n"a ""1"", x","2015-06-06T21:50:27Z",153\r\n\r\nb,2015-06-06T22:05:27Z,137\n';
    const r = parseCsvRecords(text);
    expect(r).toEqual([
      { line: 1, fields: ["id", "time", "gl"] },
      { line: 2, fields: ['a "1", x', "2015-06-06T21:50:27Z", "153"] },
      { line: 4, fields: ["b", "2015-06-06T22:05:27Z", "137"] },
    ]);
  });

  it("a quoted newline stays in the field and lines keep counting", () => {
    const r = parseCsvRecords('id,time,gl\n"multi\nline",2015-06-06T21:50:27Z,1\nc,x,2\n');
    expect(r[1]).toEqual({ line: 2, fields: ["multi\nline", "2015-06-06T21:50:27Z", "1"] });
    expect(r[2]!.line).toBe(4);
  });
});

describe("time and number parsing", () => {
  it("ISO 8601 with Z, offsets, fractions, space separator", () => {
    expect(parseIsoTime("2015-06-06T21:50:27Z", "UTC")).toBe(Date.UTC(2015, 5, 6, 21, 50, 27));
    expect(parseIsoTime("2015-06-06 21:50:27Z", "UTC")).toBe(Date.UTC(2015, 5, 6, 21, 50, 27));
    expect(parseIsoTime("2015-06-06T16:50:27-05:00", "UTC")).toBe(Date.UTC(2015, 5, 6, 21, 50, 27));
    expect(parseIsoTime("2015-06-06T23:50:27+0200", "UTC")).toBe(Date.UTC(2015, 5, 6, 21, 50, 27));
    expect(parseIsoTime("2015-06-06T21:50:27.250Z", "UTC")).toBe(
      Date.UTC(2015, 5, 6, 21, 50, 27, 250),
    );
    expect(parseIsoTime("2015-06-06T21:50Z", "UTC")).toBe(Date.UTC(2015, 5, 6, 21, 50));
  });

  it("times without an offset are wall-clock times in the zone", () => {
    expect(parseIsoTime("2024-07-01T12:00:00", "Europe/Warsaw")).toBe(Date.UTC(2024, 6, 1, 10));
    expect(parseIsoTime("2024-01-01T12:00:00", "Europe/Warsaw")).toBe(Date.UTC(2024, 0, 1, 11));
    expect(parseIsoTime("2024-01-01T12:00:00", "UTC")).toBe(Date.UTC(2024, 0, 1, 12));
  });

  it("rejects what is not a valid date-time", () => {
    for (const s of [
      "",
      "yesterday",
      "2015-13-01T00:00:00Z",
      "2015-02-29T00:00:00Z",
      "2015-06-06T24:00:00Z",
      "2015-06-06T21:61:00Z",
      "1433627427",
    ]) {
      expect(Number.isNaN(parseIsoTime(s, "UTC")), s).toBe(true);
    }
    expect(parseIsoTime("2016-02-29T00:00:00Z", "UTC")).toBe(Date.UTC(2016, 1, 29));
  });

  it("numbers", () => {
    expect(parseNumber("153")).toBe(153);
    expect(parseNumber(" 7.5 ")).toBe(7.5);
    expect(parseNumber("-3")).toBe(-3);
    expect(parseNumber("1e2")).toBe(100);
    for (const s of ["", "NA", "abc", "1,5", "0x10", "Infinity"])
      expect(Number.isNaN(parseNumber(s)), s).toBe(true);
  });
});

describe("parseCgmCsv", () => {
  it("groups readings by id in order of first appearance; columns in any order", () => {
    const s = parseCgmCsv(
      "gl,extra,time,id\n100,x,2024-01-01T00:00:00Z,B\n110,y,2024-01-01T00:05:00Z,A\n120,z,2024-01-01T00:10:00Z,B\n",
    );
    expect(s.map((x) => x.id)).toEqual(["B", "A"]);
    expect(s[0]!.readings).toEqual([
      { time: Date.UTC(2024, 0, 1), mgdl: 100 },
      { time: Date.UTC(2024, 0, 1, 0, 10), mgdl: 120 },
    ]);
  });

  it("errors name the line", () => {
    expect(
      errorOf(() => parseCgmCsv("id,time,glucose\n1,2024-01-01T00:00:00Z,100\n")),
    ).toMatchObject({ line: 1, message: expect.stringContaining("missing column gl") });
    expect(errorOf(() => parseCgmCsv(""))).toMatchObject({ line: 1 });
    expect(
      errorOf(() => parseCgmCsv("id,time,gl\n1,2024-01-01T00:00:00Z,100\n1,2024-01-01 noon,100\n")),
    ).toMatchObject({
      line: 3,
      message: expect.stringContaining("cannot parse time"),
    });
    expect(errorOf(() => parseCgmCsv('id,time,gl\n\n1,2024-01-01T00:00:00Z,"NA"\n'))).toMatchObject(
      {
        line: 3,
        message: expect.stringContaining("cannot parse glucose"),
      },
    );
    expect(errorOf(() => parseCgmCsv("id,time,gl\n1,2024-01-01T00:00:00Z\n"))).toMatchObject({
      line: 2,
    });
    expect(errorOf(() => parseCgmCsv('id,time,gl\n"1,2024-01-01T00:00:00Z,100\n'))).toMatchObject({
      line: 2,
    });
  });
});
