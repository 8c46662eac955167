import { useEffect, useState } from 'react';
import type { EmailConfirmed } from '#common/contract/password-reset.ts';
import { apiRequest, errorMessage } from '#web/api/client.ts';
import { ButtonLink } from '#web/components/ui/Button.tsx';
import { Alert, Spinner } from '#web/components/ui/Feedback.tsx';
import { AuthShell } from '#web/features/accounts/AuthShell.tsx';

type State = { name: 'confirming' } | { name: 'done'; result: EmailConfirmed } | { name: 'failed'; message: string };

/** /confirm-email?token=…: the link in the welcome email; the diner's address can then receive a reset code (decision 230). */
export default function ConfirmEmailScreen() {
  const [state, setState] = useState<State>({ name: 'confirming' });

  useEffect(() => {
    document.title = 'Confirm your email · Tablefair';
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    const controller = new AbortController();
    apiRequest<EmailConfirmed>('/api/auth/email/confirm', { method: 'POST', body: { token }, signal: controller.signal })
      .then((result) => setState({ name: 'done', result }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          name: 'failed',
          message: errorMessage(error, {
            server: 'This link did not work.',
            network: 'Could not reach Tablefair. Check your connection and reload this page.',
          }),
        });
      });
    return () => controller.abort();
  }, []);

  return (
    <AuthShell title="Confirm your email">
      {state.name === 'confirming' ? <Spinner label="Confirming your email…" /> : null}
      {state.name === 'done' ? (
        <div className="auth__success" role="status">
          <div className="auth__success-icon" aria-hidden="true">
            ✓
          </div>
          <p>
            <strong>{state.result.email}</strong> is confirmed.
          </p>
          <p>{state.result.message}</p>
          <div className="auth__success-actions">
            <ButtonLink to="/">Find a table</ButtonLink>
          </div>
        </div>
      ) : null}
      {state.name === 'failed' ? (
        <>
          <Alert tone="error" title="We couldn’t confirm this email">
            {state.message}
          </Alert>
          <div className="auth__success-actions">
            <ButtonLink to="/login" variant="secondary">
              Log in
            </ButtonLink>
          </div>
        </>
      ) : null}
    </AuthShell>
  );
}
