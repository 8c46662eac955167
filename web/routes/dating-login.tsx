import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { DATING_MESSAGES } from '#common/contract/dating.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { PasswordField } from '#web/features/accounts/CredentialFields.tsx';
import { ForgotPasswordLink } from '#web/features/accounts/ForgotPassword.tsx';
import { datingApi, datingErrorMessage } from '#web/features/dating/api.ts';
import { DatingAuthLink, DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { DatingPhoneField } from '#web/features/dating/PhoneField.tsx';
import { validateLoginForm } from '#web/features/dating/signup-form.ts';

/** 'Welcome back': phone and password, checked live; success is a full-page redirect to /dating/app. */
export default function DatingLogin() {
  const [form, setForm] = useState({ phone: '', password: '' });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [isBusy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = validateLoginForm(form);
  const shown = (field: 'phone' | 'password') => (touched[field] ? errors[field] : undefined);

  function update(field: 'phone' | 'password', value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    setFailure(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ phone: true, password: true });
    if (Object.keys(errors).length) {
      const first = event.currentTarget.querySelector<HTMLInputElement>(`[name="${Object.keys(errors)[0]}"]`);
      first?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await datingApi.login({ phone: form.phone.trim(), password: form.password });
      window.location.assign('/dating/app');
    } catch (error) {
      setFailure(datingErrorMessage(error, DATING_MESSAGES.loginFailed));
      setBusy(false);
    }
  }

  return (
    <DatingPage title="Log in · Tablefair Dating" className="dating--auth" header={<DatingAuthLink to="signup" />}>
      <div className="d-auth">
        <section className="d-card d-auth__card" aria-labelledby="dating-login-title">
          <h1 id="dating-login-title" className="d-auth__title">
            Welcome back
          </h1>
          <p className="d-muted">Log in with the phone number you signed up with.</p>
          {failure ? <Alert tone="error">{failure}</Alert> : null}
          <form noValidate onSubmit={onSubmit}>
            <DatingPhoneField
              name="phone"
              value={form.phone}
              onChange={(event) => update('phone', event.target.value)}
              onBlur={() => {
                setForm((current) => ({ ...current, phone: current.phone.trim() }));
                setTouched((current) => ({ ...current, phone: true }));
              }}
              error={shown('phone')}
            />
            <PasswordField
              value={form.password}
              onChange={(event) => update('password', event.target.value)}
              onBlur={() => setTouched((current) => ({ ...current, password: true }))}
              error={shown('password')}
            />
            <ForgotPasswordLink to="/dating/login/forgot" />
            <button type="submit" className="btn d-btn--primary d-btn--block d-btn--lg" disabled={isBusy}>
              {isBusy ? 'Logging in...' : 'Log in'}
            </button>
          </form>
          <p className="d-auth__switch">
            New here? <Link to="/dating/signup">Create an account</Link>
          </p>
        </section>
      </div>
    </DatingPage>
  );
}
