import { useId, useState, type KeyboardEvent } from 'react';
import { GroupError, GroupHint, groupDescribedBy } from './GroupChrome.tsx';
import { addTag } from './signup-form.ts';

/** Free-text tags: added on Enter (or the Add button), trimmed, no blanks or repeats, each removable. */
export function TagInput({
  label,
  hint,
  placeholder,
  tags,
  onChange,
  error,
  name,
}: {
  label: string;
  hint?: string;
  placeholder?: string;
  tags: string[];
  onChange(tags: string[]): void;
  error?: string | null;
  name: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState('');

  function commit() {
    onChange(addTag(tags, draft));
    setDraft('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      // Enter adds the tag; it must not submit the whole form.
      event.preventDefault();
      commit();
    }
  }

  return (
    <div className="field" data-field={name}>
      <label className="field__label" htmlFor={id}>
        {label} <span className="d-optional">(optional)</span>
      </label>
      <GroupHint id={id} hint={hint} className="field__hint" />
      <div className="d-tag-entry">
        <input
          id={id}
          className="field__control"
          value={draft}
          placeholder={placeholder}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={groupDescribedBy(id, hint, error)}
          maxLength={40}
          autoComplete="off"
          enterKeyHint="enter"
        />
        <button type="button" className="btn d-btn--quiet" onClick={commit} disabled={!draft.trim()}>
          Add
        </button>
      </div>
      {tags.length ? (
        <ul className="d-tags" aria-label={`${label} added`}>
          {tags.map((tag) => (
            <li key={tag} className="d-tag">
              <span>{tag}</span>
              <button
                type="button"
                className="d-tag__remove"
                aria-label={`Remove ${tag}`}
                onClick={() => onChange(tags.filter((existing) => existing !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <GroupError id={id} error={error} />
    </div>
  );
}
