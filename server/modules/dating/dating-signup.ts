import { randomBytes, randomUUID } from 'node:crypto';
import type { DatingProfile, DatingSignupInput, DatingSignupStarted, DatingSignupVerifyBody } from '#common/contract/dating.ts';
import type { DevMailboxResponse } from '#common/contract/waitlist.ts';
import { checkDatingAge, normalizeDatingPhone } from '#common/domain/dating-profile.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict, forbidden, isUniqueViolation, notFound } from '#server/errors.ts';
import { refusePublishedPassword } from '#server/modules/accounts/demo-passwords.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { SessionsService } from '#server/modules/accounts/sessions.service.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { codeMatches, hashCode, newCode, newCodeSalt, wrongCodeRefusal } from '#server/modules/accounts/one-time-codes.ts';
import {
  claimDatingUploads,
  consumeDatingSignup,
  countDatingSignupAttempt,
  findDatingSignupMessage,
  findDatingUserByPhone,
  insertDatingPhotos,
  insertDatingSignup,
  insertDatingUser,
  lockDatingSignup,
  setDatingSignupMessage,
  type DatingUserRow,
} from './dating.repository.ts';
import { hashBrowserNonce, NOT_THIS_BROWSER, type DatingUploads } from './dating-uploads.ts';

export const DUPLICATE_PHONE = 'An account with this phone already exists';

/** A signup's code (decision 101): how long it lives and how many wrong tries it takes. */
export const SIGNUP_CODE_TTL_MINUTES = 10;
export const SIGNUP_CODE_ATTEMPTS = 5;
export const SIGNUP_CODE_SENT = 'We sent a 6-digit code to your phone. Enter it to finish creating your account.';
export const SIGNUP_NOT_FOUND = 'This signup has expired. Please start again.';
export const SIGNUP_TOO_MANY_TRIES = 'Too many wrong codes. Please start the signup again.';

/** A signup's code is bound to the signup and the phone it was sent to. */
const boundToSignup = (signupId: string, phone: string) => `dating-signup:${signupId}:${phone}`;

/**
 * Joining the dating section (decisions 053, 101): the profile and its photos first, then the
 * code texted to the phone, from the same browser, creates the account and signs in.
 */
export function createDatingSignup(
  deps: AppDeps,
  sessions: SessionsService,
  notifications: NotificationsService,
  uploads: DatingUploads,
  profileOf: (user: DatingUserRow) => Promise<DatingProfile>,
) {
  const { db, clock, config } = deps;
  const today = () => todayInKolkata(clock.now());
  const { checkUploads } = uploads;

  return {
    /**
     * POST /dating/auth/signup, step 1 (decisions 053, 101): the contract has checked every field;
     * here the rules that need the database, the clock or the browser: 18 or older, and three
     * photos uploaded from this very browser and not used by anyone yet. Nothing is said about the
     * phone: whether it is free or taken, the same work is done (password hashed, a signup row, a
     * text) and the same 202 goes back. In production a published demo password is refused first,
     * as at every other signup (decision 201). A free phone gets a code; a taken one is told by text that
     * it already has an account, and its signup can never complete.
     */
    async signUp(_principal: Principal, input: DatingSignupInput, browserNonce: string | undefined, from: { ip?: string } = {}): Promise<DatingSignupStarted> {
      // A password the README publishes opens the account to anyone who reads it (decision 201).
      refusePublishedPassword(config.nodeEnv, input.password);
      const ageProblem = checkDatingAge(input.dob, today());
      if (ageProblem) throw badInput(ageProblem);
      const phone = normalizeDatingPhone(input.phone);

      const keys = input.photos.map((photo) => photo.objectKey);
      if (!browserNonce) throw forbidden(NOT_THIS_BROWSER);
      const nonceHash = hashBrowserNonce(browserNonce);
      await checkUploads(keys, nonceHash);

      const { password, ...profile } = input;
      const passwordHash = await hashPassword(password, config.passwordHashCost);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SIGNUP_CODE_TTL_MINUTES * 60_000);
      const code = newCode();
      const salt = newCodeSalt();
      const { signupId, messageId } = await db.transaction(async (tx) => {
        const isTaken = Boolean(await findDatingUserByPhone(tx, phone));
        const id = randomUUID();
        // A taken phone's row gets the hash of a code nobody is sent: it can never be completed.
        const codeHash = hashCode(salt, boundToSignup(id, phone), isTaken ? randomBytes(16).toString('hex') : code);
        await insertDatingSignup(tx, { id, phone, passwordHash, profile, browserNonceHash: nonceHash, codeSalt: salt, codeHash, now, expiresAt });
        const message = await notifications.queueSms(tx, {
          userId: null,
          ip: from.ip,
          to: phone,
          body: isTaken
            ? 'Someone tried to create a Tablefair Dating account with this number, which already has a Tablefair Dating account. Log in with your password instead; if this was not you, ignore this text.'
            : `${code} is your Tablefair Dating code. It expires in ${SIGNUP_CODE_TTL_MINUTES} minutes. Never share it: Tablefair will never ask for it.`,
          kind: isTaken ? 'notice' : 'code',
          values: isTaken ? [] : [code],
        });
        await setDatingSignupMessage(tx, id, message);
        return { signupId: id, messageId: message };
      });
      notifications.deliverSoon([messageId]);
      return { signupId, phone, expiresAt: expiresAt.toISOString(), message: SIGNUP_CODE_SENT };
    },

    /**
     * POST /dating/auth/signup/verify, step 2: the code texted to the phone, from the browser that
     * started the signup, creates the account (claiming its photos) and signs in.
     */
    async verifySignup(
      _principal: Principal,
      input: DatingSignupVerifyBody,
      browserNonce: string | undefined,
    ): Promise<{ profile: DatingProfile; token: string }> {
      const nonceHash = browserNonce ? hashBrowserNonce(browserNonce) : undefined;
      const outcome = await db
        .transaction(async (tx): Promise<{ refusal: AppError } | { user: DatingUserRow }> => {
          const now = clock.now();
          const signup = await lockDatingSignup(tx, input.signupId);
          if (!signup || signup.consumed_at || new Date(signup.expires_at) <= now) return { refusal: notFound(SIGNUP_NOT_FOUND) };
          if (signup.browser_nonce_hash !== nonceHash) return { refusal: forbidden(NOT_THIS_BROWSER) };
          if (signup.attempts >= SIGNUP_CODE_ATTEMPTS) return { refusal: new AppError('RATE_LIMITED', SIGNUP_TOO_MANY_TRIES) };
          if (!codeMatches({ salt: signup.code_salt, hash: signup.code_hash }, boundToSignup(signup.id, signup.phone), input.code)) {
            // Counted (and committed) before the refusal goes out.
            const left = SIGNUP_CODE_ATTEMPTS - (await countDatingSignupAttempt(tx, signup.id));
            return { refusal: wrongCodeRefusal(left, SIGNUP_TOO_MANY_TRIES) };
          }
          const profile = signup.profile as Omit<DatingSignupInput, 'password'>;
          const keys = profile.photos.map((photo) => photo.objectKey);
          // Step 1 checked their time; the sweep leaves a grace for the code to come back.
          const uploads = await checkUploads(keys, signup.browser_nonce_hash, tx, { checkExpiry: false });
          await consumeDatingSignup(tx, signup.id, now);
          const created = await insertDatingUser(tx, {
            phone: signup.phone,
            passwordHash: signup.password_hash,
            name: profile.name,
            dob: profile.dob,
            profession: profile.profession ?? null,
            dreams: profile.dreams,
            fiveYearGoal: profile.fiveYearGoal,
            whatIWantInPartner: profile.whatIWantInPartner,
            whyPartnerWouldLikeMe: profile.whyPartnerWouldLikeMe,
            physicalActivity: profile.physicalActivity,
            dateBudget: profile.dateBudget,
            instagramHandle: profile.instagramHandle ?? null,
            diet: profile.diet ?? null,
            drinking: profile.drinking ?? null,
            smoking: profile.smoking ?? null,
            cuisines: profile.cuisines,
            interests: profile.interests,
            // Signups started before languages were kept have none.
            languages: profile.languages ?? [],
            firstDateTypes: profile.firstDateTypes,
            // Signups started before gender was asked have none (met only by those who want to meet everyone).
            gender: profile.gender ?? null,
            genderSelfDescribed: profile.genderSelfDescribed ?? null,
            showGender: profile.showGender ?? true,
            wantsToMeet: profile.wantsToMeet ?? 'EVERYONE',
          });
          // The claim is the race-safe check: two signups from one browser cannot both take a photo.
          const claimed = await claimDatingUploads(tx, keys, signup.browser_nonce_hash, created.id, now);
          if (claimed !== keys.length) throw conflict('One of these photos is already part of a profile. Please add your photos again.');
          await insertDatingPhotos(
            tx,
            created.id,
            profile.photos.map((photo) => {
              const upload = uploads.find((candidate) => candidate.objectKey === photo.objectKey)!;
              return { sortOrder: photo.sortOrder, objectKey: photo.objectKey, contentType: upload.contentType, sizeBytes: upload.sizeBytes ?? 0 };
            }),
          );
          return { user: created };
        })
        .catch((error: unknown) => {
          // Only someone holding the phone gets here: they may be told it has an account.
          if (isUniqueViolation(error, 'dating_users_phone_key')) throw conflict(DUPLICATE_PHONE);
          throw error;
        });
      if ('refusal' in outcome) throw outcome.refusal;
      const token = await sessions.issueSession('dating', outcome.user.id);
      return { profile: await profileOf(outcome.user), token };
    },

    /** GET /dating/dev/mailbox?signup=…: in the demo, the text a signup sent (whoever holds the signupId holds the "phone"). */
    async devMailboxForSignup(_principal: Principal, signupId: string): Promise<DevMailboxResponse> {
      const messageId = await findDatingSignupMessage(db, signupId);
      return notifications.listDevMessages(messageId ? [messageId] : []);
    },
  };
}
