import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import './ui.css';

interface FieldChrome {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}

/**
 * One id for the control, its hint and its error: the caller's `id` when it passes one, else
 * `useId`'s. `aria-describedby` names the error first (so "invalid" is heard with its reason),
 * then the hint, then whatever the caller described the control with.
 */
function useFieldIds(ownId: string | undefined, error: string | null | undefined, hint: ReactNode, callerDescribedBy: string | undefined) {
  const generated = useId();
  const id = ownId ?? generated;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null, callerDescribedBy ?? null].filter(Boolean).join(' ') || undefined;
  return { id, describedBy };
}

function Chrome({ id, label, hint, error, children }: FieldChrome & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint ? (
        <span className="field__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field__error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function TextField({
  label,
  hint,
  error,
  id: ownId,
  'aria-describedby': callerDescribedBy,
  ...input
}: FieldChrome & InputHTMLAttributes<HTMLInputElement>) {
  const { id, describedBy } = useFieldIds(ownId, error, hint, callerDescribedBy);
  return (
    <Chrome id={id} label={label} hint={hint} error={error}>
      <input className="field__control" aria-invalid={error ? true : undefined} {...input} id={id} aria-describedby={describedBy} />
    </Chrome>
  );
}

/**
 * A search box without its label (the caller places one): the phone shows a search key, and the
 * browser neither fills in nor corrects the names, phones and codes staff type into it.
 */
export function SearchInput({ className, ...input }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return <input className={['field__control', className].filter(Boolean).join(' ')} type="search" autoComplete="off" spellCheck={false} {...input} />;
}

/** A whole number: a number input that opens the phone's number pad. */
export function NumberField(props: FieldChrome & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode'>) {
  return <TextField {...props} type="number" inputMode="numeric" />;
}

export function TextAreaField({
  label,
  hint,
  error,
  id: ownId,
  'aria-describedby': callerDescribedBy,
  ...textarea
}: FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, describedBy } = useFieldIds(ownId, error, hint, callerDescribedBy);
  return (
    <Chrome id={id} label={label} hint={hint} error={error}>
      <textarea className="field__control" aria-invalid={error ? true : undefined} {...textarea} id={id} aria-describedby={describedBy} />
    </Chrome>
  );
}

export function SelectField({
  label,
  hint,
  error,
  children,
  id: ownId,
  'aria-describedby': callerDescribedBy,
  ...select
}: FieldChrome & SelectHTMLAttributes<HTMLSelectElement>) {
  const { id, describedBy } = useFieldIds(ownId, error, hint, callerDescribedBy);
  return (
    <Chrome id={id} label={label} hint={hint} error={error}>
      <select className="field__control" aria-invalid={error ? true : undefined} {...select} id={id} aria-describedby={describedBy}>
        {children}
      </select>
    </Chrome>
  );
}
