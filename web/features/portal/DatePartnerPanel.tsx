import { useState, type FormEvent } from 'react';
import { datePartnerProfile, fieldErrors, type DatePartnerProfile, type DatePartnerSetting } from '#common/contract/dating.ts';
import { cuisineChoices, dateBudgetChoices, datingNeighbourhoods, firstDateChoices, tableDateTypes } from '#common/domain/dating-profile.ts';
import { formatInstantKolkata } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { SelectField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { AdminPanel } from './AdminPanel.tsx';
import { useDatePartner, useSaveDatePartner } from './date-partner-api.ts';

const dateTypeChoices = firstDateChoices.filter((choice) => (tableDateTypes as readonly string[]).includes(choice.value));

const EMPTY: DatePartnerProfile = { budget: 'INR_1000_2500', neighbourhood: 'Indiranagar', cuisines: [], dateTypes: [] };

/**
 * The Profile tab's "Tablefair dates" panel (decision 183): a restaurant opts in
 * as a date partner with what a date there is like, in the dating section's words, changes it,
 * or stops hosting.
 */
export function DatePartnerPanel() {
  const setting = useDatePartner();
  return (
    <AdminPanel className="date-partner" title="Tablefair dates">
      <p className="date-partner__lede">
        Tablefair Dating offers matched pairs a real table instead of a chat. Tell us what a date here is like, and your restaurant can be proposed for their
        first date; it shows in your bookings as a party of two.
      </p>
      {setting.isPending ? (
        <Skeleton height={220} radius="var(--radius-lg)" />
      ) : setting.isError ? (
        <p className="date-partner__lede">The date-partner profile could not be loaded. It will be tried again in a moment.</p>
      ) : (
        <DatePartnerForm key={setting.data.partner?.optedInAt ?? 'none'} setting={setting.data} />
      )}
    </AdminPanel>
  );
}

function DatePartnerForm({ setting }: { setting: DatePartnerSetting }) {
  const save = useSaveDatePartner();
  const toast = useToast();
  const hosting = setting.partner !== null;
  const [form, setForm] = useState<DatePartnerProfile>(setting.partner ?? EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const toggle = <T extends string>(list: readonly T[], value: T): T[] => (list.includes(value) ? list.filter((item) => item !== value) : [...list, value]);

  function send(profile: DatePartnerProfile | null, done: string) {
    save.mutate(profile, {
      onSuccess: () => toast(done, 'success', { key: 'date-partner' }),
      onError: (error) =>
        toast(
          errorMessage(error, { server: 'That could not be saved. Try again.', network: 'Could not reach the server. Check your connection and try again.' }),
          'error',
          {
            key: 'date-partner',
          },
        ),
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = datePartnerProfile.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    send(parsed.data, hosting ? 'Date-partner profile saved.' : 'Your restaurant now hosts Tablefair dates.');
  }

  return (
    <form className="date-partner__form" onSubmit={onSubmit} noValidate>
      <p className="date-partner__status" data-testid="date-partner-status">
        {hosting ? `Hosting Tablefair dates since ${formatInstantKolkata(setting.partner!.optedInAt)}.` : 'Not hosting Tablefair dates.'}
      </p>
      <div className="date-partner__row">
        <SelectField
          label="A date for two here costs"
          value={form.budget}
          onChange={(event) => setForm({ ...form, budget: event.target.value as DatePartnerProfile['budget'] })}
          error={errors.budget}
        >
          {dateBudgetChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Neighbourhood"
          hint="Where the restaurant is, or the nearest of these"
          value={form.neighbourhood}
          onChange={(event) => setForm({ ...form, neighbourhood: event.target.value as DatePartnerProfile['neighbourhood'] })}
          error={errors.neighbourhood}
        >
          {datingNeighbourhoods.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
      </div>
      <CheckChips
        legend="Cuisines"
        choices={cuisineChoices}
        selected={form.cuisines}
        onToggle={(value) => setForm({ ...form, cuisines: toggle(form.cuisines, value as DatePartnerProfile['cuisines'][number]) })}
        error={errors.cuisines}
      />
      <CheckChips
        legend="Kinds of date"
        choices={dateTypeChoices}
        selected={form.dateTypes}
        onToggle={(value) => setForm({ ...form, dateTypes: toggle(form.dateTypes, value as DatePartnerProfile['dateTypes'][number]) })}
        error={errors.dateTypes}
      />
      <div className="date-partner__actions">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : hosting ? 'Save changes' : 'Host Tablefair dates'}
        </Button>
        {hosting ? (
          <Button variant="secondary" disabled={save.isPending} onClick={() => send(null, 'Your restaurant no longer hosts Tablefair dates.')}>
            Stop hosting dates
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** Checkboxes as chips in a fieldset whose legend names them; the error is tied to the group. */
function CheckChips({
  legend,
  choices,
  selected,
  onToggle,
  error,
}: {
  legend: string;
  choices: readonly { value: string; label: string; emoji?: string }[];
  selected: readonly string[];
  onToggle: (value: string) => void;
  error?: string;
}) {
  const errorId = `date-partner-${legend.toLowerCase().replace(/\W+/g, '-')}-error`;
  return (
    <fieldset className="date-partner__choices" aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="date-partner__choice">
          <input type="checkbox" checked={selected.includes(choice.value)} onChange={() => onToggle(choice.value)} />
          {choice.emoji ? <span aria-hidden="true">{choice.emoji}</span> : null}
          {choice.label}
        </label>
      ))}
      {error ? (
        <span className="field__error" id={errorId}>
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
