import { useEffect, useState, type FormEvent } from 'react';
import type { DatingSignupStarted } from '#common/contract/dating.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { OneTimeCodeField } from '#web/features/accounts/CredentialFields.tsx';
import { datingApi } from './api.ts';
import { Section } from './FormSection.tsx';

/**
 * Signup, step 2 (decision 101): the 6-digit code texted to the phone finishes the account. The
 * same screen follows every signup, whether or not the phone already had an account (its owner
 * gets a text saying so instead of a code). In the demo the text is shown here, read from the dev
 * mailbox; where that is off (production) nothing shows.
 */
export function SignupCodeStep({
  pending,
  isBusy,
  failure,
  onVerify,
  onStartOver,
}: {
  pending: DatingSignupStarted;
  isBusy: boolean;
  failure: string | null;
  onVerify: (code: string) => void;
  onStartOver: () => void;
}) {
  const [code, setCode] = useState('');
  const demoText = useDemoText(pending.signupId);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onVerify(code);
  }

  return (
    <form className="d-card d-signup__form" noValidate onSubmit={onSubmit} aria-labelledby="sec-code">
      <Section id="sec-code" title="Check your phone" description={`We sent a 6-digit code to ${pending.phone}. Enter it to finish creating your account.`}>
        <OneTimeCodeField
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
          hint="It expires in 10 minutes. If this number already has an account, the text says so instead: log in with your password."
          required
        />
        {demoText ? (
          <div className="d-demo-text" data-testid="dating-demo-text">
            <p className="d-optional">Dev mailbox (demo only) — the text sent to {pending.phone}:</p>
            <p>{demoText}</p>
          </div>
        ) : null}
      </Section>
      <div className="d-submit">
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <button type="submit" className="btn d-btn--primary d-btn--block d-btn--lg" disabled={isBusy || code.length !== 6}>
          {isBusy ? 'Creating...' : 'Verify and create account'}
        </button>
      </div>
      <p className="d-auth__switch">
        Wrong number?{' '}
        <button type="button" className="d-link-button" onClick={onStartOver}>
          Change your answers
        </button>
      </p>
    </form>
  );
}

/** The signup's text from the dev mailbox, when the server has one (never in production). */
function useDemoText(signupId: string): string | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    datingApi
      .devSignupText(signupId, controller.signal)
      .then((mailbox) => setText(mailbox.messages[0]?.body ?? null))
      .catch(() => setText(null));
    return () => controller.abort();
  }, [signupId]);
  return text;
}
