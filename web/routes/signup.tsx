import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { preferredHoods } from '#common/domain/restaurants.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { SelectField, TextField } from '#web/components/ui/Field.tsx';
import { useSignup } from '#web/features/accounts/api.ts';
import { AuthForm, AuthShell } from '#web/features/accounts/AuthShell.tsx';
import { PasswordField, UsernameField } from '#web/features/accounts/CredentialFields.tsx';
import { loginPath, safeReturnPath } from '#web/features/accounts/return-path.ts';
import { emptySignup, signupPayload, validateSignup, type SignupErrors, type SignupField } from '#web/features/accounts/signup-form.ts';

const FIELD_ORDER: SignupField[] = ['username', 'password', 'name', 'email', 'phone', 'preferredHood'];

/** A required field's label: its name, then "(required)" in words. */
function Required({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <span className="auth__required"> (required)</span>
    </>
  );
}

/** /signup: only username and password are required; on success the diner goes on to log in. */
export default function SignupScreen() {
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'));
  const signup = useSignup();
  const [values, setValues] = useState(emptySignup);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const [created, setCreated] = useState(false);

  useEffect(() => {
    document.title = created ? 'Account created · Tablefair' : 'Create Account · Tablefair';
  }, [created]);

  function update(field: SignupField, value: string) {
    const nextValues = { ...values, [field]: value };
    setValues(nextValues);
    // Editing a field clears the error banner (spec section 4); field messages follow the input once shown.
    setBanner(null);
    if (attempted) setErrors(validateSignup(nextValues));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    const found = validateSignup(values);
    setErrors(found);
    const firstBad = FIELD_ORDER.find((field) => found[field]);
    if (firstBad) {
      document.getElementById(`signup-${firstBad}`)?.focus();
      return;
    }
    setBanner(null);
    try {
      await signup.mutateAsync(signupPayload(values));
      setCreated(true);
      window.scrollTo({ top: 0 });
    } catch (error) {
      setBanner(errorMessage(error, { server: 'Signup failed', network: 'Signup failed. Please try again.' }));
    }
  }

  if (created) {
    return (
      <AuthShell title="Account Created!">
        <div className="auth__success" role="status">
          <div className="auth__success-icon" aria-hidden="true">
            ✓
          </div>
          <p>
            Welcome to Tablefair, <strong>{values.name.trim() || values.username.trim()}</strong>. You can now log in with your username and password.
          </p>
          <div className="auth__success-actions">
            <ButtonLink to={loginPath(next)} block>
              Click Here to Log In
            </ButtonLink>
            <ButtonLink to="/" variant="ghost" block>
              Back to the home page
            </ButtonLink>
          </div>
        </div>
      </AuthShell>
    );
  }

  const field = (name: SignupField) => ({
    id: `signup-${name}`,
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => update(name, event.target.value),
  });

  return (
    <AuthShell title="Create Account" subtitle="Join the product to make reservations">
      <AuthForm failure={banner} failureTitle="We couldn’t create your account" onSubmit={onSubmit}>
        <UsernameField {...field('username')} label={<Required>Username</Required>} hint={errors.username ? undefined : '3–32 letters, digits, _ or .'} />
        <PasswordField
          {...field('password')}
          label={<Required>Password</Required>}
          hint={errors.password ? undefined : 'At least 8 characters.'}
          autoComplete="new-password"
        />
        <TextField {...field('name')} label="Full Name" autoComplete="name" />
        <TextField {...field('email')} label="Email" type="email" inputMode="email" autoComplete="email" autoCapitalize="none" spellCheck={false} />
        <div className="auth__row">
          <TextField {...field('phone')} label="Phone Number" type="tel" inputMode="tel" autoComplete="tel" placeholder="+91 98765 43210" />
          <SelectField {...field('preferredHood')} label="Preferred Neighborhood">
            <option value="">No preference</option>
            {preferredHoods.map((hood) => (
              <option key={hood} value={hood}>
                {hood}
              </option>
            ))}
          </SelectField>
        </div>
        <Button type="submit" block disabled={signup.isPending}>
          {signup.isPending ? 'Creating Account...' : 'Create Account'}
        </Button>
      </AuthForm>
      <p className="auth__switch">
        <Link to={loginPath(next)}>Already have an account? Sign In</Link>
      </p>
    </AuthShell>
  );
}
