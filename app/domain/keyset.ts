import { z } from "zod";

/**
 * Keyset paging of lists shown newest first by (instant, id): the link to the next page carries
 * the last row's key (`after`), the link to the previous page the first row's key (`before`), so
 * a page is read from the index at that key rather than by counting past every row before it.
 * A page named by its number alone (a bookmark, an old link) is still read by its offset.
 */

/** A row's place in the list: its instant (millisecond precision) and id. */
export type Cursor = { readonly at: Date; readonly id: bigint };

/** The largest id a PostgreSQL `bigint` holds: a larger one is no row's. */
const INT8_MAX = 9_223_372_036_854_775_807n;

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)~(\d{1,19})$/;

/** A cursor as a link carries it: `2026-11-26T10:00:00.000Z~42`. */
export function cursorText(at: Date, id: bigint | number): string {
  return `${at.toISOString()}~${id}`;
}

/** A cursor of a link; anything malformed is no cursor (the page is then read by its number). */
export const cursorParam = z
  .string()
  .transform((text, ctx): Cursor => {
    const match = CURSOR.exec(text);
    const at = match ? new Date(match[1]!) : null;
    const id = match ? BigInt(match[2]!) : null;
    if (
      !match ||
      !at ||
      Number.isNaN(at.getTime()) ||
      at.toISOString() !== match[1] ||
      id === null ||
      id > INT8_MAX
    ) {
      ctx.addIssue({ code: "custom", message: "not a cursor" });
      return z.NEVER;
    }
    return { at, id };
  })
  .optional()
  .catch(undefined);

/** How one page is read: by offset from its number, or from a neighbouring page's edge row. */
export type PageRead =
  | { readonly by: "offset"; readonly skip: number }
  | { readonly by: "after"; readonly cursor: Cursor }
  | { readonly by: "before"; readonly cursor: Cursor };

/** The read for page `page` (1-based) of `pageSize` rows, given the link's cursors. */
export function pageRead(
  page: number,
  pageSize: number,
  { after, before }: { after?: Cursor; before?: Cursor },
): PageRead {
  if (after) return { by: "after", cursor: after };
  if (before) return { by: "before", cursor: before };
  return { by: "offset", skip: (Math.max(1, page) - 1) * pageSize };
}

/**
 * The link to page `target` of a list now on page `current` whose first and last rows have the
 * keys `first` and `last`: the neighbouring pages carry the edge row's key, any other page
 * only its number. `param` is the page number's query parameter, written last.
 */
export function pageHref(
  param: string,
  current: number,
  target: number,
  edges: { first: string | null; last: string | null },
): string {
  const page = `${param}=${target}`;
  if (target === current + 1 && edges.last)
    return `?after=${encodeURIComponent(edges.last)}&${page}`;
  if (target === current - 1 && edges.first)
    return `?before=${encodeURIComponent(edges.first)}&${page}`;
  return `?${page}`;
}
