import { Readable } from "node:stream";
import { diacareCsvStream } from "~/csv";
import type { Viewer } from "~/models/access.server";
import { exportRecords } from "~/models/patient-data.server";
import { rangeProblemKey } from "~/report/report-kinds";
import { parseDate, rangeWindow, shiftDate, todayIn } from "~/report/day";
import { quickRange } from "~/report/quick-ranges";
import { RANGE_RULES } from "~/report/report-range";
import { readPatient, type ReadChannel } from "./patient-read.server";

/** Without dates an export covers the last 90 days, ending today in the patient's zone. */
export const EXPORT_DEFAULT_DAYS = 90;

export type CsvExport =
  | { ok: true; fileName: string; body: ReadableStream<Uint8Array> }
  | { ok: false; refused: "notVisible" }
  | { ok: false; refused: "range"; msgKey: string };

/**
 * A patient's records of a range of local days as one CSV file of our own format (every kind:
 * CGM readings, blood values, carbohydrate entries and insulin doses of imported files, pump
 * history records), streamed as it is read. The access gateway authorises the read, checks the
 * range (at most a year, no future end) and writes the patient's access log. `days` asks for a
 * quick range (the last that many days ending today in the patient's zone) instead of dates.
 */
export async function exportCsv(
  viewer: Viewer,
  ask: {
    pid: number;
    userId?: number;
    start?: string | undefined;
    end?: string | undefined;
    days?: number;
    channel: ReadChannel;
  },
): Promise<CsvExport> {
  const read = await readPatient({
    viewer,
    pid: ask.pid,
    ...(ask.userId === undefined ? {} : { userId: ask.userId }),
    purpose: "export",
    channel: ask.channel,
    range: {
      rule: RANGE_RULES.export,
      dates: (patient, now) => {
        if (ask.days !== undefined) return quickRange(ask.days, patient.timeZone, now);
        const end = ask.end ?? todayIn(patient.timeZone, now);
        // A missing start counts back from the end; an end that is no date is refused by the range check.
        const endDate = parseDate(end);
        return {
          start: ask.start ?? (endDate ? shiftDate(endDate, -(EXPORT_DEFAULT_DAYS - 1)) : end),
          end,
        };
      },
    },
  });
  if (!read.ok)
    return read.refused === "range"
      ? { ok: false, refused: "range", msgKey: rangeProblemKey(read.problem, read.rule) }
      : { ok: false, refused: "notVisible" };
  const { start, end } = read.range!;
  const window = rangeWindow(start, end, read.patient.timeZone);
  const stream = diacareCsvStream(
    exportRecords(viewer, read.patient.id, { start: window.start, end: window.end }),
  );
  return {
    ok: true,
    fileName: `diacare-${read.patient.id}-${start}-${end}.csv`,
    body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
  };
}

/** The answer that carries an export: a CSV attachment nobody may cache. */
export function csvAttachment(file: {
  fileName: string;
  body: ReadableStream<Uint8Array>;
}): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
