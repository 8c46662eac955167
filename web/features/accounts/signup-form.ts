import { signupBody, type SignupBody } from '#common/contract/accounts.ts';

export type SignupField = 'username' | 'password' | 'name' | 'email' | 'phone' | 'preferredHood';
export type SignupValues = Record<SignupField, string>;
export type SignupErrors = Partial<Record<SignupField, string>>;

export const emptySignup: SignupValues = { username: '', password: '', name: '', email: '', phone: '', preferredHood: '' };

/**
 * Checks the form with the server's own schema (common/contract/accounts.ts), so the
 * messages here are the ones the API would answer. A blank required field reads
 * 'Username is required' / 'Password is required' rather than a length rule.
 */
export function validateSignup(values: SignupValues): SignupErrors {
  const errors: SignupErrors = {};
  const result = signupBody.safeParse(values);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path[0] as SignupField | undefined;
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!values.username.trim()) errors.username = 'Username is required';
  if (!values.password) errors.password = 'Password is required';
  return errors;
}

/** The spec's signup payload: every field, blanks as '' (the server treats '' as absent). */
export function signupPayload(values: SignupValues): SignupBody {
  return {
    username: values.username.trim(),
    password: values.password,
    name: values.name,
    email: values.email.trim(),
    phone: values.phone,
    preferredHood: values.preferredHood as SignupBody['preferredHood'],
  };
}
