/** C0 and C1 control characters, unpaired surrogates, and the bidirectional embedding, override and isolate controls (U+202A-202E, U+2066-2069). */
const SINGLE_LINE = /^[^\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]*$/u;
/** The same, but tab, line feed and carriage return are allowed (a multi-line message). */
const MULTI_LINE =
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}\u202a-\u202e\u2066-\u2069]*$/u;

/** The pattern a safe text matches, for a zod `.regex`. */
export function safeTextPattern({ multiline = false } = {}): RegExp {
  return multiline ? MULTI_LINE : SINGLE_LINE;
}

/** Whether a text holds none of the refused characters (line breaks and tabs allowed with `multiline`). */
export function isSafeText(text: string, { multiline = false } = {}) {
  return (multiline ? MULTI_LINE : SINGLE_LINE).test(text);
}
