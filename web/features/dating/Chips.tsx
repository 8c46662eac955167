import { useId } from 'react';
import type { Choice } from '#common/domain/dating-profile.ts';

interface GroupChrome {
  label: string;
  hint?: string;
  error?: string | null;
  optional?: boolean;
}

function GroupHeading({ id, label, hint, optional }: GroupChrome & { id: string }) {
  return (
    <div className="d-group__heading">
      <span className="d-group__label" id={`${id}-label`}>
        {label}
        {optional ? <span className="d-optional"> (optional)</span> : null}
      </span>
      {hint ? (
        <span className="d-group__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** Chips that toggle (several may be on): real buttons with aria-pressed. */
export function ToggleChips<T extends string>({
  label,
  hint,
  error,
  choices,
  selected,
  onToggle,
  name,
}: GroupChrome & { choices: readonly Choice<T>[]; selected: readonly T[]; onToggle(value: T): void; name: string }) {
  const id = useId();
  return (
    <div
      className="d-group"
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
      data-field={name}
    >
      <GroupHeading id={id} label={label} hint={hint} />
      <div className="d-chips">
        {choices.map((choice) => {
          const isOn = selected.includes(choice.value);
          return (
            <button key={choice.value} type="button" className="pill-toggle d-chip" aria-pressed={isOn} onClick={() => onToggle(choice.value)}>
              {choice.emoji ? (
                <span className="emoji" aria-hidden="true">
                  {choice.emoji}
                </span>
              ) : null}
              {choice.label}
            </button>
          );
        })}
      </div>
      {error ? (
        <span className="d-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** One choice among a few, shown as chips: native radio buttons, so arrow keys and screen readers work. */
export function RadioChips<T extends string>({
  label,
  hint,
  error,
  choices,
  value,
  onChange,
  name,
  optional,
}: GroupChrome & { choices: readonly Choice<T>[]; value: string; onChange(value: T): void; name: string }) {
  const id = useId();
  return (
    <fieldset
      className="d-group d-group--fieldset"
      aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
      aria-invalid={error ? true : undefined}
      data-field={name}
    >
      <legend className="d-group__label">
        {label}
        {optional ? <span className="d-optional"> (optional)</span> : null}
      </legend>
      {hint ? (
        <span className="d-group__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <div className="d-chips">
        {choices.map((choice) => (
          <label key={choice.value} className="pill-toggle d-chip d-chip--radio">
            <input type="radio" name={name} value={choice.value} checked={value === choice.value} onChange={() => onChange(choice.value)} />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <span className="d-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
