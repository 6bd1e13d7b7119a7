/**
 * A same-site path to go back to after a form post, or `fallback`. Rejects absolute URLs and
 * protocol-relative paths (`//evil.example`) so that a crafted form cannot redirect off-site.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return fallback;
  }
  return value;
}
