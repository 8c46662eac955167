import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DATING_MESSAGES } from '#common/contract/dating.ts';
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
import { todayInKolkata } from '#common/domain/time.ts';
import { SelectField, TextAreaField, TextField } from '#web/components/ui/Field.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { datingApi, datingErrorMessage, uploadPhoto } from '#web/features/dating/api.ts';
import { RadioChips, ToggleChips } from '#web/features/dating/Chips.tsx';
import { DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { PhotoPicker } from '#web/features/dating/PhotoPicker.tsx';
import { TagInput } from '#web/features/dating/TagInput.tsx';
import { emptySignupForm, runSignupSequence, toggle, validateSignupForm, type DatingSignupForm } from '#web/features/dating/signup-form.ts';

type Field = keyof DatingSignupForm;

/** Every zone the browser knows, with the chosen one first in reach. */
function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}

function Section({ title, description, children, id }: { title: string; description?: string; children: ReactNode; id: string }) {
  return (
    <section className="d-form-section" aria-labelledby={id}>
      <div className="d-form-section__head">
        <h2 id={id} className="d-form-section__title">
          {title}
        </h2>
        {description ? <p className="d-muted">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

function Counter({ value }: { value: string }) {
  const length = value.trim().length;
  return (
    <span className={length > DATING_FREE_TEXT_MAX ? 'd-counter d-counter--over' : 'd-counter'}>
      {length}/{DATING_FREE_TEXT_MAX}
    </span>
  );
}

/**
 * 'Create your account': the profile answers and exactly three photos, checked live by the
 * same schema as the server; then presign → three parallel uploads → signup → /dating/app.
 */
export default function DatingSignup() {
  const [form, setForm] = useState<DatingSignupForm>(() => emptySignupForm());
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [isBusy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const today = todayInKolkata();
  const errors = validateSignupForm(form, today);
  const zones = useMemo(() => timeZones(form.timeZone), [form.timeZone]);

  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);
  const touch = (field: Field) => setTouched((current) => ({ ...current, [field]: true }));

  function set<K extends Field>(field: K, value: DatingSignupForm[K], markTouched = false) {
    setForm((current) => ({ ...current, [field]: value }));
    if (markTouched) touch(field);
    setFailure(null);
  }

  const text = (field: Field) => ({
    name: field,
    value: form[field] as string,
    onChange: (event: { target: { value: string } }) => set(field, event.target.value as never),
    onBlur: () => touch(field),
    error: shown(field),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const all = Object.fromEntries(Object.keys(form).map((key) => [key, true]));
    setTouched(all);
    const problems = Object.keys(errors);
    if (problems.length) {
      // Submit is blocked while any error holds: take the person to the first one.
      const target = event.currentTarget.querySelector<HTMLElement>(
        `[name="${problems[0]}"], [data-field="${problems[0]}"] input, [data-field="${problems[0]}"] button, [data-field="${problems[0]}"]`,
      );
      target?.focus();
      target?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await runSignupSequence(
        { ...form, phone: form.phone.trim() },
        {
          presign: (body) => datingApi.presign(body as never),
          upload: (url, file, contentType) => uploadPhoto(url, file, contentType),
          signup: (body) => datingApi.signup(body),
        },
      );
      window.location.assign('/dating/app');
    } catch (error) {
      setFailure(datingErrorMessage(error, DATING_MESSAGES.signupFailed));
      setBusy(false);
    }
  }

  const errorCount = Object.keys(errors).filter((field) => touched[field as Field]).length;

  return (
    <DatingPage
      className="dating--signup"
      header={
        <Link to="/dating/login" className="d-btn d-btn--ghost">
          Log in
        </Link>
      }
    >
      <div className="d-container d-signup">
        <aside className="d-signup__intro">
          <p className="d-eyebrow d-eyebrow--plum">Tablefair Dating</p>
          <h1 className="d-signup__title">Create your account</h1>
          <p className="d-muted">A few honest answers and three photos. We use them to curate matches and plan a first date you will both enjoy.</p>
          <ul className="d-checklist">
            <li>Your phone number is never shown to matches</li>
            <li>You never message each other: the app coordinates</li>
            <li>Your venue deposit becomes credit at the table</li>
          </ul>
        </aside>

        <form className="d-card d-signup__form" noValidate onSubmit={onSubmit} aria-labelledby="signup-form-title">
          <h2 id="signup-form-title" className="visually-hidden">
            Signup form
          </h2>
          <Section id="sec-account" title="Your account" description="You log in with your phone number and password.">
            <div className="d-grid-2">
              <TextField
                label="Phone"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                placeholder="+91 98765 43210"
                {...text('phone')}
                onBlur={() => {
                  set('phone', form.phone.trim());
                  touch('phone');
                }}
                required
              />
              <TextField label="Password" type="password" autoComplete="new-password" hint="At least 8 characters" {...text('password')} required />
            </div>
          </Section>

          <Section id="sec-basics" title="The basics">
            <div className="d-grid-2">
              <TextField label="Name" autoComplete="given-name" {...text('name')} required />
              <TextField label="Date of birth" type="date" min="1900-01-01" max={latestAdultDob(today)} {...text('dob')} required />
            </div>
            <TextField label={<>Profession <span className="d-optional">(optional)</span></>} autoComplete="organization-title" {...text('profession')} />
            <TextField
              label={<>Instagram <span className="d-optional">(optional)</span></>}
              placeholder="@yourhandle"
              autoCapitalize="none"
              {...text('instagramHandle')}
            />
          </Section>

          <Section id="sec-photos" title="Photos" description="Clear, recent photos of you, on your own is best.">
            <PhotoPicker photos={form.photos} onChange={(photos) => set('photos', photos, true)} error={shown('photos')} />
          </Section>

          <Section id="sec-dates" title="Dates you would enjoy">
            <ToggleChips
              name="firstDateTypes"
              label="Preferred first dates"
              hint="Pick as many as you like"
              choices={firstDateChoices}
              selected={form.firstDateTypes}
              onToggle={(value) => set('firstDateTypes', toggle(form.firstDateTypes, value), true)}
              error={shown('firstDateTypes')}
            />
            <RadioChips
              name="dateBudget"
              label="Date budget"
              hint="Per person, for a first date"
              choices={dateBudgetChoices}
              value={form.dateBudget}
              onChange={(value) => set('dateBudget', value, true)}
              error={shown('dateBudget')}
            />
            <ToggleChips
              name="cuisines"
              label="Favourite cuisines"
              choices={cuisineChoices}
              selected={form.cuisines}
              onToggle={(value) => set('cuisines', toggle(form.cuisines, value), true)}
              error={shown('cuisines')}
            />
          </Section>

          <Section id="sec-about" title="About you" description={`A sentence or two each, up to ${DATING_FREE_TEXT_MAX} characters.`}>
            <TextAreaField label="What you want to see in a partner" rows={3} hint={<Counter value={form.whatIWantInPartner} />} {...text('whatIWantInPartner')} />
            <TextAreaField label="Why they'd love dating you" rows={3} hint={<Counter value={form.whyPartnerWouldLikeMe} />} {...text('whyPartnerWouldLikeMe')} />
            <TextAreaField label="Your dreams" rows={3} hint={<Counter value={form.dreams} />} {...text('dreams')} />
            <TextAreaField label="Where you want to be in 5 years" rows={3} hint={<Counter value={form.fiveYearGoal} />} {...text('fiveYearGoal')} />
            <TagInput
              name="interests"
              label="Interests"
              hint="Type one and press Enter"
              placeholder="e.g. Carnatic music"
              tags={form.interests}
              onChange={(interests) => set('interests', interests)}
              error={shown('interests')}
            />
          </Section>

          <Section id="sec-lifestyle" title="Lifestyle">
            <RadioChips
              name="physicalActivity"
              label="How active are you?"
              choices={physicalActivityChoices}
              value={form.physicalActivity}
              onChange={(value) => set('physicalActivity', value)}
              error={shown('physicalActivity')}
            />
            <div className="d-grid-3">
              <SelectField label={<>Diet <span className="d-optional">(optional)</span></>} {...text('diet')}>
                <option value="">Prefer not to say</option>
                {dietChoices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </SelectField>
              <SelectField label={<>Drinking <span className="d-optional">(optional)</span></>} {...text('drinking')}>
                <option value="">Prefer not to say</option>
                {drinkingChoices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </SelectField>
              <SelectField label={<>Smoking <span className="d-optional">(optional)</span></>} {...text('smoking')}>
                <option value="">Prefer not to say</option>
                {smokingChoices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </SelectField>
            </div>
            <TagInput
              name="languages"
              label="Languages"
              hint="Type one and press Enter"
              placeholder="e.g. Kannada"
              tags={form.languages}
              onChange={(languages) => set('languages', languages)}
            />
            <SelectField label="Time zone" name="timeZone" value={form.timeZone} onChange={(event) => set('timeZone', event.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll('_', ' ')}
                </option>
              ))}
            </SelectField>
          </Section>

          <div className="d-submit">
            {failure ? <Alert tone="error">{failure}</Alert> : null}
            {errorCount > 0 && !failure ? (
              <p className="d-submit__summary" role="status">
                {errorCount === 1 ? '1 answer needs a look' : `${errorCount} answers need a look`} before you can continue.
              </p>
            ) : null}
            <button type="submit" className="d-btn d-btn--primary d-btn--block d-btn--lg" disabled={isBusy}>
              {isBusy ? 'Creating...' : 'Create account'}
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
