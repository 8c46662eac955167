import { createHmac } from 'node:crypto';
import type { PasswordResetConfirmBody, PasswordResetDone, PasswordResetRequestBody, PasswordResetStarted } from '#common/contract/password-reset.ts';
import { normalizePhone } from '#common/contract/accounts.ts';
import {
  PASSWORD_RESET_ATTEMPTS,
  PASSWORD_RESET_DONE,
  PASSWORD_RESET_EXPIRED,
  PASSWORD_RESET_PER_ACCOUNT_PER_HOUR,
  PASSWORD_RESET_PER_ADDRESS_PER_HOUR,
  PASSWORD_RESET_SENT,
  PASSWORD_RESET_TOO_MANY_REQUESTS,
  PASSWORD_RESET_TOO_MANY_TRIES,
  PASSWORD_RESET_TTL_MINUTES,
  type ResettableAccount,
} from '#common/domain/password-reset.ts';
import { HOUR_MS } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, notFound } from '#server/errors.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { createSigningKey } from '#server/signing.ts';
import { codeMatches, hashCode, newCode, newCodeSalt, wrongCodeRefusal } from './one-time-codes.ts';
import { refusePublishedPassword } from './demo-passwords.ts';
import { hashPassword } from './password.ts';
import {
  attachResetToAccount,
  consumeResetsOf,
  countCodesSentTo,
  countFailedResetAttempt,
  countResetsForLookup,
  findDinerForReset,
  findStaffForReset,
  insertPasswordReset,
  lockPasswordReset,
  setDinerPasswordHash,
  setStaffPasswordHash,
} from './password-reset.repository.ts';
import type { Principal } from './principal.ts';
import type { SessionsService } from './sessions.service.ts';

/** Where a reset code goes: an address the account proved it holds. */
export interface ResetAddress {
  channel: 'email' | 'sms';
  address: string;
}

/** One kind of account as "Forgot password" needs it; the module that owns the accounts answers. */
export interface AccountDirectory {
  /** The account the typed identifier names, with its verified address (null: none to send to). */
  findAccount(tx: Db, identifier: string): Promise<{ id: string; sendTo: ResetAddress | null } | undefined>;
  setPasswordHash(tx: Db, accountId: string, passwordHash: string): Promise<boolean>;
}

const looksLikeEmail = (value: string) => value.includes('@');
const looksLikePhone = (value: string) => /^\+?[\d\s()-]{7,20}$/.test(value);

/** Diners: by username, verified email or verified phone; the code goes to the address typed, else the phone, else the email. */
const dinerDirectory: AccountDirectory = {
  async findAccount(tx, identifier) {
    if (looksLikeEmail(identifier)) {
      const diner = await findDinerForReset(tx, { verifiedEmail: identifier });
      return diner && { id: diner.id, sendTo: { channel: 'email', address: diner.email! } };
    }
    if (looksLikePhone(identifier)) {
      const diner = await findDinerForReset(tx, { verifiedPhone: normalizePhone(identifier) });
      return diner && { id: diner.id, sendTo: { channel: 'sms', address: diner.verified_phone! } };
    }
    const diner = await findDinerForReset(tx, { username: identifier });
    if (!diner) return undefined;
    if (diner.verified_phone) return { id: diner.id, sendTo: { channel: 'sms', address: diner.verified_phone } };
    return { id: diner.id, sendTo: diner.email && diner.email_verified_at ? { channel: 'email', address: diner.email } : null };
  },
  setPasswordHash: setDinerPasswordHash,
};

/** Staff: by username; the code goes to the email the platform checked when it made the account (decision 231). */
const staffDirectory: AccountDirectory = {
  async findAccount(tx, identifier) {
    const staff = await findStaffForReset(tx, identifier);
    return staff && { id: staff.id, sendTo: staff.email ? { channel: 'email', address: staff.email } : null };
  },
  setPasswordHash: setStaffPasswordHash,
};

/** A reset's code is bound to the reset it was sent for. */
const boundToReset = (resetId: string) => `password-reset:${resetId}`;

function messageFor(kind: ResettableAccount, code: string): { subject: string; body: string } {
  const product = kind === 'dating' ? 'Tablefair Dating' : kind === 'staff' ? 'Tablefair for restaurants' : 'Tablefair';
  return {
    subject: `${code} is your ${product} password reset code`,
    body:
      `${code} is your ${product} code to choose a new password. It works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes. ` +
      'Never share it: Tablefair will never ask for it. If you did not ask for it, ignore this message; your password stays as it is.',
  };
}

/**
 * "Forgot password" for diners, staff and dating members (decision 230). A request is answered the
 * same way, in the same time, whether or not an account matches: the answer is written before the
 * account is looked up, and the account's code is made and sent just after (settle()).
 */
export function createPasswordResetService(deps: AppDeps, sessions: SessionsService, notifications: NotificationsService, dating: AccountDirectory) {
  const { db, clock, config, log } = deps;
  const directories: Record<ResettableAccount, AccountDirectory> = { diner: dinerDirectory, staff: staffDirectory, dating };
  const signingKey = createSigningKey(deps);
  /** Requests whose account is still being looked up (tests wait for them). */
  const settling = new Set<Promise<void>>();

  async function lookupHashOf(kind: ResettableAccount, identifier: string): Promise<string> {
    const normalized = looksLikeEmail(identifier)
      ? identifier.toLowerCase()
      : looksLikePhone(identifier)
        ? normalizePhone(identifier)
        : identifier.toLowerCase();
    return createHmac('sha256', await signingKey())
      .update(`password-reset-lookup:${kind}:${normalized}`)
      .digest('base64url');
  }

  /** Finds the account; when there is one with a verified address and room in its hourly budget, sends it a code. */
  async function settle(resetId: string, kind: ResettableAccount, identifier: string, ip: string | null): Promise<void> {
    const messageId = await db.transaction(async (tx) => {
      const account = await directories[kind].findAccount(tx, identifier);
      if (!account?.sendTo) return null;
      const hourAgo = new Date(clock.now().getTime() - HOUR_MS);
      if ((await countCodesSentTo(tx, kind, account.id, hourAgo)) >= PASSWORD_RESET_PER_ACCOUNT_PER_HOUR) {
        log.info({ kind }, 'password reset: the account has had its codes for this hour; nothing sent');
        return null;
      }
      const code = newCode();
      const codeSalt = newCodeSalt();
      await attachResetToAccount(tx, resetId, {
        subjectId: account.id,
        channel: account.sendTo.channel,
        codeSalt,
        codeHash: hashCode(codeSalt, boundToReset(resetId), code),
      });
      const message = messageFor(kind, code);
      if (account.sendTo.channel === 'email') {
        return notifications.queueEmail(tx, { to: account.sendTo.address, userId: kind === 'diner' ? account.id : null, ...message });
      }
      return notifications.queueSms(tx, {
        userId: kind === 'diner' ? account.id : null,
        to: account.sendTo.address,
        ip: ip ?? undefined,
        body: message.body,
        kind: 'code',
        values: [code],
      });
    });
    notifications.deliverSoon([messageId]);
  }

  return {
    /** POST /api/auth/password-reset: the same answer for every identifier, account or not. */
    async requestReset(_principal: Principal, input: PasswordResetRequestBody, from: { ip?: string } = {}): Promise<PasswordResetStarted> {
      const now = clock.now();
      const lookupHash = await lookupHashOf(input.account, input.identifier);
      const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000);
      const resetId = await db.transaction(async (tx) => {
        if ((await countResetsForLookup(tx, lookupHash, new Date(now.getTime() - HOUR_MS))) >= PASSWORD_RESET_PER_ADDRESS_PER_HOUR) {
          throw new AppError('RATE_LIMITED', PASSWORD_RESET_TOO_MANY_REQUESTS);
        }
        // Until an account is found, the row holds the HMAC of a code nobody is sent: any code is "not right".
        const codeSalt = newCodeSalt();
        return insertPasswordReset(tx, {
          kind: input.account,
          lookupHash,
          codeSalt,
          codeHash: hashCode(codeSalt, boundToReset('none'), newCode()),
          ip: from.ip ?? null,
          now,
          expiresAt,
        });
      });
      const work = settle(resetId, input.account, input.identifier, from.ip ?? null)
        .catch((error: unknown) => log.warn({ err: error }, 'password reset: the code could not be sent'))
        .finally(() => settling.delete(work));
      settling.add(work);
      return { resetId, expiresAt: expiresAt.toISOString(), message: PASSWORD_RESET_SENT };
    },

    /** POST /api/auth/password-reset/confirm: the right code sets the new password and ends every session of the account. */
    async confirmReset(_principal: Principal, input: PasswordResetConfirmBody): Promise<PasswordResetDone> {
      // Refused before the code is tried, so a published password spends no try and the code stays good (decision 201).
      refusePublishedPassword(config.nodeEnv, input.password);
      const passwordHash = await hashPassword(input.password, config.passwordHashCost);
      const outcome = await db.transaction(async (tx): Promise<{ refusal: AppError } | { done: true }> => {
        const now = clock.now();
        const reset = await lockPasswordReset(tx, input.resetId);
        if (!reset || reset.consumed_at || asDate(reset.expires_at) <= now) return { refusal: notFound(PASSWORD_RESET_EXPIRED) };
        if (reset.attempts >= PASSWORD_RESET_ATTEMPTS) return { refusal: new AppError('RATE_LIMITED', PASSWORD_RESET_TOO_MANY_TRIES) };
        if (!reset.subject_id || !codeMatches({ salt: reset.code_salt, hash: reset.code_hash }, boundToReset(reset.id), input.code)) {
          // The failed try is counted, and committed, before the refusal goes out.
          const left = PASSWORD_RESET_ATTEMPTS - (await countFailedResetAttempt(tx, reset.id));
          return { refusal: wrongCodeRefusal(left, PASSWORD_RESET_TOO_MANY_TRIES) };
        }
        if (!(await directories[reset.account_kind].setPasswordHash(tx, reset.subject_id, passwordHash))) return { refusal: notFound(PASSWORD_RESET_EXPIRED) };
        await consumeResetsOf(tx, reset.account_kind, reset.subject_id, now);
        await sessions.revokeAllOf(reset.account_kind, reset.subject_id, tx);
        return { done: true };
      });
      if ('refusal' in outcome) throw outcome.refusal;
      return { message: PASSWORD_RESET_DONE };
    },

    /** Resolves once every request made so far has found its account and queued its code (tests). */
    async settled(): Promise<void> {
      await Promise.all([...settling]);
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
