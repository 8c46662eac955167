import type { PhoneCodeSent, PhoneVerificationStatus, StartPhoneVerificationBody, VerifyPhoneBody } from '#common/contract/accounts.ts';
import { asDate, iso, isoOrNull, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, conflict, isUniqueViolation, sessionExpired } from '#server/errors.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { codeMatches, hashCode, newCode, newCodeSalt, wrongCodeRefusal } from './one-time-codes.ts';
import { requireDiner, type Principal } from './principal.ts';
import {
  consumeVerification,
  countFailedAttempt,
  findLatestOpenVerification,
  findUserPhone,
  isPhoneVerifiedByAnother,
  lockVerifiedPhone,
  replaceOpenVerification,
  setVerifiedPhone,
  type PhoneVerificationRow,
} from './phone-verification.repository.ts';

export const CODE_TTL_MINUTES = 10;
export const MAX_CODE_ATTEMPTS = 5;
/** A new code may be asked for this long after the last one. */
export const RESEND_AFTER_SECONDS = 30;

export const PHONE_TAKEN = 'This phone number is already verified on another account';
export const NO_CODE_WAITING = 'No code is waiting for this phone number. Ask for a new code.';
export const CODE_EXPIRED = 'This code has expired. Ask for a new code.';
export const TOO_MANY_ATTEMPTS = 'Too many wrong codes. Ask for a new code.';

/** The code is bound to the account and the phone it verifies. */
const boundToPhone = (userId: string, phone: string) => `${userId}:${phone}`;

function pendingOf(row: PhoneVerificationRow | undefined, now: Date): PhoneVerificationStatus['pending'] {
  if (!row || asDate(row.expires_at) <= now || row.attempts >= MAX_CODE_ATTEMPTS) return null;
  return {
    phone: row.phone,
    expiresAt: iso(row.expires_at),
    resendAt: new Date(asDate(row.created_at).getTime() + RESEND_AFTER_SECONDS * 1000).toISOString(),
    attemptsLeft: MAX_CODE_ATTEMPTS - row.attempts,
  };
}

/**
 * Phone verification for diners (decision 084): a 6-digit one-time code sent through the SMS
 * port, never returned by the API; one verified phone per account, and a phone belongs to one account.
 */
export function createPhoneVerificationService(deps: AppDeps, notifications: NotificationsService) {
  const { db, clock } = deps;

  async function loadUserPhone(userId: string) {
    const user = await findUserPhone(db, userId);
    if (!user) throw sessionExpired();
    return user;
  }

  return {
    /** The diner's verified phone, or null (for drops: one entry per person). */
    async findVerifiedPhone(userId: string): Promise<string | null> {
      return (await findUserPhone(db, userId))?.verified_phone ?? null;
    },

    /**
     * Inside the caller's transaction: locks the diner's account row and answers their verified
     * phone (undefined when the account is gone), so a unique index can then decide per phone.
     */
    lockVerifiedPhone(tx: Db, userId: string): Promise<{ verified_phone: string | null } | undefined> {
      return lockVerifiedPhone(tx, userId);
    },

    /** GET /api/auth/phone: the verified phone, and any code waiting to be entered. */
    async getPhoneStatus(principal: Principal): Promise<PhoneVerificationStatus> {
      requireDiner(principal);
      const user = await loadUserPhone(principal.userId);
      const now = clock.now();
      return {
        verifiedPhone: user.verified_phone,
        verifiedAt: isoOrNull(user.phone_verified_at),
        pending: user.verified_phone ? null : pendingOf(await findLatestOpenVerification(db, principal.userId), now),
      };
    },

    /** POST /api/auth/phone/start: sends a new code to the phone by SMS. */
    async startPhoneVerification(principal: Principal, input: StartPhoneVerificationBody, from: { ip?: string } = {}): Promise<PhoneCodeSent> {
      requireDiner(principal);
      const { userId } = principal;
      const user = await loadUserPhone(userId);
      if (user.verified_phone === input.phone) throw conflict('This phone number is already verified on your account');
      if (user.verified_phone) throw conflict('Your account already has a verified phone number');
      if (await isPhoneVerifiedByAnother(db, input.phone, userId)) throw conflict(PHONE_TAKEN);
      const now = clock.now();
      const last = await findLatestOpenVerification(db, userId);
      if (last) {
        const wait = Math.ceil((asDate(last.created_at).getTime() + RESEND_AFTER_SECONDS * 1000 - now.getTime()) / 1000);
        if (wait > 0) throw new AppError('RATE_LIMITED', `Please wait ${wait} seconds before asking for another code.`);
      }
      const code = newCode();
      const salt = newCodeSalt();
      const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
      const messageId = await db.transaction(async (tx) => {
        await replaceOpenVerification(tx, {
          userId,
          phone: input.phone,
          codeSalt: salt,
          codeHash: hashCode(salt, boundToPhone(userId, input.phone), code),
          now,
          expiresAt,
        });
        return notifications.queueSms(tx, {
          userId,
          ip: from.ip,
          to: input.phone,
          body: `${code} is your Tablefair verification code. It expires in ${CODE_TTL_MINUTES} minutes. Never share it: Tablefair will never ask for it.`,
          // The delivery policy's code (decision 213): SMS first, WhatsApp's authentication template carries the code.
          kind: 'code',
          values: [code],
        });
      });
      notifications.deliverSoon([messageId]);
      return {
        phone: input.phone,
        expiresAt: expiresAt.toISOString(),
        resendAt: new Date(now.getTime() + RESEND_AFTER_SECONDS * 1000).toISOString(),
      };
    },

    /** POST /api/auth/phone/verify: the code sent to the phone makes it the account's verified phone. */
    async verifyPhone(principal: Principal, input: VerifyPhoneBody): Promise<PhoneVerificationStatus> {
      requireDiner(principal);
      const { userId } = principal;
      const outcome = await db
        .transaction(async (tx) => {
          const now = clock.now();
          const open = await findLatestOpenVerification(tx, userId, { forUpdate: true });
          if (!open || open.phone !== input.phone) return { refusal: conflict(NO_CODE_WAITING) };
          if (open.attempts >= MAX_CODE_ATTEMPTS) return { refusal: new AppError('RATE_LIMITED', TOO_MANY_ATTEMPTS) };
          if (asDate(open.expires_at) <= now) return { refusal: conflict(CODE_EXPIRED) };
          if (!codeMatches({ salt: open.code_salt, hash: open.code_hash }, boundToPhone(userId, open.phone), input.code)) {
            // The failed attempt is counted (and committed) before the refusal goes out.
            const left = MAX_CODE_ATTEMPTS - (await countFailedAttempt(tx, open.id));
            return { refusal: wrongCodeRefusal(left, TOO_MANY_ATTEMPTS) };
          }
          await consumeVerification(tx, open.id, now);
          if (!(await setVerifiedPhone(tx, userId, open.phone, now))) throw conflict('Your account already has a verified phone number');
          return { verified: true };
        })
        .catch((error: unknown) => {
          // Two accounts verifying one phone at once: the unique index decides.
          if (isUniqueViolation(error, 'users_verified_phone_key')) throw conflict(PHONE_TAKEN);
          throw error;
        });
      if ('refusal' in outcome && outcome.refusal) throw outcome.refusal;
      const user = await loadUserPhone(userId);
      return {
        verifiedPhone: user.verified_phone,
        verifiedAt: isoOrNull(user.phone_verified_at),
        pending: null,
      };
    },
  };
}

export type PhoneVerificationService = ReturnType<typeof createPhoneVerificationService>;
