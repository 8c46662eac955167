import { useState, type FormEvent } from 'react';
import { DATING_MESSAGES, type DatingSignupStarted } from '#common/contract/dating.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import { datingApi, datingErrorMessage, uploadPhoto } from './api.ts';
import { emptySignupForm, runSignupSequence, toggle, validateSignupForm, type DatingSignupForm } from './signup-form.ts';

export type SignupField = keyof DatingSignupForm;

/**
 * The signup form's state: answers, which were touched (errors show only there), the live
 * check by the server's own schema, and the submit that runs presign → uploads → signup.
 */
export function useDatingSignupForm() {
  const [form, setForm] = useState<DatingSignupForm>(() => emptySignupForm());
  const [touched, setTouched] = useState<Partial<Record<SignupField, boolean>>>({});
  const [isBusy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitNews, setSubmitNews] = useState('');
  /** After step 1: the code step (decision 101). */
  const [pending, setPending] = useState<DatingSignupStarted | null>(null);
  const today = todayInKolkata();
  const errors = validateSignupForm(form, today);

  const shown = (field: SignupField) => (touched[field] ? errors[field] : undefined);
  const touch = (field: SignupField) => setTouched((current) => ({ ...current, [field]: true }));

  function set<K extends SignupField>(field: K, value: DatingSignupForm[K], markTouched = false) {
    setForm((current) => ({ ...current, [field]: value }));
    if (markTouched) touch(field);
    setFailure(null);
  }

  const text = (field: SignupField) => ({
    name: field,
    value: form[field] as string,
    onChange: (event: { target: { value: string } }) => set(field, event.target.value as never),
    onBlur: () => touch(field),
    error: shown(field),
  });

  /** A many-choice answer (chips): a tap adds or removes one choice and counts as touching it. */
  const manyChoices = <K extends 'firstDateTypes' | 'cuisines'>(field: K) => ({
    name: field,
    selected: form[field],
    onToggle: (value: DatingSignupForm[K][number]) => set(field, toggle<DatingSignupForm[K][number]>(form[field], value) as DatingSignupForm[K], true),
    error: shown(field),
  });

  /** A one-choice answer (chips): a tap picks it and counts as touching it. */
  const oneChoice = <K extends 'dateBudget' | 'physicalActivity' | 'gender' | 'wantsToMeet'>(field: K) => ({
    name: field,
    value: form[field],
    onChange: (value: DatingSignupForm[K]) => set(field, value, true),
    error: shown(field),
  });

  /** A list typed in one entry at a time (interests, languages). */
  const tagList = (field: 'interests' | 'languages') => ({
    name: field,
    tags: form[field],
    onChange: (tags: string[]) => set(field, tags),
    error: shown(field),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const all = Object.fromEntries(Object.keys(form).map((key) => [key, true]));
    setTouched(all);
    const problems = Object.keys(errors);
    // Said once per blocked submit, never while the person merely tabs past empty fields.
    setSubmitNews(
      problems.length === 0
        ? ''
        : problems.length === 1
          ? '1 answer needs a look before you can continue.'
          : `${problems.length} answers need a look before you can continue.`,
    );
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
      const started = await runSignupSequence(
        { ...form, phone: form.phone.trim() },
        {
          presign: (body) => datingApi.presign(body as never),
          upload: (url, file, contentType) => uploadPhoto(url, file, contentType),
          signup: (body) => datingApi.signup(body),
        },
      );
      setPending(started as DatingSignupStarted);
      setBusy(false);
    } catch (error) {
      setFailure(datingErrorMessage(error, DATING_MESSAGES.signupFailed));
      setBusy(false);
    }
  }

  /** Step 2: the code from the phone creates the account; then the app. */
  async function onVerify(code: string) {
    if (!pending) return;
    setBusy(true);
    setFailure(null);
    try {
      await datingApi.verifySignup({ signupId: pending.signupId, code: code.trim() });
      window.location.assign('/dating/app');
    } catch (error) {
      setFailure(datingErrorMessage(error, DATING_MESSAGES.signupFailed).replace(/^code: /, ''));
      setBusy(false);
    }
  }

  /** Back to the form (a new signup sends a new code). */
  function startOver() {
    setPending(null);
    setFailure(null);
  }

  const errorCount = Object.keys(errors).filter((field) => touched[field as SignupField]).length;

  return {
    form,
    today,
    errors,
    shown,
    touch,
    set,
    text,
    manyChoices,
    oneChoice,
    tagList,
    onSubmit,
    isBusy,
    failure,
    errorCount,
    submitNews,
    pending,
    onVerify,
    startOver,
  };
}
