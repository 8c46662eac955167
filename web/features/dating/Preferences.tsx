import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { datingPreferencesBody, fieldErrors, type DatingProfile } from '#common/contract/dating.ts';
import {
  datingDays,
  DEFAULT_WANT_AGE_MAX,
  DEFAULT_WANT_AGE_MIN,
  eveningWindows,
  intentChoices,
  type DatingIntent,
  type FreeEvening,
} from '#common/domain/dating-match.ts';
import { datingNeighbourhoods } from '#common/domain/dating-profile.ts';
import { NumberField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { datingApi, datingErrorMessage } from './api.ts';
import { RadioChips, ToggleChips } from './Chips.tsx';
import { datingKeys } from './keys.ts';
import { GenderFields, type GenderAnswers } from './GenderFields.tsx';
import { TagInput } from './TagInput.tsx';

const DAY_LABELS: Record<string, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };
const eveningChoices = datingDays.flatMap((day) =>
  eveningWindows.map((window) => ({ value: `${day}_${window.value}` as FreeEvening, label: `${DAY_LABELS[day]} ${window.label}` })),
);
const neighbourhoodChoices = datingNeighbourhoods.map((name) => ({ value: name as string, label: name as string }));

/** What the member wants (decision 140): editable in place, saved in one call. */
export function Preferences({ profile }: { profile: DatingProfile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [form, setForm] = useState({
    wantAgeMin: String(profile.wantAgeMin),
    wantAgeMax: String(profile.wantAgeMax),
    neighbourhoods: profile.neighbourhoods,
    freeEvenings: profile.freeEvenings as FreeEvening[],
    intent: profile.intent as DatingIntent,
    interests: profile.interests,
    languages: profile.languages,
  });
  const [who, setWho] = useState<GenderAnswers & { tonightIsFine: boolean }>({
    gender: profile.gender ?? '',
    genderSelfDescribed: profile.genderSelfDescribed ?? '',
    showGender: profile.showGender,
    wantsToMeet: profile.wantsToMeet,
    tonightIsFine: profile.tonightIsFine,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const toggle = <T extends string>(list: readonly T[], value: T): T[] => (list.includes(value) ? list.filter((item) => item !== value) : [...list, value]);

  const save = useMutation({
    mutationFn: datingApi.savePreferences,
    onSuccess: (saved) => {
      queryClient.setQueryData(datingKeys.me, saved);
      void queryClient.invalidateQueries({ queryKey: datingKeys.suggestions });
      toast('Preferences saved', 'success');
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not save your preferences. Please try again.'), 'error'),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      ...form,
      ...who,
      gender: who.gender || undefined,
      wantsToMeet: who.wantsToMeet || undefined,
      wantAgeMin: Number(form.wantAgeMin),
      wantAgeMax: Number(form.wantAgeMax),
    };
    const parsed = datingPreferencesBody.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  return (
    <section className="d-card d-app__card d-prefs" aria-labelledby="prefs-title">
      <h2 id="prefs-title" className="d-app__card-title">
        What you're looking for
      </h2>
      <form onSubmit={onSubmit} noValidate className="d-prefs__form">
        <div className="d-prefs__ages" data-field="wantAgeMin">
          <NumberField
            label="Youngest age you'd like to meet"
            min={DEFAULT_WANT_AGE_MIN}
            max={DEFAULT_WANT_AGE_MAX}
            value={form.wantAgeMin}
            onChange={(event) => setForm({ ...form, wantAgeMin: event.target.value })}
            error={errors.wantAgeMin}
          />
          <NumberField
            label="Oldest"
            min={DEFAULT_WANT_AGE_MIN}
            max={DEFAULT_WANT_AGE_MAX}
            value={form.wantAgeMax}
            onChange={(event) => setForm({ ...form, wantAgeMax: event.target.value })}
            error={errors.wantAgeMax}
          />
        </div>
        <GenderFields value={who} onChange={(field, value) => setWho({ ...who, [field]: value })} errors={errors} />
        <ToggleChips
          name="neighbourhoods"
          label="Neighbourhoods"
          hint="The first one you pick is home"
          choices={neighbourhoodChoices}
          selected={form.neighbourhoods}
          onToggle={(value) => setForm({ ...form, neighbourhoods: toggle(form.neighbourhoods, value) })}
          error={errors.neighbourhoods}
        />
        <ToggleChips
          name="freeEvenings"
          label="Evenings you're free"
          choices={eveningChoices}
          selected={form.freeEvenings}
          onToggle={(value) => setForm({ ...form, freeEvenings: toggle(form.freeEvenings, value) })}
          error={errors.freeEvenings}
        />
        <label className="d-check">
          <input
            type="checkbox"
            name="tonightIsFine"
            checked={who.tonightIsFine}
            onChange={(event) => setWho({ ...who, tonightIsFine: event.target.checked })}
          />
          <span>Tonight is fine: a date can be planned less than 24 hours ahead when we both say so</span>
        </label>
        <RadioChips
          name="intent"
          label="You're looking for"
          choices={intentChoices}
          value={form.intent}
          onChange={(value) => setForm({ ...form, intent: value })}
          error={errors.intent}
        />
        <TagInput
          name="interests"
          label="Interests"
          hint="Type one and press Enter"
          tags={form.interests}
          onChange={(tags) => setForm({ ...form, interests: tags })}
        />
        <TagInput
          name="languages"
          label="Languages"
          hint="Type one and press Enter"
          tags={form.languages}
          onChange={(tags) => setForm({ ...form, languages: tags })}
        />
        <button type="submit" className="btn d-btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save preferences'}
        </button>
      </form>
    </section>
  );
}
