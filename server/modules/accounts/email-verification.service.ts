import type { EmailConfirmed } from '#common/contract/password-reset.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, isUniqueViolation, notFound } from '#server/errors.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { createSigningKey, signPayload, verifyPayload } from '#server/signing.ts';
import { markDinerEmailVerified } from './password-reset.repository.ts';
import type { Principal } from './principal.ts';

/** How long the link in the welcome email works. */
const CONFIRM_LINK_DAYS = 7;
const LINK_REFUSED = 'This link has expired or is not complete. Sign in and we can send you a new one.';

interface EmailLink {
  /** The diner's id, and the address the link was sent to. */
  u: string;
  e: string;
  p: 'confirm-email';
  exp: number;
}

/**
 * A diner's email becomes an address "Forgot password" may use once its owner opens the link sent
 * to it (decision 230): sent with the welcome email at signup, signed with the app's key, bound to
 * the account and the address.
 */
export function createEmailVerification(deps: AppDeps, notifications: NotificationsService) {
  const { clock, config } = deps;
  const signingKey = createSigningKey(deps);
  return {
    /**
     * Queues the welcome email with its link in `tx` (the signup's transaction); answers what sends
     * it once that transaction has committed.
     */
    async queueConfirmation(tx: Db, diner: { id: string; email: string; name: string }): Promise<() => void> {
      const exp = Math.floor(clock.now().getTime() / 1000) + CONFIRM_LINK_DAYS * 86_400;
      const token = signPayload<EmailLink>({ u: diner.id, e: diner.email, p: 'confirm-email', exp }, await signingKey(tx));
      const link = `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
      const messageId = await notifications.queueEmail(tx, {
        to: diner.email,
        userId: diner.id,
        subject: 'Welcome to Tablefair: confirm your email',
        body:
          `Hello ${diner.name || 'there'},\n\nConfirm this is your email, so you can reset your password here if you ever forget it:\n${link}\n\n` +
          `The link works for ${CONFIRM_LINK_DAYS} days. If you did not sign up for Tablefair, ignore this email.`,
      });
      return () => notifications.deliverSoon([messageId]);
    },

    /** POST /api/auth/email/confirm: the link's owner proves the address; anyone holding the link may open it. */
    async confirmEmail(_principal: Principal, token: string): Promise<EmailConfirmed> {
      const link = verifyPayload<EmailLink>(token, await signingKey(), clock.now());
      if (!link || link.p !== 'confirm-email') throw notFound(LINK_REFUSED);
      try {
        if (!(await markDinerEmailVerified(deps.db, link.u, link.e, clock.now()))) throw notFound(LINK_REFUSED);
      } catch (error) {
        if (isUniqueViolation(error, 'users_verified_email_key')) throw conflict('This email is already confirmed on another Tablefair account.');
        throw error;
      }
      return { email: link.e, message: 'Your email is confirmed. If you ever forget your password, we can send a code there.' };
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
