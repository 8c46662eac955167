import { useEffect } from 'react';
import { Link } from 'react-router';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { AuthShell } from '#web/features/accounts/AuthShell.tsx';
import { ForgotPasswordFlow } from '#web/features/accounts/ForgotPassword.tsx';

/** /login/forgot: a diner's forgotten password (decision 230). */
export default function ForgotPasswordScreen() {
  useEffect(() => {
    document.title = 'Reset your password · Tablefair';
  }, []);
  return (
    <AuthShell title="Reset your password" subtitle="It takes a minute: a code, then a new password.">
      <ForgotPasswordFlow
        account="diner"
        signInLink={(label) =>
          label.startsWith('Sign in') ? (
            <ButtonLink to="/login" block>
              {label}
            </ButtonLink>
          ) : (
            <Link to="/login">{label}</Link>
          )
        }
        button={({ type, busy, label, busyLabel, onClick, secondary }) => (
          <Button type={type} variant={secondary ? 'secondary' : 'primary'} size={secondary ? 'sm' : 'md'} block={!secondary} disabled={busy} onClick={onClick}>
            {busy ? busyLabel : label}
          </Button>
        )}
      />
    </AuthShell>
  );
}
