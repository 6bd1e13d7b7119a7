import * as s from "~/styles/layout.css";

/**
 * The two submit buttons of a yes/no answer (accept or refuse a share, an invitation, a
 * creator's access): one field `name`, the primary button first. Plain form submits, so the
 * answer works without JavaScript.
 */
export function AnswerButtons({
  name,
  yes,
  no,
  busy,
  className,
}: {
  name: string;
  yes: { value: string; label: string };
  no: { value: string; label: string };
  busy: boolean;
  className: string;
}) {
  return (
    <div className={className}>
      <button type="submit" name={name} value={yes.value} className={s.button} disabled={busy}>
        {yes.label}
      </button>
      <button
        type="submit"
        name={name}
        value={no.value}
        className={s.buttonSecondary}
        disabled={busy}
      >
        {no.label}
      </button>
    </div>
  );
}
