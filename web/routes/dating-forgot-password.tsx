import { Link } from 'react-router';
import { DatingAuthLink, DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { ForgotPasswordFlow } from '#web/features/accounts/ForgotPassword.tsx';

/** /dating/login/forgot: a dating member's forgotten password, by a text to their phone (decision 230). */
export default function DatingForgotPassword() {
  return (
    <DatingPage title="Reset your password · Tablefair Dating" className="dating--auth" header={<DatingAuthLink to="signup" />}>
      <div className="d-auth">
        <section className="d-card d-auth__card" aria-labelledby="dating-reset-title">
          <h1 id="dating-reset-title" className="d-auth__title">
            Reset your password
          </h1>
          <ForgotPasswordFlow
            account="dating"
            signInLink={(label) =>
              label.startsWith('Sign in') ? (
                <Link to="/dating/login" className="btn d-btn--primary d-btn--block d-btn--lg">
                  {label}
                </Link>
              ) : (
                <Link to="/dating/login">{label}</Link>
              )
            }
            button={({ type, busy, label, busyLabel, onClick, secondary }) => (
              <button type={type} className={secondary ? 'btn d-btn--ghost' : 'btn d-btn--primary d-btn--block d-btn--lg'} disabled={busy} onClick={onClick}>
                {busy ? busyLabel : label}
              </button>
            )}
          />
        </section>
      </div>
    </DatingPage>
  );
}
