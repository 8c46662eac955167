import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '#web/api/client.ts';
import { BrandMark } from '#web/components/layout/SiteLayout.tsx';
import { Button } from '#web/components/ui/Button.tsx';
import { useDismissToast, useToast } from '#web/components/ui/Toast.tsx';
import { DemoCredentials, PasswordField, UsernameField } from '#web/features/accounts/CredentialFields.tsx';
import { logInModerator, MODERATION_PATH } from '#web/features/moderation/api.ts';
import '#web/features/moderation/moderation.css';

/** The demo's moderator (server/db/seed/moderator.ts). */
const DEMO_MODERATOR = { username: 'moderator', password: 'moderate1234' };

/** /moderation/login: Tablefair staff sign in to the moderation list; on success, /moderation. */
export default function ModerationLoginScreen() {
  const navigate = useNavigate();
  const toast = useToast();
  const dismissToast = useDismissToast();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // The refusal, also shown in the form (the toast goes away) and tied to its fields.
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Moderator sign-in · Tablefair';
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await logInModerator({ username, password });
      dismissToast('moderator-login');
      navigate(MODERATION_PATH);
    } catch (error) {
      const message =
        error instanceof ApiError && error.serverMessage
          ? error.serverMessage
          : error instanceof ApiError && error.isNetworkError
            ? 'Could not reach the server. Check your connection and try again.'
            : 'Sign-in failed. Try again.';
      toast(message, 'error', { key: 'moderator-login' });
      setFailure(message);
      setBusy(false);
    }
  }

  const describedBy = failure ? 'moderator-login-failure' : undefined;
  return (
    <main id="main" className="moderation-login">
      <div className="moderation-login__inner">
        <div className="moderation-login__brand">
          <BrandMark />
          <span>Tablefair</span>
        </div>
        <p className="moderation-login__eyebrow">For Tablefair staff</p>
        <h1>Moderator sign-in</h1>
        <p className="moderation-login__lede">Review what dating members report about each other: dismiss a report, or suspend a member.</p>
        <form className="card card--padded moderation-login__form" onSubmit={onSubmit} aria-describedby={describedBy}>
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
          {failure ? (
            <p className="moderation-login__failure" id="moderator-login-failure">
              {failure}
            </p>
          ) : null}
          <Button type="submit" block disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
        <aside className="moderation-login__demo" aria-labelledby="moderation-demo-title">
          <h2 id="moderation-demo-title" className="moderation-login__demo-title">
            Demo account
          </h2>
          <DemoCredentials className="moderation-login__demo-grid" username={DEMO_MODERATOR.username} password={DEMO_MODERATOR.password} />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setUsername(DEMO_MODERATOR.username);
              setPassword(DEMO_MODERATOR.password);
            }}
          >
            Fill in the demo account
          </Button>
        </aside>
      </div>
    </main>
  );
}
