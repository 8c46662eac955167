import { useState, type KeyboardEvent } from 'react';
import { DROP_TIMES_MAX } from '#common/contract/drops.ts';
import { clockTimesBetween, formatDateShort, formatTime12h, isIsoDate } from '#common/domain/time.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { addDropTime } from './drops-form.ts';

/** Times a restaurant often runs, offered as one-tap chips when free on the first date. */
const SUGGESTED_TIMES = [...clockTimesBetween('12:00', '13:30', 30), ...clockTimesBetween('17:30', '23:00', 30)];

/** The drop's times as removable chips, a time input, and one-tap suggestions free on the first date. */
export function DropTimesField({
  times,
  onChange,
  taken,
  takenDate,
  takeExisting,
  error,
}: {
  times: string[];
  onChange: (times: string[]) => void;
  taken: string[] | null;
  takenDate: string;
  /** The form takes existing times into the drop (decision 226): they are offered like any other. */
  takeExisting: boolean;
  error?: string;
}) {
  const [draft, setDraft] = useState('');
  const full = times.length >= DROP_TIMES_MAX;
  const suggestions = SUGGESTED_TIMES.filter((time) => !times.includes(time) && (takeExisting || !(taken ?? []).includes(time))).slice(0, 8);

  function add(value: string) {
    if (full) return;
    onChange(addDropTime(times, value));
    setDraft('');
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add(event.currentTarget.value || draft);
  }

  const describedBy = ['drop-times-hint', error ? 'drop-times-error' : null].filter(Boolean).join(' ');
  return (
    <div className="field drop-times" role="group" aria-labelledby="drop-times-label">
      <span className="field__label" id="drop-times-label">
        Times
      </span>
      {times.length > 0 ? (
        <ul className="drop-times__chips" aria-label="Chosen times">
          {times.map((time) => (
            <li key={time} className="drop-chip">
              <span>{formatTime12h(time)}</span>
              <button
                type="button"
                className="drop-chip__remove"
                aria-label={`Remove ${formatTime12h(time)}`}
                onClick={() => onChange(times.filter((t) => t !== time))}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="drop-times__none">No times yet: add one or more.</p>
      )}
      <div className="drop-times__add">
        <label className="visually-hidden" htmlFor="drop-time-input">
          Add a time
        </label>
        <input
          id="drop-time-input"
          className="field__control drop-times__input"
          type="time"
          step={300}
          value={draft}
          disabled={full}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="secondary" onClick={() => add(draft)} disabled={full || !draft}>
          Add time
        </Button>
      </div>
      {suggestions.length > 0 && !full ? (
        <div className="drop-times__suggest">
          <span className="drop-times__suggest-label" id="drop-times-suggest-label">
            Quick add
          </span>
          <ul className="drop-times__suggest-list" aria-labelledby="drop-times-suggest-label">
            {suggestions.map((time) => (
              <li key={time}>
                <button type="button" className="drop-suggest" onClick={() => add(time)} aria-label={`Add ${formatTime12h(time)}`}>
                  + {formatTime12h(time)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <span className="field__hint" id="drop-times-hint">
        {full
          ? `That is the most a drop can have (${DROP_TIMES_MAX}).`
          : taken && taken.length > 0 && isIsoDate(takenDate)
            ? `${formatDateShort(takenDate)} already has ${taken.length} ${taken.length === 1 ? 'slot' : 'slots'} (${formatTime12h(taken[0])}${taken.length > 1 ? ` – ${formatTime12h(taken[taken.length - 1])}` : ''}). ${takeExisting ? 'Those you choose move into the drop.' : 'Choose others, or take them into the drop below.'}`
            : `Up to ${DROP_TIMES_MAX} times, each on every date of the drop.`}
      </span>
      {error ? (
        <span className="field__error" id="drop-times-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
