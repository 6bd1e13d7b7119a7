/** Query parameters of the patient page's views (the tab, view and dates survive a switch). */
export type ViewParams = { tab?: string; view?: string; date?: string | null; from?: string | null; to?: string | null };

/** A link to the patient page with these view parameters (empty ones left out). */
export function viewHref(base: string, params: ViewParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return query ? `${base}?${query}` : base;
}
