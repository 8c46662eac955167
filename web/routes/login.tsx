import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { DemoCredentials, PasswordField, UsernameField } from '#web/features/accounts/CredentialFields.tsx';
import { useLogin } from '#web/features/accounts/api.ts';
import { AuthForm, AuthShell } from '#web/features/accounts/AuthShell.tsx';
import { ForgotPasswordLink } from '#web/features/accounts/ForgotPassword.tsx';
import { safeReturnPath, signupPath } from '#web/features/accounts/return-path.ts';

/** The published demo diner (server/db/seed/seed.ts). */
const DEMO = { username: 'demo', password: 'demo1234' };

/** /login: username and password, both required; back to where the diner came from. */
export default function LoginScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'));
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string }>({});
  const [banner, setBanner] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Log in · Tablefair';
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const errors = {
      username: username.trim() ? undefined : 'Username is required',
      password: password ? undefined : 'Password is required',
    };
    setFieldErrors(errors);
    if (errors.username || errors.password) {
      document.getElementById(errors.username ? 'login-username' : 'login-password')?.focus();
      return;
    }
    setBanner(null);
    try {
      await login.mutateAsync({ username: username.trim(), password });
      navigate(next ?? '/', { replace: true });
    } catch (error) {
      setBanner(errorMessage(error, { server: 'Login failed', network: 'Login failed. Please try again.' }));
    }
  }

  return (
    <AuthShell
      title="Log in"
      subtitle={next?.startsWith('/r/') ? 'Log in to reserve the table you picked. We’ll bring you right back.' : 'Welcome back. Your tables are waiting.'}
    >
      <AuthForm failure={banner} failureTitle="We couldn’t log you in" onSubmit={onSubmit}>
        <UsernameField
          id="login-username"
          value={username}
          error={fieldErrors.username}
          onChange={(event) => {
            setUsername(event.target.value);
            setFieldErrors((all) => ({ ...all, username: undefined }));
          }}
        />
        <PasswordField
          id="login-password"
          value={password}
          error={fieldErrors.password}
          onChange={(event) => {
            setPassword(event.target.value);
            setFieldErrors((all) => ({ ...all, password: undefined }));
          }}
        />
        <ForgotPasswordLink to="/login/forgot" />
        <Button type="submit" block disabled={login.isPending}>
          {login.isPending ? 'Logging in…' : 'Log in'}
        </Button>
      </AuthForm>
      <p className="auth__switch">
        New to Tablefair?&nbsp;<Link to={signupPath(next)}>Create an account</Link>
      </p>
      <aside className="auth__demo" aria-labelledby="demo-title">
        <h2 id="demo-title" className="auth__demo-title">
          Demo credentials
        </h2>
        <DemoCredentials className="auth__demo-grid" username={DEMO.username} password={DEMO.password} />
        <Button
          variant="secondary"
          wrap
          onClick={() => {
            setUsername(DEMO.username);
            setPassword(DEMO.password);
            setFieldErrors({});
            setBanner(null);
          }}
        >
          Fill in the demo account
        </Button>
      </aside>
    </AuthShell>
  );
}
