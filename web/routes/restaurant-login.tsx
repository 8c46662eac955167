import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { StaffLoginResponse } from '#common/contract/accounts.ts';
import { ApiError, apiRequest, writeToken } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { DemoCredentials, PasswordField, UsernameField } from '#web/features/accounts/CredentialFields.tsx';
import { useDismissToast, useToast } from '#web/components/ui/Toast.tsx';
import '#web/features/portal/portal.css';

/** One of the seeded staff accounts (username = the restaurant's slug). */
const DEMO_STAFF = { username: 'toit-tandoor', password: 'staff1234', restaurant: 'Toit & Tandoor' };

/** /restaurant/login and /restaurant-login: staff sign-in; on success, /admin/{restaurantId}. */
export default function RestaurantLoginScreen() {
  const navigate = useNavigate();
  const toast = useToast();
  const dismissToast = useDismissToast();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // The refusal, also shown in the form (the toast goes away after 8 seconds) and tied to its fields.
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Restaurant sign-in · Tablefair';
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const { token, restaurantId } = await apiRequest<StaffLoginResponse>('/api/auth/restaurant-login', {
        method: 'POST',
        body: { username, password },
      });
      writeToken('restaurant', token);
      // Signed in: an earlier "Invalid username or password" no longer applies.
      dismissToast('staff-login');
      navigate(`/admin/${restaurantId}`);
    } catch (error) {
      const message = error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Login failed';
      toast(message, 'error', { key: 'staff-login' });
      setFailure(message);
      setBusy(false);
    }
  }

  return (
    <div className="container container--narrow page staff-login">
      <p className="staff-login__eyebrow">For restaurants</p>
      <h1>Restaurant sign-in</h1>
      <p className="staff-login__lede">Manage tonight’s bookings, open or close times and keep your public page up to date.</p>
      <form className="card card--padded staff-login__form" onSubmit={onSubmit} aria-describedby={failure ? 'staff-login-failure' : undefined}>
        <UsernameField
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          aria-describedby={failure ? 'staff-login-failure' : undefined}
          aria-invalid={failure ? true : undefined}
        />
        <PasswordField
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-describedby={failure ? 'staff-login-failure' : undefined}
          aria-invalid={failure ? true : undefined}
        />
        {failure ? (
          <p className="staff-login__failure" id="staff-login-failure">
            {failure}
          </p>
        ) : null}
        <Button type="submit" block disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      <aside className="staff-login__demo" aria-labelledby="demo-title">
        <h2 id="demo-title" className="staff-login__demo-title">
          Demo account
        </h2>
        <p>
          Try the portal as <strong>{DEMO_STAFF.restaurant}</strong>:
        </p>
        <DemoCredentials className="staff-login__demo-grid" username={DEMO_STAFF.username} password={DEMO_STAFF.password} />
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setUsername(DEMO_STAFF.username);
            setPassword(DEMO_STAFF.password);
          }}
        >
          Fill in the demo account
        </Button>
      </aside>
      <p className="staff-login__diner">
        Booking a table? <Link to="/login">Diner sign-in</Link>
      </p>
    </div>
  );
}
