/** The rules of "Forgot password" (decision 230), shared by the server and the sign-in screens. */

/** The three kinds of account a person signs in to, each with its own sign-in screen. */
export const resettableAccounts = ['diner', 'staff', 'dating'] as const;
export type ResettableAccount = (typeof resettableAccounts)[number];

export const PASSWORD_RESET_CODE_DIGITS = 6;
/** How long a code may be used. */
export const PASSWORD_RESET_TTL_MINUTES = 15;
/** Wrong codes one request takes; then a new code must be asked for. */
export const PASSWORD_RESET_ATTEMPTS = 5;
/** Codes sent to one account in an hour, whatever was typed to ask for them; past it nothing more is sent. */
export const PASSWORD_RESET_PER_ACCOUNT_PER_HOUR = 3;
/** Requests naming one address (username, email or phone) in an hour, whether or not it is an account's. */
export const PASSWORD_RESET_PER_ADDRESS_PER_HOUR = 5;

/** What every request is answered, account or not. */
export const PASSWORD_RESET_SENT = 'If that matches an account, we have sent a 6-digit code to its verified email or phone. It works for 15 minutes.';
export const PASSWORD_RESET_DONE = 'Your password is changed, and you are signed out everywhere. Sign in with your new password.';
export const PASSWORD_RESET_EXPIRED = 'This code has expired or was already used. Ask for a new code.';
export const PASSWORD_RESET_TOO_MANY_TRIES = 'Too many wrong codes. Ask for a new code.';
export const PASSWORD_RESET_TOO_MANY_REQUESTS = 'Too many codes were asked for this account. Please wait an hour and try again.';

/** What each sign-in asks for, in the words of its screen. */
export const resetIdentifierLabel: Record<ResettableAccount, { label: string; hint: string; placeholder: string; inputMode: 'text' | 'tel' }> = {
  diner: {
    label: 'Username, email or phone',
    hint: 'We send the code to the email or phone your account has verified.',
    placeholder: 'demo or you@example.com',
    inputMode: 'text',
  },
  staff: {
    label: 'Username or email',
    hint: 'We send the code to the email Tablefair has on file for your restaurant login.',
    placeholder: 'your-restaurant',
    inputMode: 'text',
  },
  dating: {
    label: 'Phone number',
    hint: 'We text the code to the phone you signed up with.',
    placeholder: '+91 98765 43210',
    inputMode: 'tel',
  },
};
