import { GENDER_SELF_MAX, genderChoices, wantsToMeetChoices, type Gender, type WantsToMeet } from '#common/domain/dating-gender.ts';
import { TextField } from '#web/components/ui/Field.tsx';
import { RadioChips } from './Chips.tsx';

/** The answers of "You and who you want to meet" (decision 250), as a form holds them ('' until chosen). */
export interface GenderAnswers {
  gender: Gender | '';
  genderSelfDescribed: string;
  showGender: boolean;
  wantsToMeet: WantsToMeet | '';
}

/**
 * Who you are and who you want to meet, at signup and in preferences: the gender (your own words
 * when you describe yourself), whether it shows on your profile, and who you want to meet. The
 * same rule decides the suggestions either way; the hint says it in one sentence.
 */
export function GenderFields({
  value,
  onChange,
  errors,
}: {
  value: GenderAnswers;
  onChange: <K extends keyof GenderAnswers>(field: K, next: GenderAnswers[K]) => void;
  errors: Partial<Record<keyof GenderAnswers, string>>;
}) {
  /** A one-choice answer's chips, bound as the signup form binds its own (use-dating-signup-form.ts). */
  const oneChoice = <K extends 'gender' | 'wantsToMeet'>(field: K) => ({
    name: field,
    value: value[field],
    onChange: (next: GenderAnswers[K]) => onChange(field, next),
    error: errors[field],
  });

  return (
    <>
      <RadioChips label="You are" choices={genderChoices} {...oneChoice('gender')} />
      {value.gender === 'SELF_DESCRIBED' ? (
        <TextField
          label="In your own words"
          name="genderSelfDescribed"
          maxLength={GENDER_SELF_MAX}
          value={value.genderSelfDescribed}
          onChange={(event) => onChange('genderSelfDescribed', event.target.value)}
          error={errors.genderSelfDescribed}
          required
        />
      ) : null}
      <label className="d-check">
        <input type="checkbox" name="showGender" checked={value.showGender} onChange={(event) => onChange('showGender', event.target.checked)} />
        <span>Show this on my profile (we use it for matching either way)</span>
      </label>
      <RadioChips
        label="You want to meet"
        hint="You are only suggested to people who want to meet you too."
        choices={wantsToMeetChoices}
        {...oneChoice('wantsToMeet')}
      />
    </>
  );
}
