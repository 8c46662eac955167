import { useId } from 'react';
import type { Choice } from '#common/domain/dating-profile.ts';
import { GroupError, GroupHeading, GroupHint, GroupLabelText, groupDescribedBy, type GroupChrome } from './GroupChrome.tsx';

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
    <div className="d-group" role="group" aria-labelledby={`${id}-label`} aria-describedby={groupDescribedBy(id, hint, error)} data-field={name}>
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
      <GroupError id={id} error={error} />
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
      aria-describedby={groupDescribedBy(id, hint, error)}
      aria-invalid={error ? true : undefined}
      data-field={name}
    >
      <legend className="d-group__label">
        <GroupLabelText label={label} optional={optional} />
      </legend>
      <GroupHint id={id} hint={hint} />
      <div className="d-chips">
        {choices.map((choice) => (
          <label key={choice.value} className="pill-toggle d-chip d-chip--radio">
            <input type="radio" name={name} value={choice.value} checked={value === choice.value} onChange={() => onChange(choice.value)} />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
      <GroupError id={id} error={error} />
    </fieldset>
  );
}
