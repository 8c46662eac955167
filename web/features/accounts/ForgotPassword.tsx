import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { PasswordResetDone, PasswordResetStarted } from '#common/contract/password-reset.ts';
import { resetIdentifierLabel, type ResettableAccount } from '#common/domain/password-reset.ts';
import { ApiError, apiRequest } from '#web/api/client.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { TextField } from '#web/components/ui/Field.tsx';
import { OneTimeCodeField } from './CredentialFields.tsx';
import './forgot-password.css';

type Step = { name: 'request' } | { name: 'code'; reset: PasswordResetStarted } | { name: 'done'; message: string };

const NETWORK = 'Could not reach Tablefair. Check your connection and try again.';

/** The field a server refusal names ("code: …", "password: …"), and its sentence without the name. */
function fieldOf(error: unknown): { field: 'code' | 'password' | 'identifier' | null; message: string } {
  if (!(error instanceof ApiError)) return { field: null, message: NETWORK };
  if (error.isNetworkError) return { field: null, message: NETWORK };
  const message = error.serverMessage || 'Something went wrong. Please try again.';
  const named = /^(code|password|identifier): (.*)$/.exec(message);
  return named ? { field: named[1] as 'code' | 'password' | 'identifier', message: named[2] } : { field: null, message };
}

/**
 * "Forgot password" for one sign-in (decision 230): ask for a code, enter it with a new password,
 * then sign in again. Each step moves the focus to its heading, so a screen reader hears where it
 * is; every refusal is said in words beside its field. `button` draws the sign-in's own buttons.
 */
export function ForgotPasswordFlow({
  account,
  signInLink,
  button,
}: {
  account: ResettableAccount;
  /** The sign-in link of the success step, and of "Back to sign-in". */
  signInLink: (label: string) => ReactNode;
  button: (props: { type: 'submit' | 'button'; busy: boolean; label: string; busyLabel: string; onClick?: () => void; secondary?: boolean }) => ReactNode;
}) {
  const words = resetIdentifierLabel[account];
  const [step, setStep] = useState<Step>({ name: 'request' });
  const [identifier, setIdentifier] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ identifier?: string; code?: string; password?: string; repeat?: string }>({});
  const [failure, setFailure] = useState<{ message: string; askAgain: boolean } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const isFirstStep = useRef(true);

  /** A code-step field's onChange: keeps what was typed (as `clean` leaves it) and clears that field's error. */
  const edit =
    (set: (value: string) => void, field: 'code' | 'password' | 'repeat', clean = (typed: string) => typed) =>
    (event: ChangeEvent<HTMLInputElement>) => {
      set(clean(event.target.value));
      setErrors((all) => ({ ...all, [field]: undefined }));
    };

  useEffect(() => {
    // The first step keeps the page's own focus; each later one is announced by its heading.
    if (isFirstStep.current) {
      isFirstStep.current = false;
      return;
    }
    heading.current?.focus();
  }, [step.name]);

  async function ask(event?: FormEvent) {
    event?.preventDefault();
    if (!identifier.trim()) {
      setErrors({ identifier: `Enter your ${words.label.toLowerCase()}` });
      document.getElementById('reset-identifier')?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const reset = await apiRequest<PasswordResetStarted>('/api/auth/password-reset', { method: 'POST', body: { account, identifier: identifier.trim() } });
      setErrors({});
      setCode('');
      setStep({ name: 'code', reset });
    } catch (error) {
      const { field, message } = fieldOf(error);
      if (field === 'identifier') setErrors({ identifier: message });
      else setFailure({ message, askAgain: false });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent, reset: PasswordResetStarted) {
    event.preventDefault();
    const found = {
      code: /^\d{6}$/.test(code.trim()) ? undefined : 'Enter the 6-digit code we sent you',
      password: password.length >= 8 ? undefined : 'Use at least 8 characters',
      repeat: repeat === password ? undefined : 'The two passwords are not the same',
    };
    setErrors(found);
    const first = (['code', 'password', 'repeat'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`reset-${first}`)?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const done = await apiRequest<PasswordResetDone>('/api/auth/password-reset/confirm', {
        method: 'POST',
        body: { resetId: reset.resetId, code: code.trim(), password },
      });
      setStep({ name: 'done', message: done.message });
    } catch (error) {
      const { field, message } = fieldOf(error);
      if (field === 'code' || field === 'password') {
        setErrors({ [field]: message });
        document.getElementById(`reset-${field}`)?.focus();
      } else {
        const isOver = error instanceof ApiError && (error.status === 404 || error.status === 429);
        setFailure({ message, askAgain: isOver });
      }
    } finally {
      setBusy(false);
    }
  }

  const failureAlert = failure ? (
    <Alert tone="error" title={failure.askAgain ? 'This code can’t be used any more' : 'That didn’t work'}>
      {failure.message}
    </Alert>
  ) : null;

  if (step.name === 'done') {
    return (
      <div className="reset reset--done" data-testid="reset-done">
        <div className="reset__icon" aria-hidden="true">
          ✓
        </div>
        <h2 className="reset__title" ref={heading} tabIndex={-1}>
          Password changed
        </h2>
        <p className="reset__lede" role="status">
          {step.message}
        </p>
        <div className="reset__actions">{signInLink('Sign in with your new password')}</div>
      </div>
    );
  }

  if (step.name === 'code') {
    const { reset } = step;
    return (
      <div className="reset">
        <h2 className="reset__title" ref={heading} tabIndex={-1}>
          Enter your code
        </h2>
        <p className="reset__lede" role="status">
          {reset.message}
        </p>
        {failureAlert}
        <form className="reset__form" noValidate onSubmit={(event) => void confirm(event, reset)}>
          <OneTimeCodeField
            id="reset-code"
            label="6-digit code"
            value={code}
            error={errors.code}
            onChange={edit(setCode, 'code', (typed) => typed.replace(/\D/g, ''))}
          />
          <TextField
            id="reset-password"
            label="New password"
            name="new-password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
            value={password}
            error={errors.password}
            onChange={edit(setPassword, 'password')}
          />
          <TextField
            id="reset-repeat"
            label="New password, again"
            name="repeat-password"
            type="password"
            autoComplete="new-password"
            value={repeat}
            error={errors.repeat}
            onChange={edit(setRepeat, 'repeat')}
          />
          {button({ type: 'submit', busy, label: 'Set new password', busyLabel: 'Saving…' })}
        </form>
        <div className="reset__again">
          <span>No code, or it ran out?</span>
          {button({
            type: 'button',
            busy: false,
            secondary: true,
            label: 'Ask for a new code',
            busyLabel: 'Ask for a new code',
            onClick: () => {
              setFailure(null);
              setErrors({});
              setStep({ name: 'request' });
            },
          })}
        </div>
      </div>
    );
  }

  return (
    <div className="reset">
      <h2 className="reset__title" ref={heading} tabIndex={-1}>
        Forgot your password?
      </h2>
      <p className="reset__lede">We’ll send you a 6-digit code. Enter it here with a new password, and every device signed in to your account is signed out.</p>
      {failureAlert}
      <form className="reset__form" noValidate onSubmit={(event) => void ask(event)}>
        <TextField
          id="reset-identifier"
          label={words.label}
          name="identifier"
          type={account === 'dating' ? 'tel' : 'text'}
          inputMode={words.inputMode}
          autoComplete={account === 'dating' ? 'tel' : 'username'}
          autoCapitalize="none"
          spellCheck={false}
          placeholder={words.placeholder}
          hint={words.hint}
          value={identifier}
          error={errors.identifier}
          onChange={(event) => {
            setIdentifier(event.target.value);
            setErrors({});
          }}
        />
        {button({ type: 'submit', busy, label: 'Send code', busyLabel: 'Sending code…' })}
      </form>
      <p className="reset__back">{signInLink('Back to sign-in')}</p>
    </div>
  );
}

/** "Forgot password?" under a sign-in form's password field. */
export function ForgotPasswordLink({ to }: { to: string }) {
  return (
    <p className="forgot-link">
      <Link to={to}>Forgot password?</Link>
    </p>
  );
}
