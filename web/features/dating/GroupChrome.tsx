/** The label, hint and error every grouped dating answer shows (chips, tags, photos), and how they are tied together. */
export interface GroupChrome {
  label: string;
  hint?: string;
  error?: string | null;
  optional?: boolean;
}

/** The ids a group's control is described by: its hint and its error, when shown. */
export function groupDescribedBy(id: string, hint?: string | null, error?: string | null): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** The label text, with "(optional)" after it when the answer may be skipped. */
export function GroupLabelText({ label, optional }: { label: string; optional?: boolean }) {
  return (
    <>
      {label}
      {optional ? <span className="d-optional"> (optional)</span> : null}
    </>
  );
}

export function GroupHint({ id, hint, className = 'd-group__hint' }: { id: string; hint?: string; className?: string }) {
  return hint ? (
    <span className={className} id={`${id}-hint`}>
      {hint}
    </span>
  ) : null;
}

export function GroupError({ id, error }: { id: string; error?: string | null }) {
  return error ? (
    <span className="d-error" id={`${id}-error`}>
      {error}
    </span>
  ) : null;
}

/** A group's heading: its label (named by `${id}-label`) and hint. */
export function GroupHeading({ id, label, hint, optional }: GroupChrome & { id: string }) {
  return (
    <div className="d-group__heading">
      <span className="d-group__label" id={`${id}-label`}>
        <GroupLabelText label={label} optional={optional} />
      </span>
      <GroupHint id={id} hint={hint} />
    </div>
  );
}
