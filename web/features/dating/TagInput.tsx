import { useId, useRef, useState, type KeyboardEvent } from 'react';
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
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  /** Removes a tag; the focus goes to the next tag's remove button (else the previous one, else the input). */
  function remove(index: number) {
    const tag = tags[index]!;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('.d-tag__remove') ?? [])];
    const next = buttons[index + 1] ?? buttons[index - 1] ?? inputRef.current;
    onChange(tags.filter((existing) => existing !== tag));
    setAnnouncement(`Removed ${tag}.`);
    next?.focus();
  }

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
          ref={inputRef}
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
        <ul ref={listRef} className="d-tags" aria-label={`${label} added`}>
          {tags.map((tag, index) => (
            <li key={tag} className="d-tag">
              <span>{tag}</span>
              <button type="button" className="d-tag__remove" aria-label={`Remove ${tag}`} onClick={() => remove(index)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <GroupError id={id} error={error} />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
