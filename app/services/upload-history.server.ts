import type { DeviceKind, UploadChannel, UploadStatus } from "@prisma/client";
import type { Viewer, VisiblePatient } from "~/models/access.server";
import { listPatientUploads, type UploadHistoryRow } from "~/models/upload-task.server";
import { cursorText, pageRead, type Cursor } from "~/domain/keyset";
import { localDate } from "~/report/day";
import { formatDateRange, formatDateTime } from "~/report/locale-format";
import { displayName } from "~/utils/names";

/** Uploads per page of the history. */
export const UPLOAD_HISTORY_PAGE_SIZE = 20;

/** One upload as the history page shows it (serialisable; the texts are translated by the page). */
export interface UploadHistoryItem {
  readonly id: number;
  /** When the upload was made, in the reader's language and the patient's time zone. */
  readonly when: string;
  readonly deviceKind: DeviceKind;
  readonly deviceSn: string;
  readonly channel: UploadChannel;
  /** The uploading account: the reader themself, or its display name. */
  readonly operator: { readonly you: true } | { readonly you: false; readonly name: string };
  readonly added: number;
  readonly duplicates: number;
  readonly flagged: number;
  readonly skipped: number;
  /** Device times moved out of a daylight-saving gap or placed in an overlap. */
  readonly dstAdjusted: number;
  /**
   * The local dates (patient's zone) of the upload's first and last record as one range in the
   * reader's language (one date when they are the same day); null when none was stored.
   */
  readonly dates: string | null;
  readonly status: UploadStatus;
  /** Why a failed upload wrote nothing: a key of the `upload` namespace and the values it names. */
  readonly failure: {
    readonly key: string;
    readonly values: Record<string, string | number>;
  } | null;
  readonly otherPatientDevice: boolean;
}

export interface UploadHistoryPage {
  readonly items: readonly UploadHistoryItem[];
  readonly total: number;
  readonly page: number;
  readonly pages: number;
  /** The keys of the page's first and last upload (null when the page is empty). */
  readonly first: string | null;
  readonly last: string | null;
}

function errorValues(value: unknown): Record<string, string | number> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (e): e is [string, string | number] => typeof e[1] === "string" || typeof e[1] === "number",
    ),
  );
}

function itemOf(
  row: UploadHistoryRow,
  viewer: Viewer,
  timeZone: string,
  locale: string,
): UploadHistoryItem {
  return {
    id: row.id,
    when: formatDateTime(row.createdAt.getTime(), timeZone, locale),
    deviceKind: row.deviceKind,
    deviceSn: row.deviceSn,
    channel: row.channel,
    operator:
      row.uploaderId === viewer.id
        ? { you: true }
        : { you: false, name: displayName(row.uploader) },
    added: row.insertedCount,
    duplicates: row.duplicateCount,
    flagged: row.flaggedCount,
    skipped: row.skippedCount,
    dstAdjusted: row.dstGapCount + row.dstOverlapCount,
    dates:
      row.firstAt && row.lastAt
        ? formatDateRange(
            localDate(row.firstAt.getTime(), timeZone),
            localDate(row.lastAt.getTime(), timeZone),
            locale,
          )
        : null,
    status: row.status,
    failure:
      row.status === "failed" && row.error
        ? { key: row.error, values: errorValues(row.errorValues) }
        : null,
    otherPatientDevice: row.otherPatientDevice,
  };
}

/**
 * A page of a patient's upload history (newest first), for a reader the access gateway has let
 * through: what each upload added, skipped and flagged, by whom, through which channel, and how
 * it ended. A link from a neighbouring page carries its edge upload (`after`, `before`:
 * app/domain/keyset.ts) and the page is read from it; a page named by number alone is read by
 * its offset, and one past the last is empty (with the count, for the pager). `first` and `last`
 * are the page's edge keys.
 */
export async function uploadHistory(
  viewer: Viewer,
  patient: VisiblePatient,
  { page, after, before }: { page: number; after?: Cursor; before?: Cursor },
  locale: string,
): Promise<UploadHistoryPage> {
  const pageSize = UPLOAD_HISTORY_PAGE_SIZE;
  const read = pageRead(page, pageSize, { after, before });
  let { total, rows } = await listPatientUploads(viewer, patient.id, { read, pageSize });
  // A cursor past either end of the list (its uploads gone) reads the page by its number.
  if (rows.length === 0 && read.by !== "offset")
    ({ total, rows } = await listPatientUploads(viewer, patient.id, {
      read: pageRead(page, pageSize, {}),
      pageSize,
    }));
  const edge = (row: UploadHistoryRow | undefined) =>
    row ? cursorText(row.createdAt, row.id) : null;
  return {
    items: rows.map((row) => itemOf(row, viewer, patient.timeZone, locale)),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / pageSize)),
    first: edge(rows[0]),
    last: edge(rows.at(-1)),
  };
}
