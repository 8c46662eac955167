import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import './ui.css';

interface FieldChrome {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}

function useFieldIds(error?: string | null, hint?: ReactNode) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
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

export function TextField({ label, hint, error, ...input }: FieldChrome & InputHTMLAttributes<HTMLInputElement>) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <Chrome id={input.id ?? id} label={label} hint={hint} error={error}>
      <input id={input.id ?? id} className="field__control" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
    </Chrome>
  );
}

export function TextAreaField({ label, hint, error, ...textarea }: FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <Chrome id={textarea.id ?? id} label={label} hint={hint} error={error}>
      <textarea id={textarea.id ?? id} className="field__control" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...textarea} />
    </Chrome>
  );
}

export function SelectField({ label, hint, error, children, ...select }: FieldChrome & SelectHTMLAttributes<HTMLSelectElement>) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <Chrome id={select.id ?? id} label={label} hint={hint} error={error}>
      <select id={select.id ?? id} className="field__control" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {children}
      </select>
    </Chrome>
  );
}
