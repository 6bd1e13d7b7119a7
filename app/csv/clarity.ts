import {
  cellAt,
  columnIndex,
  readCarbs,
  readGlucose,
  readInsulin,
  type FormatReader,
  type ReaderContext,
} from "./reader";
import { unitIn } from "./values";
import { parseIsoWall } from "./wall-clock";
import { DEXCOM_LIMITS_MGDL, type GlucoseUnit, type InsulinKind } from "./types";

/**
 * Reader of the Dexcom Clarity CSV export. Dexcom publishes no specification; the layout here is the
 * one public descriptions agree on (the University of Michigan's notes on CGM exports, the Clarity
 * importers of Tidepool and NightscoutLoader, and published sample exports):
 *
 * - one header row: `Index, Timestamp (YYYY-MM-DDThh:mm:ss), Event Type, Event Subtype, Patient
 *   Info, Device Info, Source Device ID, Glucose Value (mg/dL), Insulin Value (u), Carb Value
 *   (grams), Duration (hh:mm:ss), Glucose Rate of Change (mg/dL/min), Transmitter Time (Long
 *   Integer), Transmitter ID`; an mmol/L account writes `Glucose Value (mmol/L)`. Older exports lack
 *   the last column. Columns are found by name.
 * - untimed preamble rows: `FirstName`, `LastName`, `DateOfBirth`, one `Device` row per display
 *   device (Device Info: its name, e.g. "Dexcom G7 Mobile App") and `Alert` rows (thresholds in the
 *   glucose column). A row without a timestamp, or of one of these types, is skipped.
 * - timed rows, local wall clock without zone ("2026-01-05T08:00:12"; some exports write a space
 *   for the T): `EGV` (sensor reading) -> cgm; `Calibration` (finger stick) -> bg; `Insulin` with
 *   subtype `Fast-Acting` or `Long-Acting` -> insulin; `Carbs` -> carbs. Other types (Exercise,
 *   Health, Alert, …) are ignored, not errors.
 * - an EGV outside the sensor's range reads `Low` or `High` (in the glucose cell, or in the
 *   subtype with the glucose cell empty): 40 and 400 mg/dL with `limit` set.
 * - rows have 13 or 14 fields (only EGV and Calibration rows carry the Transmitter ID), every
 *   field often quoted, UTF-8 with a BOM, CRLF.
 *
 * Device: the name from the first `Device` row's Device Info (else the first timed row's Source
 * Device ID), the serial from the first Transmitter ID.
 */

const PREAMBLE_TYPES = new Set(["FirstName", "LastName", "DateOfBirth", "Device", "Alert"]);
const INSULIN_SUBTYPES: Record<string, InsulinKind> = {
  "fast-acting": "rapid",
  "long-acting": "long",
};

export function createClarityReader(header: readonly string[], ctx: ReaderContext): FormatReader {
  const col = {
    time: columnIndex(header, (n) => n.startsWith("Timestamp (")),
    type: columnIndex(header, (n) => n === "Event Type"),
    subtype: columnIndex(header, (n) => n === "Event Subtype"),
    deviceInfo: columnIndex(header, (n) => n === "Device Info"),
    source: columnIndex(header, (n) => n === "Source Device ID"),
    glucose: columnIndex(header, (n) => n.startsWith("Glucose Value (")),
    insulin: columnIndex(header, (n) => n.startsWith("Insulin Value")),
    carbs: columnIndex(header, (n) => n.startsWith("Carb Value")),
    transmitter: columnIndex(header, (n) => n === "Transmitter ID"),
  };
  const unit: GlucoseUnit = unitIn(header[col.glucose] ?? "") ?? "mg/dL";
  let deviceName: string | null = null;
  let sourceName: string | null = null;
  let serial: string | null = null;

  function row(fields: readonly string[], line: number): void {
    const type = cellAt(fields, col.type);
    const stamp = cellAt(fields, col.time);
    if (type === "Device" && deviceName === null)
      deviceName = cellAt(fields, col.deviceInfo) || null;
    if (stamp === "" || PREAMBLE_TYPES.has(type)) return;
    if (type !== "EGV" && type !== "Calibration" && type !== "Insulin" && type !== "Carbs") return;
    sourceName ??= cellAt(fields, col.source) || null;
    serial ??= cellAt(fields, col.transmitter) || null;
    const wall = parseIsoWall(stamp);
    if (wall === null) return ctx.lineError(line, "errors.date", { value: stamp });
    if (type === "EGV") return egv(fields, line, wall);
    if (type === "Calibration") {
      const mgdl = readGlucose(ctx, line, cellAt(fields, col.glucose), unit);
      if (mgdl !== null) ctx.entries.push({ kind: "bg", line, wall, mgdl });
      return;
    }
    if (type === "Insulin") return insulin(fields, line, wall);
    const grams = readCarbs(ctx, line, cellAt(fields, col.carbs));
    if (grams !== null) ctx.entries.push({ kind: "carbs", line, wall, grams });
  }

  function egv(fields: readonly string[], line: number, wall: string): void {
    const value = cellAt(fields, col.glucose);
    const word = (value || cellAt(fields, col.subtype)).toLowerCase();
    if (word === "low" || word === "high") {
      ctx.entries.push({ kind: "cgm", line, wall, mgdl: DEXCOM_LIMITS_MGDL[word], limit: word });
      return;
    }
    const mgdl = readGlucose(ctx, line, value, unit);
    if (mgdl !== null) ctx.entries.push({ kind: "cgm", line, wall, mgdl });
  }

  function insulin(fields: readonly string[], line: number, wall: string): void {
    const subtype = cellAt(fields, col.subtype);
    const kind = INSULIN_SUBTYPES[subtype.toLowerCase()];
    if (!kind) return ctx.lineError(line, "errors.insulinType", { value: subtype });
    const units = readInsulin(ctx, line, cellAt(fields, col.insulin));
    if (units !== null) ctx.entries.push({ kind: "insulin", line, wall, units, insulin: kind });
  }

  return { row, finish: () => ({ unit, device: { name: deviceName ?? sourceName, serial } }) };
}
