import { Identity } from "~/domain/codes";

/** The identity icon of the share tables: identity 1 (person) a user, any other a medicine box. */
export function IdentityIcon({ identity, label }: { identity: number; label: string }) {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" role="img" aria-label={label} focusable="false">
      <title>{label}</title>
      {identity === Identity.Person ? (
        <g fill="currentColor">
          <circle cx="10" cy="6.5" r="3.5" />
          <path d="M3 17.5c0-3.6 3.1-6 7-6s7 2.4 7 6z" />
        </g>
      ) : (
        <g fill="none" stroke="currentColor" strokeWidth="1.6">
          <rect x="2.5" y="5.5" width="15" height="11" rx="1.5" />
          <path d="M7 5.5V3.5h6v2M10 8.5v5M7.5 11h5" />
        </g>
      )}
    </svg>
  );
}

/** The "under review" clock of the organisation audit badge (decorative; the text says the state). */
export function ClockIcon({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path
        d="M8 4.5V8l2.5 1.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** The calendar of a date picker's button (decorative; the button is named by its label). */
export function CalendarIcon({ size = 18 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 18 18" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.6">
        <rect x="2" y="3.5" width="14" height="12.5" rx="1.5" />
        <path d="M2 7.5h14M6 2v3M12 2v3" strokeLinecap="round" />
      </g>
    </svg>
  );
}
