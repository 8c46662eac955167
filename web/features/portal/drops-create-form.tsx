import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { DROP_CAPACITY_MAX, DROP_CAPACITY_MIN, DROP_DESCRIPTION_MAX, DROP_TITLE_MAX } from '#common/contract/drops.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { Button } from '#web/components/ui/Button.tsx';
import { NumberField, TextAreaField, TextField } from '#web/components/ui/Field.tsx';
import { kolkataLocalToIso } from './drops-form.ts';
import { formatInstant } from './drops-format.ts';
import { DropFormGuide } from './DropFormGuide.tsx';
import { DropTimesField } from './DropTimesField.tsx';
import { fieldId, useCreateDropForm } from './use-create-drop-form.ts';

/** The drop's first and last dates (Kolkata), side by side. */
const DATE_FIELDS = [
  ['dateFrom', 'First date'],
  ['dateTo', 'Last date'],
] as const;

/** The window's three instants, in the order a drop goes through them. */
const INSTANT_FIELDS = [
  ['entryOpensAt', 'Entries open'],
  ['entryClosesAt', 'Entries close'],
  ['releaseAt', 'Release'],
] as const;

/** The Bengaluru reading of a datetime-local value, under the field, so nobody wonders which zone it is in. */
function instantHint(value: string): string {
  const iso = kolkataLocalToIso(value);
  return iso ? `${formatInstant(iso)} in Bengaluru (IST)` : 'Bengaluru time (IST)';
}

/** Create a drop: what diners see, the tables, and the entry window and release in Bengaluru time. */
export function CreateDropForm({ onCreated }: { onCreated: (id: string) => void }) {
  const { values, update, errors, summary, takenNote, taken, serverError, onSubmit, isCreating } = useCreateDropForm(onCreated);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => headingRef.current?.focus(), []);

  const errorCount = Object.keys(errors).length;

  /** A row of same-kind fields (the two dates, the three instants), each with its value, error and hint. */
  const fieldRow = (fields: typeof DATE_FIELDS | typeof INSTANT_FIELDS, type: 'date' | 'datetime-local', hint?: (value: string) => string) =>
    fields.map(([name, label]) => (
      <TextField
        key={name}
        id={fieldId(name)}
        label={label}
        type={type}
        value={values[name]}
        hint={hint?.(values[name])}
        error={errors[name]}
        onChange={(event) => update(name, event.target.value)}
      />
    ));

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
            <div className="drop-form__pair">{fieldRow(DATE_FIELDS, 'date')}</div>
            <DropTimesField
              times={values.times}
              onChange={(times) => update('times', times)}
              taken={taken}
              takenDate={values.dateFrom}
              takeExisting={values.takeExistingTimes}
              error={errors.times}
            />
            <div className="drop-form__take">
              <label className="drop-form__take-label">
                <input
                  type="checkbox"
                  checked={values.takeExistingTimes}
                  aria-describedby="drop-take-hint"
                  onChange={(event) => update('takeExistingTimes', event.target.checked)}
                />
                Take times we already offer
              </label>
              <span className="field__hint" id="drop-take-hint" aria-live="polite">
                {takenNote ||
                  'Times already on sale at these dates move into the drop and leave normal booking. Only times with nothing booked can move; the drop sets their covers.'}
              </span>
            </div>
            <NumberField
              id={fieldId('capacity')}
              label="Capacity (covers)"
              min={DROP_CAPACITY_MIN}
              max={DROP_CAPACITY_MAX}
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
            <div className="drop-form__trio">{fieldRow(INSTANT_FIELDS, 'datetime-local', instantHint)}</div>
          </fieldset>

          {serverError ? (
            <Alert tone="error" title="The drop was not created">
              {serverError}
            </Alert>
          ) : null}
          <div className="drop-form__actions">
            <Button type="submit" disabled={isCreating}>
              {isCreating ? 'Creating…' : 'Create drop'}
            </Button>
            <Link className="btn btn--ghost" to="?tab=drops">
              Cancel
            </Link>
          </div>
        </form>
        <DropFormGuide />
      </div>
    </section>
  );
}
