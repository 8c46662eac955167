import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { DROP_DESCRIPTION_MAX, DROP_TIMES_MAX, DROP_TITLE_MAX } from '#common/contract/drops.ts';
import { formatDateShort, formatTime12h, isIsoDate } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { Button } from '#web/components/ui/Button.tsx';
import { TextAreaField, TextField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useAdminSlots } from './api.ts';
import { useCreateDrop } from './drops-api.ts';
import {
  addDropTime,
  defaultDropForm,
  describeDropSlots,
  DROP_FIELDS,
  fieldOfMessage,
  humaniseDropMessage,
  kolkataLocalToIso,
  validateDropForm,
  type DropField,
  type DropFormErrors,
  type DropFormValues,
} from './drops-form.ts';
import { formatInstant } from './drops-format.ts';

/** The window's three instants, in the order a drop goes through them. */
const INSTANT_FIELDS = [
  ['entryOpensAt', 'Entries open'],
  ['entryClosesAt', 'Entries close'],
  ['releaseAt', 'Release'],
] as const;

/** Times a restaurant often runs, offered as one-tap chips when free on the first date. */
const SUGGESTED_TIMES = ['12:00', '12:30', '13:00', '13:30', '17:30', '18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00', '21:30', '22:00', '22:30', '23:00'];

const fieldId = (field: DropField) => (field === 'times' ? 'drop-time-input' : `drop-${field}`);

/** The Bengaluru reading of a datetime-local value, under the field, so nobody wonders which zone it is in. */
function instantHint(value: string): string {
  const iso = kolkataLocalToIso(value);
  return iso ? `${formatInstant(iso)} in Bengaluru (IST)` : 'Bengaluru time (IST)';
}

function TimesField({
  times,
  onChange,
  taken,
  takenDate,
  error,
}: {
  times: string[];
  onChange: (times: string[]) => void;
  taken: string[] | null;
  takenDate: string;
  error?: string;
}) {
  const [draft, setDraft] = useState('');
  const full = times.length >= DROP_TIMES_MAX;
  const suggestions = SUGGESTED_TIMES.filter((time) => !times.includes(time) && !(taken ?? []).includes(time)).slice(0, 8);

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
              <button type="button" className="drop-chip__remove" aria-label={`Remove ${formatTime12h(time)}`} onClick={() => onChange(times.filter((t) => t !== time))}>
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
            ? `${formatDateShort(takenDate)} already has ${taken.length} ${taken.length === 1 ? 'slot' : 'slots'} (${formatTime12h(taken[0])}${taken.length > 1 ? ` – ${formatTime12h(taken[taken.length - 1])}` : ''}). A drop needs times of its own.`
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

/** Create a drop: what diners see, the tables, and the entry window and release in Bengaluru time. */
export function CreateDropForm({ onCreated }: { onCreated: (id: string) => void }) {
  const toast = useToast();
  const create = useCreateDrop();
  const [values, setValues] = useState<DropFormValues>(() => defaultDropForm(new Date()));
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const takenSlots = useAdminSlots(isIsoDate(values.dateFrom) ? values.dateFrom : '');
  const taken = useMemo(() => (takenSlots.data ? takenSlots.data.map((slot) => slot.time).sort() : null), [takenSlots.data]);

  useEffect(() => headingRef.current?.focus(), []);

  const validation = validateDropForm(values, { now: new Date(), taken: taken ? { date: values.dateFrom, times: taken } : null });
  const errors: DropFormErrors = submitted ? validation.errors : {};
  const summary = describeDropSlots(values);

  function update<K extends DropField>(field: K, value: DropFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerError('');
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError('');
    const checked = validateDropForm(values, { now: new Date(), taken: taken ? { date: values.dateFrom, times: taken } : null });
    if (!checked.body) {
      const first = DROP_FIELDS.find((field) => checked.errors[field]);
      if (first) document.getElementById(fieldId(first))?.focus();
      return;
    }
    create.mutate(checked.body, {
      onSuccess: (drop) => {
        toast(`Drop created: ${drop.slotCount} ${drop.slotCount === 1 ? 'slot' : 'slots'}, hidden until the release.`, 'success');
        onCreated(drop.id);
      },
      onError: (error) => {
        const message = errorMessage(error, { server: 'The drop could not be created. Please try again.', network: 'No connection: the drop was not created. Please try again.' });
        setServerError(humaniseDropMessage(message));
        // A refusal about one field (e.g. 'releaseAt must be at least 30 minutes before…') takes the focus there.
        const field = fieldOfMessage(message);
        if (field) document.getElementById(fieldId(field))?.focus();
      },
    });
  }

  const errorCount = Object.keys(errors).length;

  return (
    <section className="admin-panel drop-form" aria-labelledby="drop-form-title">
      <Link className="portal-drops__back" to="?tab=drops">
        <span aria-hidden="true">←</span> All drops
      </Link>
      <div className="admin-panel__head">
        <h2 id="drop-form-title" className="admin-panel__title" tabIndex={-1} ref={headingRef}>
          New drop
        </h2>
      </div>
      <div className="drop-form__layout">
        <form className="drop-form__form" onSubmit={onSubmit} noValidate aria-describedby="drop-form-lede">
          <p className="drop-form__lede" id="drop-form-lede">
            The drop’s slots stay hidden from normal booking until the release. Diners with a verified phone enter during the window; at the release a recorded
            random draw decides the order tables are offered in.
          </p>
          {errorCount > 0 ? (
            <p className="drop-form__summary" role="alert">
              {errorCount === 1 ? 'One field needs attention.' : `${errorCount} fields need attention.`}
            </p>
          ) : null}

          <fieldset className="drop-form__group">
            <legend className="drop-form__legend">What diners see</legend>
            <TextField
              id={fieldId('title')}
              label="Title"
              value={values.title}
              maxLength={DROP_TITLE_MAX}
              placeholder="Chef’s counter, Saturday nights"
              error={errors.title}
              onChange={(event) => update('title', event.target.value)}
            />
            <TextAreaField
              id={fieldId('description')}
              label="Description (optional)"
              value={values.description}
              maxLength={DROP_DESCRIPTION_MAX}
              rows={3}
              placeholder="Eight seats at the pass, a tasting menu cooked in front of you."
              hint={`${values.description.length}/${DROP_DESCRIPTION_MAX}`}
              error={errors.description}
              onChange={(event) => update('description', event.target.value)}
            />
          </fieldset>

          <fieldset className="drop-form__group">
            <legend className="drop-form__legend">Tables</legend>
            <div className="drop-form__pair">
              <TextField id={fieldId('dateFrom')} label="First date" type="date" value={values.dateFrom} error={errors.dateFrom} onChange={(event) => update('dateFrom', event.target.value)} />
              <TextField id={fieldId('dateTo')} label="Last date" type="date" value={values.dateTo} error={errors.dateTo} onChange={(event) => update('dateTo', event.target.value)} />
            </div>
            <TimesField times={values.times} onChange={(times) => update('times', times)} taken={taken} takenDate={values.dateFrom} error={errors.times} />
            <TextField
              id={fieldId('capacity')}
              label="Capacity (covers)"
              type="number"
              inputMode="numeric"
              min={1}
              max={500}
              value={values.capacity}
              hint="Covers at each time. Also the biggest party that can enter."
              error={errors.capacity}
              onChange={(event) => update('capacity', event.target.value)}
            />
            <p className="drop-form__count" aria-live="polite">
              {summary}
            </p>
          </fieldset>

          <fieldset className="drop-form__group">
            <legend className="drop-form__legend">Entry window and release</legend>
            <div className="drop-form__trio">
              {INSTANT_FIELDS.map(([name, label]) => (
                <TextField
                  key={name}
                  id={fieldId(name)}
                  label={label}
                  type="datetime-local"
                  value={values[name]}
                  hint={instantHint(values[name])}
                  error={errors[name]}
                  onChange={(event) => update(name, event.target.value)}
                />
              ))}
            </div>
          </fieldset>

          {serverError ? (
            <Alert tone="error" title="The drop was not created">
              {serverError}
            </Alert>
          ) : null}
          <div className="drop-form__actions">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create drop'}
            </Button>
            <Link className="btn btn--ghost" to="?tab=drops">
              Cancel
            </Link>
          </div>
        </form>
        <aside className="drop-form__aside" aria-label="How a drop works">
          <h3 className="drop-form__aside-title">How a drop works</h3>
          <ol className="drop-form__steps">
            <li>
              <strong>Before the release</strong> the slots are invisible to availability and cannot be booked directly.
            </li>
            <li>
              <strong>During the window</strong> each diner enters once, with a verified phone and a party size up to the capacity.
            </li>
            <li>
              <strong>At the release</strong> a seeded random draw orders every entry. Winners get a held table for the usual hold time; a table let go goes to the
              next in line.
            </li>
            <li>
              <strong>Afterwards</strong> the seed is published so anyone can check the order.
            </li>
          </ol>
        </aside>
      </div>
    </section>
  );
}
