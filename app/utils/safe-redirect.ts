/** Control characters (C0, DEL, C1): browsers drop tabs and line breaks from URLs, and a header cannot carry them. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A URL to resolve paths against; only its origin matters. */
const SAME_ORIGIN = "http://same-origin.invalid";
const MAX_LENGTH = 2048;

/** The value percent-decoded until it no longer changes or is no longer valid percent-encoding (a few rounds at most). */
function decodedForm(value: string): string {
  let current = value;
  for (let round = 0; round < 5; round++) {
    try {
      const next = decodeURIComponent(current);
      if (next === current) break;
      current = next;
    } catch {
      break;
    }
  }
  return current;
}

/** A single leading "/", no "//" in the path, no backslash and no control character. */
function isPlainPath(text: string): boolean {
  const path = text.split(/[?#]/, 1)[0]!;
  return (
    text.startsWith("/") && !path.includes("//") && !text.includes("\\") && !CONTROL.test(text)
  );
}

/**
 * A same-origin path to go to after a form post, or `fallback`. Accepted only when the value and
 * its percent-decoded form both are a plain path: a single leading "/", no "//" in the path, no
 * backslash, no control character (a browser drops tabs and line breaks, so "/\t/evil.example"
 * would become "//evil.example", another site). The path is answered percent-encoded, so it is
 * always a valid Location header.
 */
export function safeRedirectPath(
  value: FormDataEntryValue | string | null | undefined,
  fallback = "/",
): string {
  if (typeof value !== "string" || value.length > MAX_LENGTH) return fallback;
  if (!isPlainPath(value) || !isPlainPath(decodedForm(value))) return fallback;
  const url = new URL(value, SAME_ORIGIN);
  if (url.origin !== SAME_ORIGIN) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
