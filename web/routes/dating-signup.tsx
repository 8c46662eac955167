import { useMemo } from 'react';
import { Link } from 'react-router';
import {
  DATING_FREE_TEXT_MAX,
  cuisineChoices,
  dateBudgetChoices,
  dietChoices,
  drinkingChoices,
  firstDateChoices,
  latestAdultDob,
  physicalActivityChoices,
  smokingChoices,
} from '#common/domain/dating-profile.ts';
import { SelectField, TextAreaField, TextField } from '#web/components/ui/Field.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { RadioChips, ToggleChips } from '#web/features/dating/Chips.tsx';
import { DatingAuthLink, DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { Counter, Section } from '#web/features/dating/FormSection.tsx';
import { DatingPhoneField } from '#web/features/dating/PhoneField.tsx';
import { PhotoPicker } from '#web/features/dating/PhotoPicker.tsx';
import { SignupCodeStep } from '#web/features/dating/SignupCodeStep.tsx';
import { SignupIntro } from '#web/features/dating/SignupIntro.tsx';
import { TagInput } from '#web/features/dating/TagInput.tsx';
import { useDatingSignupForm } from '#web/features/dating/use-dating-signup-form.ts';
import { timeZoneChoices } from '#web/features/dating/signup-form.ts';

/** Diet, drinking and smoking: optional, each with 'Prefer not to say'. */
const OPTIONAL_HABITS = [
  ['diet', 'Diet', dietChoices],
  ['drinking', 'Drinking', drinkingChoices],
  ['smoking', 'Smoking', smokingChoices],
] as const;

/** The common zones first, then every zone the browser knows. */
function timeZones(current: string) {
  return timeZoneChoices(current, typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);
}

/**
 * 'Create your account': the profile answers and exactly three photos, checked live by the
 * same schema as the server; then presign → three parallel uploads → signup → the code sent to
 * the phone (decision 101) → /dating/app. The form stays (hidden) so "Change your answers" keeps them.
 */
export default function DatingSignup() {
  const signup = useDatingSignupForm();
  const { form, shown, set, text, manyChoices, oneChoice, tagList } = signup;
  const zones = useMemo(() => timeZones(form.timeZone), [form.timeZone]);

  return (
    <DatingPage title="Create your account · Tablefair Dating" className="dating--signup" header={<DatingAuthLink to="login" />}>
      <div className="d-container d-signup">
        <SignupIntro />

        {signup.pending ? (
          <SignupCodeStep pending={signup.pending} isBusy={signup.isBusy} failure={signup.failure} onVerify={signup.onVerify} onStartOver={signup.startOver} />
        ) : null}
        <form hidden={Boolean(signup.pending)} className="d-card d-signup__form" noValidate onSubmit={signup.onSubmit} aria-labelledby="signup-form-title">
          <h2 id="signup-form-title" className="visually-hidden">
            Signup form
          </h2>
          <Section id="sec-account" title="Your account" description="You log in with your phone number and password.">
            <div className="d-grid-2">
              <DatingPhoneField
                {...text('phone')}
                onBlur={() => {
                  set('phone', form.phone.trim());
                  signup.touch('phone');
                }}
              />
              <TextField label="Password" type="password" autoComplete="new-password" hint="At least 8 characters" {...text('password')} required />
            </div>
          </Section>

          <Section id="sec-basics" title="The basics">
            <div className="d-grid-2">
              <TextField label="Name" autoComplete="given-name" {...text('name')} required />
              <TextField label="Date of birth" type="date" min="1900-01-01" max={latestAdultDob(signup.today)} {...text('dob')} required />
            </div>
            <TextField
              label={
                <>
                  Profession <span className="d-optional">(optional)</span>
                </>
              }
              autoComplete="organization-title"
              {...text('profession')}
            />
            <TextField
              label={
                <>
                  Instagram <span className="d-optional">(optional)</span>
                </>
              }
              placeholder="@yourhandle"
              autoCapitalize="none"
              {...text('instagramHandle')}
            />
          </Section>

          <Section id="sec-photos" title="Photos" description="Clear, recent photos of you, on your own is best.">
            <PhotoPicker photos={form.photos} onChange={(photos) => set('photos', photos, true)} error={shown('photos')} />
          </Section>

          <Section id="sec-dates" title="Dates you would enjoy">
            <ToggleChips label="Preferred first dates" hint="Pick as many as you like" choices={firstDateChoices} {...manyChoices('firstDateTypes')} />
            <RadioChips label="Date budget" hint="Per person, for a first date" choices={dateBudgetChoices} {...oneChoice('dateBudget')} />
            <ToggleChips label="Favourite cuisines" choices={cuisineChoices} {...manyChoices('cuisines')} />
          </Section>

          <Section id="sec-about" title="About you" description={`A sentence or two each, up to ${DATING_FREE_TEXT_MAX} characters.`}>
            <TextAreaField
              label="What you want to see in a partner"
              rows={3}
              hint={<Counter value={form.whatIWantInPartner} />}
              {...text('whatIWantInPartner')}
            />
            <TextAreaField
              label="Why they'd love dating you"
              rows={3}
              hint={<Counter value={form.whyPartnerWouldLikeMe} />}
              {...text('whyPartnerWouldLikeMe')}
            />
            <TextAreaField label="Your dreams" rows={3} hint={<Counter value={form.dreams} />} {...text('dreams')} />
            <TextAreaField label="Where you want to be in 5 years" rows={3} hint={<Counter value={form.fiveYearGoal} />} {...text('fiveYearGoal')} />
            <TagInput label="Interests" hint="Type one and press Enter" placeholder="e.g. Carnatic music" {...tagList('interests')} />
          </Section>

          <Section id="sec-lifestyle" title="Lifestyle">
            <RadioChips label="How active are you?" choices={physicalActivityChoices} {...oneChoice('physicalActivity')} />
            <div className="d-grid-3">
              {OPTIONAL_HABITS.map(([field, label, choices]) => (
                <SelectField
                  key={field}
                  label={
                    <>
                      {label} <span className="d-optional">(optional)</span>
                    </>
                  }
                  {...text(field)}
                >
                  <option value="">Prefer not to say</option>
                  {choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </SelectField>
              ))}
            </div>
            <TagInput label="Languages" hint="Type one and press Enter" placeholder="e.g. Kannada" {...tagList('languages')} />
            <SelectField label="Time zone" name="timeZone" value={form.timeZone} onChange={(event) => set('timeZone', event.target.value)}>
              <optgroup label="Common">
                {zones.common.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replaceAll('_', ' ')}
                  </option>
                ))}
              </optgroup>
              <optgroup label="All time zones">
                {zones.others.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replaceAll('_', ' ')}
                  </option>
                ))}
              </optgroup>
            </SelectField>
          </Section>

          <div className="d-submit">
            {signup.failure && !signup.pending ? <Alert tone="error">{signup.failure}</Alert> : null}
            {signup.errorCount > 0 && !signup.failure ? (
              // Not a live region: it changes as fields are left; signup.submitNews is what gets announced.
              <p className="d-submit__summary">
                {signup.errorCount === 1 ? '1 answer needs a look' : `${signup.errorCount} answers need a look`} before you can continue.
              </p>
            ) : null}
            <p className="visually-hidden" role="status">
              {signup.submitNews}
            </p>
            <button type="submit" className="btn d-btn--primary d-btn--block d-btn--lg" disabled={signup.isBusy}>
              {signup.isBusy ? 'Creating...' : 'Create account'}
            </button>
          </div>
          <p className="d-auth__switch">
            Already have an account? <Link to="/dating/login">Log in</Link>
          </p>
        </form>
      </div>
    </DatingPage>
  );
}
