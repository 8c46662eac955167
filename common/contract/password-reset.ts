import { z } from 'zod';
import { uuid } from './common.ts';
import { PASSWORD_RESET_CODE_DIGITS, resettableAccounts } from '../domain/password-reset.ts';

/** "Forgot password" for diners, staff and dating members (decisions 230, 231). */

export const passwordResetRequestBody = z.object({
  account: z.enum(resettableAccounts, { message: 'account must be diner, staff or dating' }),
  /** A diner's username, email or verified phone; staff's username or email; a dating member's phone. */
  identifier: z
    .string({ message: 'identifier: Enter your username, email or phone number' })
    .trim()
    .min(1, { message: 'identifier: Enter your username, email or phone number' })
    .max(254, { message: 'identifier: At most 254 characters' }),
});
export type PasswordResetRequestBody = z.infer<typeof passwordResetRequestBody>;

/** The same answer whether or not an account matched: nothing in it tells which. */
export const passwordResetStarted = z.object({
  resetId: z.string(),
  expiresAt: z.string(),
  message: z.string(),
});
export type PasswordResetStarted = z.infer<typeof passwordResetStarted>;

/** A new password: the rules of every sign-up (8 to 200 characters). */
export const newPassword = z
  .string({ message: 'password: Choose a new password' })
  .min(8, { message: 'password: Use at least 8 characters' })
  .max(200, { message: 'password: Use at most 200 characters' });

export const passwordResetConfirmBody = z.object({
  resetId: uuid,
  code: z
    .string({ message: `code: Enter the ${PASSWORD_RESET_CODE_DIGITS}-digit code` })
    .trim()
    .regex(new RegExp(`^\\d{${PASSWORD_RESET_CODE_DIGITS}}$`), { message: `code: Enter the ${PASSWORD_RESET_CODE_DIGITS}-digit code` }),
  password: newPassword,
});
export type PasswordResetConfirmBody = z.infer<typeof passwordResetConfirmBody>;

export const passwordResetDone = z.object({ message: z.string() });
export type PasswordResetDone = z.infer<typeof passwordResetDone>;

/** A diner's email confirmed by the link sent to it (the token is the link's). */
export const confirmEmailBody = z.object({ token: z.string().min(1, { message: 'token: This link is not complete' }).max(500) });
export const emailConfirmed = z.object({ email: z.string(), message: z.string() });
export type EmailConfirmed = z.infer<typeof emailConfirmed>;

/** A platform moderator looks up restaurant staff by username, email or restaurant name (decision 231). */
export const staffAccountQuery = z.object({
  q: z.string().trim().min(2, { message: 'q: Type at least 2 characters' }).max(100, { message: 'q: At most 100 characters' }),
});
export const staffAccountSummary = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  restaurant: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
});
export type StaffAccountSummary = z.infer<typeof staffAccountSummary>;
export const staffAccountList = z.object({ accounts: z.array(staffAccountSummary) });
export type StaffAccountList = z.infer<typeof staffAccountList>;

export const staffPasswordBody = z.object({ password: newPassword });
export const staffPasswordSet = z.object({ sessionsEnded: z.number(), message: z.string() });
export type StaffPasswordSet = z.infer<typeof staffPasswordSet>;
