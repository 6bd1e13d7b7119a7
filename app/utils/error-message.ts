/** The translate function of i18next, as far as form errors use it. */
type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A form error in the reader's language. An error is an i18n key, or `key|{json values}` when the
 * message takes values. Given the field's label, the message may name the field: the key's
 * `_field` variant (i18next context "field") receives it as `{{field}}`; keys without that
 * variant answer their plain text.
 */
export function translateError(t: Translate, error: string, field?: string): string {
  const named = field ? { context: "field", field } : {};
  const bar = error.indexOf("|");
  if (bar < 0) return t(error, named);
  try {
    return t(error.slice(0, bar), {
      ...(JSON.parse(error.slice(bar + 1)) as Record<string, unknown>),
      ...named,
    });
  } catch {
    return t(error.slice(0, bar), named);
  }
}
