import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { useDismissToast, useToast } from '#web/components/ui/Toast.tsx';
import { DemoCredentials, PasswordField, UsernameField } from './CredentialFields.tsx';
import { ForgotPasswordLink } from './ForgotPassword.tsx';

export interface Credentials {
  username: string;
  password: string;
}

/**
 * The sign-in of a back-office screen (the restaurant portal, moderation): username, password, a
 * refusal said in a toast and kept in the form tied to its fields, and a demo account to fill in.
 * Styled by the back office's `staff-login__*` rules (components/layout/backoffice.css).
 * `signIn` resolves once signed in (it navigates); a refusal is the server's sentence.
 */
export function StaffSignInForm({
  title,
  toastKey,
  signIn,
  demo,
  demoIntro,
  forgotPath,
}: {
  /** The tab's title. */
  title: string;
  toastKey: string;
  signIn: (credentials: Credentials) => Promise<void>;
  demo: Credentials;
  demoIntro?: ReactNode;
  /** Where "Forgot password?" leads, for logins that can reset themselves. */
  forgotPath?: string;
}) {
  const toast = useToast();
  const dismissToast = useDismissToast();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // The refusal, also shown in the form (the toast goes away) and tied to its fields.
  const [failure, setFailure] = useState<string | null>(null);
  const failureId = 'staff-login-failure';
  const describedBy = failure ? failureId : undefined;

  useEffect(() => {
    document.title = title;
  }, [title]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await signIn({ username, password });
      // Signed in: an earlier "Invalid username or password" no longer applies.
      dismissToast(toastKey);
    } catch (error) {
      const message =
        error instanceof ApiError && error.serverMessage
          ? error.serverMessage
          : error instanceof ApiError && error.isNetworkError
            ? 'Could not reach the server. Check your connection and try again.'
            : 'Sign-in failed. Try again.';
      toast(message, 'error', { key: toastKey });
      setFailure(message);
      setBusy(false);
    }
  }

  return (
    <>
      <form className="card card--padded staff-login__form" onSubmit={onSubmit} aria-describedby={describedBy}>
        <UsernameField
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          aria-describedby={describedBy}
          aria-invalid={failure ? true : undefined}
        />
        <PasswordField
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-describedby={describedBy}
          aria-invalid={failure ? true : undefined}
        />
        {forgotPath ? <ForgotPasswordLink to={forgotPath} /> : null}
        {failure ? (
          <p className="staff-login__failure" id={failureId}>
            {failure}
          </p>
        ) : null}
        <Button type="submit" block disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      <aside className="staff-login__demo" aria-labelledby="staff-login-demo-title">
        <h2 id="staff-login-demo-title" className="staff-login__demo-title">
          Demo account
        </h2>
        {demoIntro}
        <DemoCredentials className="staff-login__demo-grid" username={demo.username} password={demo.password} />
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setUsername(demo.username);
            setPassword(demo.password);
          }}
        >
          Fill in the demo account
        </Button>
      </aside>
    </>
  );
}
