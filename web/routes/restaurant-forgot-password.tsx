import { useEffect } from 'react';
import { Link } from 'react-router';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { ForgotPasswordFlow } from '#web/features/accounts/ForgotPassword.tsx';
import '#web/components/layout/backoffice.css';

/** /restaurant-login/forgot: a restaurant login's forgotten password, by the email Tablefair has on file (decision 231). */
export default function RestaurantForgotPasswordScreen() {
  useEffect(() => {
    document.title = 'Reset your restaurant password · Tablefair';
  }, []);
  return (
    <div className="container container--narrow page staff-login">
      <p className="staff-login__eyebrow">For restaurants</p>
      <h1>Reset your password</h1>
      <p className="staff-login__lede">
        We email a code to the address Tablefair has for your login. No email on file, or it is an old one? Call Tablefair support: after checking it is you, we
        set a new password for you.
      </p>
      <div className="card card--padded staff-login__form">
        <ForgotPasswordFlow
          account="staff"
          signInLink={(label) =>
            label.startsWith('Sign in') ? (
              <ButtonLink to="/restaurant-login" block>
                {label}
              </ButtonLink>
            ) : (
              <Link to="/restaurant-login">{label}</Link>
            )
          }
          button={({ type, busy, label, busyLabel, onClick, secondary }) => (
            <Button type={type} variant={secondary ? 'ghost' : 'primary'} size={secondary ? 'sm' : 'md'} block={!secondary} disabled={busy} onClick={onClick}>
              {busy ? busyLabel : label}
            </Button>
          )}
        />
      </div>
    </div>
  );
}
