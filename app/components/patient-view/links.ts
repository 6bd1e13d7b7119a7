/** Query parameters of the patient page's views (the tab, view and dates survive a switch). */
export type ViewParams = {
  tab?: string;
  view?: string;
  date?: string | null;
  from?: string | null;
  to?: string | null;
};

/** A link to the patient page with these view parameters (empty ones left out). */
export function viewHref(base: string, params: ViewParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return query ? `${base}?${query}` : base;
}

/** The addresses of a patient's pages: the data views, the upload history, the upload centre and the CSV import. */
export type PatientLinks = {
  readonly home: string;
  readonly uploads: string;
  readonly upload: string;
  readonly import: string;
};

export function patientLinks(patient: { id: number; userId: number }): PatientLinks {
  const base = `/patientShow/${patient.id}/${patient.userId}`;
  return {
    home: `${base}/patientHome`,
    uploads: `${base}/uploads`,
    upload: `/patientShow/${patient.id}/upload`,
    import: `/patientShow/${patient.id}/import`,
  };
}
