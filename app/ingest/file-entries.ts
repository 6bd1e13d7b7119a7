import type { CsvDevice, CsvEntry, CsvFormat, CsvLineError } from "~/csv";
import type { PumpRecordInput } from "./records";
import { isKnownTimeZone, WallClockResolver, parseWallClock } from "./device-time";
import { GLUCOSE_MAX_MGDL, GLUCOSE_MIN_MGDL, type CgmRow, type UploadCounters } from "./process";

/**
 * The entries of an imported file, grouped by the device they came from, with the instants and the
 * keys under which the ingestion module stores them (pure: no database).
 *
 * Times: a vendor file's wall-clock times are read in the zone the operator chose, in file order,
 * under the one daylight-saving rule of device uploads (device-time.ts). Our own export carries
 * each record's UTC instant, which is taken as it is.
 *
 * Keys, so that importing the same file again adds nothing:
 * - a CGM reading of another maker's file has no record number: its number is its UTC second
 *   since 2000-01-01 (two readings of one device in the same second are one reading);
 * - a blood value, carbohydrate entry or insulin dose of such a file is keyed by its wall-clock
 *   time, with `#2`, `#3` … for a second and third entry of the same kind at the same time;
 * - our own export carries the device's record number or key, which is kept.
 */

export type FileDeviceKind = "equil" | "gocheck" | "aidex" | "imported";
const FILE_DEVICE_KINDS: readonly FileDeviceKind[] = ["equil", "gocheck", "aidex", "imported"];
export type FileBgSource = "meter" | "cgm_fingerprick" | "cgm_manual" | "pump" | "csv";
const BG_SOURCES: readonly FileBgSource[] = [
  "meter",
  "cgm_fingerprick",
  "cgm_manual",
  "pump",
  "csv",
];

export type FileBgRow = {
  source: FileBgSource;
  recordKey: string;
  mgdl: number;
  deviceTime: string;
  dateTime: number;
};
export type FileCarbRow = { recordKey: string; grams: number; dateTime: number };
export type FileInsulinRow = {
  recordKey: string;
  units: number;
  kind: "rapid" | "long";
  dateTime: number;
};

/** One device's entries of a file: rows ready to store, and pump records for the pump rules. */
export interface FileGroup {
  deviceKind: FileDeviceKind;
  deviceSn: string;
  /** The zone its wall-clock times were read in (our own export: the record's own zone). */
  timeZone: string;
  counters: UploadCounters & { flagged: number; repeated: number };
  cgm: CgmRow[];
  bg: FileBgRow[];
  carbs: FileCarbRow[];
  insulin: FileInsulinRow[];
  /** Pump history records of our own export, stored through the pump rules like an upload. */
  pump: PumpRecordInput[];
  /** Entries of the file in this group (stored or not). */
  total: number;
}

export type GroupedFile = { groups: FileGroup[]; errors: CsvLineError[] };

/** Serial numbers are kept to the characters of a device serial, at most 64. */
const SERIAL_MAX = 64;
/** Seconds since 2000-01-01 UTC fit a 32-bit record number until 2068-01-19. */
const KEY_EPOCH_MS = Date.UTC(2000, 0, 1);
const KEY_MAX_SECONDS = 2 ** 31 - 1;

/** A serial a vendor file names, as a device serial: letters, digits, `_` and `-`, at most 64. */
export function fileSerial(device: CsvDevice | undefined, format: CsvFormat): string {
  const cleaned = (device?.serial ?? "")
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SERIAL_MAX);
  return cleaned || format;
}

/** The CGM record number of an imported reading: its UTC second since 2000, or null past 2068. */
export function importedReadingNumber(instant: number): number | null {
  const seconds = Math.floor((instant - KEY_EPOCH_MS) / 1000);
  return seconds >= 0 && seconds <= KEY_MAX_SECONDS ? seconds : null;
}

type Placed = { instant: number; dst: "gap" | "overlap" | null };

class GroupBuilder {
  readonly group: FileGroup;
  private readonly resolver: WallClockResolver;
  private readonly keys = new Set<string>();
  private readonly sameTime = new Map<string, number>();

  constructor(deviceKind: FileDeviceKind, deviceSn: string, timeZone: string) {
    this.resolver = new WallClockResolver(timeZone);
    this.group = {
      deviceKind,
      deviceSn,
      timeZone,
      counters: {
        dstGap: 0,
        dstOverlap: 0,
        skipped: 0,
        first: null,
        last: null,
        flagged: 0,
        repeated: 0,
      },
      cgm: [],
      bg: [],
      carbs: [],
      insulin: [],
      pump: [],
      total: 0,
    };
  }

  /** The instant of an entry: our own export's UTC, else its wall clock in the group's zone. */
  place(entry: CsvEntry): Placed | null {
    if (entry.own) return { instant: entry.own.utc, dst: null };
    const wall = parseWallClock(entry.wall);
    if (wall === null) return null;
    const placed = this.resolver.resolve(wall);
    if (placed.dst === "gap") this.group.counters.dstGap++;
    if (placed.dst === "overlap") this.group.counters.dstOverlap++;
    return placed;
  }

  seen(instant: number) {
    const c = this.group.counters;
    if (c.first === null || instant < c.first) c.first = instant;
    if (c.last === null || instant > c.last) c.last = instant;
  }

  /** False (and counted as a duplicate) when the file already had an entry under this key. */
  claim(table: string, key: string): boolean {
    const full = `${table}\u0000${key}`;
    if (this.keys.has(full)) {
      this.group.counters.repeated++;
      return false;
    }
    this.keys.add(full);
    return true;
  }

  /** The wall-clock key of an entry of a vendor file: its time, `#n` for the n-th at that time. */
  wallKey(kind: string, wall: string): string {
    const id = `${kind}\u0000${wall}`;
    const n = (this.sameTime.get(id) ?? 0) + 1;
    this.sameTime.set(id, n);
    return n === 1 ? wall : `${wall}#${n}`;
  }
}

/** Groups a read file's entries by device; entries that cannot be stored become line errors. */
export function groupFileEntries(
  file: { format: CsvFormat; device: CsvDevice; entries: readonly CsvEntry[] },
  zone: string,
): GroupedFile {
  const builders = new Map<string, GroupBuilder>();
  // Entries of a vendor file share a few device objects: each is looked up once.
  const vendorTargets = new Map<CsvDevice | undefined, Target>();
  const errors: CsvLineError[] = [];
  const fail = (line: number, key: string, values?: Record<string, string | number>) =>
    errors.push({ line, key, values: { line, ...values } });

  for (const entry of file.entries) {
    let target = entry.own ? undefined : vendorTargets.get(entry.device);
    if (!target) {
      target = deviceOf(entry, file, zone);
      if (!entry.own) vendorTargets.set(entry.device, target);
    }
    if ("key" in target) {
      fail(entry.line, target.key, target.values);
      continue;
    }
    const id = `${target.kind}\u0000${target.serial}\u0000${target.zone}`;
    let builder = builders.get(id);
    if (!builder)
      builders.set(id, (builder = new GroupBuilder(target.kind, target.serial, target.zone)));
    const refusal = addEntry(builder, entry);
    if (refusal) fail(entry.line, refusal.key, refusal.values);
  }
  return { groups: [...builders.values()].map((b) => b.group).filter((g) => g.total > 0), errors };
}

type Target =
  | { kind: FileDeviceKind; serial: string; zone: string }
  | { key: string; values?: Record<string, string | number> };

function deviceOf(
  entry: CsvEntry,
  file: { format: CsvFormat; device: CsvDevice },
  zone: string,
): Target {
  const own = entry.own;
  if (!own)
    return { kind: "imported", serial: fileSerial(entry.device ?? file.device, file.format), zone };
  const kind = own.deviceKind ?? "imported";
  if (!(FILE_DEVICE_KINDS as readonly string[]).includes(kind))
    return { key: "errors.deviceKind", values: { value: kind } };
  if ((entry.kind === "pump") !== (kind === "equil"))
    return { key: "errors.deviceKind", values: { value: kind } };
  if (!isKnownTimeZone(own.timeZone))
    return { key: "errors.timeZone", values: { value: own.timeZone } };
  return {
    kind: kind as FileDeviceKind,
    serial: fileSerial({ name: null, serial: own.deviceSerial }, file.format),
    zone: own.timeZone,
  };
}

function addEntry(
  b: GroupBuilder,
  entry: CsvEntry,
): { key: string; values?: Record<string, string | number> } | null {
  const g = b.group;
  const placed = b.place(entry);
  if (!placed) return { key: "errors.date", values: { value: entry.wall } };
  const own = entry.own;
  g.total++;
  switch (entry.kind) {
    case "cgm": {
      if (entry.mgdl < GLUCOSE_MIN_MGDL || entry.mgdl > GLUCOSE_MAX_MGDL)
        return { key: "errors.glucose", values: { value: entry.mgdl } };
      const number = own ? ownNumber(own.recordKey) : importedReadingNumber(placed.instant);
      if (number === null)
        return own
          ? { key: "errors.recordKey" }
          : { key: "errors.date", values: { value: entry.wall } };
      if (!b.claim("cgm", String(number))) return null;
      if (entry.limit) g.counters.flagged++;
      g.cgm.push({
        eventIndex: number,
        historyId: null,
        sensorIndex: null,
        eventType: 7,
        mgdl: entry.mgdl,
        deviceTime: entry.wall,
        dateTime: placed.instant,
        manual: false,
      });
      break;
    }
    case "bg": {
      if (entry.mgdl < GLUCOSE_MIN_MGDL || entry.mgdl > GLUCOSE_MAX_MGDL)
        return { key: "errors.glucose", values: { value: entry.mgdl } };
      const source = own?.source ?? "csv";
      if (!(BG_SOURCES as readonly string[]).includes(source))
        return { key: "errors.source", values: { value: source } };
      const recordKey = own?.recordKey ?? b.wallKey("bg", entry.wall);
      if (!b.claim(`bg:${source}`, recordKey)) return null;
      g.bg.push({
        source: source as FileBgSource,
        recordKey,
        mgdl: entry.mgdl,
        deviceTime: entry.wall,
        dateTime: placed.instant,
      });
      break;
    }
    case "carbs": {
      const recordKey = own?.recordKey ?? b.wallKey("carbs", entry.wall);
      if (!b.claim("carbs", recordKey)) return null;
      g.carbs.push({ recordKey, grams: entry.grams, dateTime: placed.instant });
      break;
    }
    case "insulin": {
      const recordKey = own?.recordKey ?? b.wallKey(`insulin:${entry.insulin}`, entry.wall);
      if (!b.claim("insulin", recordKey)) return null;
      g.insulin.push({
        recordKey,
        units: entry.units,
        kind: entry.insulin,
        dateTime: placed.instant,
      });
      break;
    }
    case "pump": {
      if (!b.claim("pump", String(entry.record.recordId))) return null;
      g.pump.push({ ...entry.record, deviceTime: entry.wall, recordTimeZone: g.timeZone });
      break;
    }
  }
  b.seen(placed.instant);
  return null;
}

/** A record number our own export wrote: a whole number 0 to 2^31 - 1. */
function ownNumber(key: string | null): number | null {
  if (key === null || !/^\d{1,10}$/.test(key)) return null;
  const n = Number(key);
  return n <= KEY_MAX_SECONDS ? n : null;
}
