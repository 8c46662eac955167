import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  DATING_ACCOUNT_SUSPENDED,
  type DatingLoginInput,
  type DatingPresignResponse,
  type DatingProfile,
  type DatingSignupInput,
  type DatingSignupStarted,
  type DatingSignupVerifyBody,
} from '#common/contract/dating.ts';
import type { DevMailboxResponse } from '#common/contract/waitlist.ts';
import {
  DATING_PHOTO_MAX_BYTES,
  ageOn,
  checkDatingAge,
  normalizeDatingPhone,
  type Cuisine,
  type DateBudget,
  type Diet,
  type Drinking,
  type FirstDateType,
  type PhysicalActivity,
  type Smoking,
} from '#common/domain/dating-profile.ts';
import type { DatingIntent, FreeEvening } from '#common/domain/dating-match.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict, forbidden, isUniqueViolation, notFound, sessionExpired, unauthenticated } from '#server/errors.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '#server/modules/accounts/password.ts';
import { requireDating, type Principal } from '#server/modules/accounts/principal.ts';
import type { SessionsService } from '#server/modules/accounts/sessions.service.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import { fileExtensionFor, type AcceptedImageType } from '#server/modules/storage/image-type.ts';
import {
  addUploadBytes,
  claimDatingUploads,
  consumeDatingSignup,
  countDatingSignupAttempt,
  deleteExpiredDatingSignups,
  deleteOldUploadCounts,
  deleteUnclaimedUpload,
  findDatingSignupMessage,
  findDatingUploads,
  findDatingUserById,
  findDatingUserByPhone,
  findPhotoOwner,
  insertDatingPhotos,
  insertDatingSignup,
  insertDatingUploads,
  insertDatingUser,
  listDatingPhotos,
  listExpiredUnclaimedUploads,
  lockDatingSignup,
  lockMemberForSignIn,
  measureUploadStorage,
  markDatingUploadReceived,
  setDatingSignupMessage,
  type DatingPhotoRow,
  type DatingUploadRow,
  type DatingUserRow,
} from './dating.repository.ts';
import { createDatingMatches } from './dating-matches.service.ts';

/** How long a local upload URL (or an S3 presigned PUT) stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** Unclaimed uploads are deleted this long after their time ran out, so a signup waiting for its code can still finish. */
const SWEEP_GRACE_MINUTES = 15;
/** How many unclaimed uploads one sweep deletes at most (the next sweep takes the rest). */
const SWEEP_BATCH = 500;
/** Storage in use is logged at most this often (and after every sweep that deleted something). */
const STORAGE_LOG_EVERY_MS = 60 * 60_000;
/** Local uploads are PUT here (then /{uuid}.{ext}?grant=…); with S3 the browser PUTs to the bucket. */
export const LOCAL_UPLOAD_PATH = '/dating/uploads/put';
/** Photos are served to their owner here (then /{uuid}.{ext}). */
export const PHOTO_PATH = '/dating/photos';

export const LOGIN_REFUSED = 'Invalid phone number or password';
export const DUPLICATE_PHONE = 'An account with this phone already exists';
export const NOT_THIS_BROWSER = 'These photos were not uploaded from this browser. Please add your photos again.';
export const NOT_UPLOADED = 'Upload all 3 photos before creating your account';

/** A signup's code (decision 101): how long it lives and how many wrong tries it takes. */
export const SIGNUP_CODE_TTL_MINUTES = 10;
export const SIGNUP_CODE_ATTEMPTS = 5;
export const SIGNUP_CODE_SENT = 'We sent a 6-digit code to your phone. Enter it to finish creating your account.';
export const SIGNUP_NOT_FOUND = 'This signup has expired. Please start again.';
export const SIGNUP_TOO_MANY_TRIES = 'Too many wrong codes. Please start the signup again.';

/** A signup's code is kept only as an HMAC under its own salt, bound to the signup and phone. */
function hashSignupCode(salt: string, signupId: string, phone: string, code: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(`dating-signup:${signupId}:${phone}:${code}`).digest('hex');
}

const PHOTO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$/;

/** SHA-256 of the browser's upload nonce: what the table keeps. */
export function hashBrowserNonce(nonce: string): string {
  return createHash('sha256').update(`dating-upload:${nonce}`).digest('base64url');
}

function photoUrl(objectKey: string): string {
  return `${PHOTO_PATH}/${objectKey.slice('dating/'.length)}`;
}

function toProfile(user: DatingUserRow, photos: DatingPhotoRow[], today: string): DatingProfile {
  return {
    id: user.id,
    phone: user.phone,
    name: user.name,
    dob: user.dob,
    age: ageOn(user.dob, today),
    profession: user.profession,
    dreams: user.dreams,
    fiveYearGoal: user.fiveYearGoal,
    whatIWantInPartner: user.whatIWantInPartner,
    whyPartnerWouldLikeMe: user.whyPartnerWouldLikeMe,
    physicalActivity: user.physicalActivity as PhysicalActivity,
    dateBudget: user.dateBudget as DateBudget,
    instagramHandle: user.instagramHandle,
    diet: user.diet as Diet | null,
    drinking: user.drinking as Drinking | null,
    smoking: user.smoking as Smoking | null,
    cuisines: user.cuisines as Cuisine[],
    interests: user.interests,
    firstDateTypes: user.firstDateTypes as FirstDateType[],
    photos: photos.map((photo) => ({ url: photoUrl(photo.objectKey), sortOrder: photo.sortOrder, contentType: photo.contentType })),
    createdAt: user.createdAt.toISOString(),
    languages: user.languages,
    wantAgeMin: user.wantAgeMin,
    wantAgeMax: user.wantAgeMax,
    neighbourhoods: user.neighbourhoods,
    freeEvenings: user.freeEvenings as FreeEvening[],
    intent: user.intent as DatingIntent,
  };
}

/**
 * The dating section: phone + password accounts with three photos, cookie sessions, and
 * photo uploads that only the browser which asked for them can turn into a profile.
 */
export function createDatingService(deps: AppDeps, sessions: SessionsService, storage: StorageService, notifications: NotificationsService) {
  const { db, clock, config, log } = deps;
  const today = () => todayInKolkata(clock.now());
  let storageLoggedAt = 0;
  const matches = createDatingMatches(deps);

  /**
   * Counts `bytes` against the address's daily upload quota (UPLOAD_BYTES_PER_IP_PER_DAY, in the
   * database so N instances agree); over it, 429 and nothing is counted.
   */
  async function chargeUploadBytes(ip: string | undefined, bytes: number): Promise<void> {
    const limit = config.uploads.bytesPerIpPerDay;
    await db.transaction(async (tx) => {
      const total = await addUploadBytes(tx, ip ?? 'unknown', today(), bytes);
      if (total > limit) {
        throw new AppError(
          'RATE_LIMITED',
          `This network has uploaded ${Math.round(limit / 1024 / 1024)} MB of photos today, the most we take in a day. Please try again tomorrow.`,
        );
      }
    });
  }

  async function profileOf(user: DatingUserRow): Promise<DatingProfile> {
    return toProfile(user, await listDatingPhotos(db, user.id), today());
  }

  /**
   * With S3 the bytes went straight to the bucket: check them now (present, at most 8 MB,
   * an image by its magic number) and record them, as the local PUT handler does on arrival.
   */
  async function confirmDirectUpload(upload: DatingUploadRow): Promise<DatingUploadRow> {
    const size = await storage.objectSize(upload.objectKey);
    if (size === undefined) throw badInput(NOT_UPLOADED);
    if (size > DATING_PHOTO_MAX_BYTES) throw new AppError('TOO_LARGE', 'Each photo must be 8 MB or smaller');
    const image = await storage.readImage(upload.objectKey);
    if (!image) throw new AppError('UNSUPPORTED_MEDIA', 'Only JPEG, PNG or WebP images are accepted');
    const at = clock.now();
    await markDatingUploadReceived(db, upload.objectKey, { sizeBytes: size, contentType: image.contentType, at });
    return { ...upload, sizeBytes: size, contentType: image.contentType, uploadedAt: at };
  }

  /** The photos: presigned for this browser, uploaded (checked now on S3), unclaimed and not expired. */
  async function checkUploads(keys: string[], nonceHash: string, tx: Db = db, options = { checkExpiry: true }): Promise<DatingUploadRow[]> {
    const found = new Map((await findDatingUploads(tx, keys)).map((upload) => [upload.objectKey, upload]));
    const now = clock.now();
    const uploads: DatingUploadRow[] = [];
    for (const key of keys) {
      let upload = found.get(key);
      if (!upload || upload.browserNonceHash !== nonceHash) throw forbidden(NOT_THIS_BROWSER);
      if (upload.claimedBy) throw conflict('One of these photos is already part of a profile. Please add your photos again.');
      if (options.checkExpiry && upload.expiresAt <= now) throw badInput('Your photo uploads have expired. Please add your photos again.');
      if (!upload.uploadedAt) {
        if (!storage.hasDirectUploads) throw badInput(NOT_UPLOADED);
        upload = await confirmDirectUpload(upload);
      }
      uploads.push(upload);
    }
    return uploads;
  }

  return {
    ...matches,

    /**
     * POST /dating/uploads/presign: one upload URL per photo. The keys are bound to the
     * browser's upload nonce (an httpOnly cookie), so only this browser can claim them.
     */
    async presignPhotos(
      _principal: Principal,
      request: { count: number; contentTypes: AcceptedImageType[] },
      browserNonce: string,
      from: { ip?: string } = {},
    ): Promise<DatingPresignResponse> {
      const now = clock.now();
      // A presigned bucket PUT cannot be capped, so on S3 the quota counts the most each may be.
      if (storage.hasDirectUploads) await chargeUploadBytes(from.ip, Math.min(request.count, request.contentTypes.length) * DATING_PHOTO_MAX_BYTES);
      const items = [];
      const rows = [];
      for (const contentType of request.contentTypes.slice(0, request.count)) {
        const objectKey = `dating/${randomUUID()}.${fileExtensionFor[contentType]}`;
        const uploadUrl = storage.hasDirectUploads
          ? storage.presignDirectUpload(objectKey, contentType, UPLOAD_URL_TTL_SECONDS)
          : `${LOCAL_UPLOAD_PATH}/${objectKey.slice('dating/'.length)}?grant=${await storage.signUploadGrant({ key: objectKey, contentType, maxBytes: DATING_PHOTO_MAX_BYTES }, UPLOAD_URL_TTL_SECONDS)}`;
        items.push({ uploadUrl, objectKey, contentType });
        rows.push({
          objectKey,
          browserNonceHash: hashBrowserNonce(browserNonce),
          contentType,
          expiresAt: new Date(now.getTime() + config.uploads.unclaimedTtlMinutes * 60_000),
        });
      }
      await insertDatingUploads(db, rows);
      return { items };
    },

    /**
     * PUT {uploadUrl} on the local driver: the signed grant is the permission; the bytes must
     * be an image (by magic number) of at most 8 MB.
     */
    async receiveUpload(_principal: Principal, target: { photoId: string; grant: string }, bytes: Uint8Array, from: { ip?: string } = {}): Promise<void> {
      const grant = target.grant.length <= 2000 ? await storage.verifyUploadGrant(target.grant) : undefined;
      if (!grant || grant.key !== `dating/${target.photoId}`) throw forbidden('This upload link is not valid or has expired. Please add your photos again.');
      const [upload] = await findDatingUploads(db, [grant.key]);
      if (!upload) throw notFound('This upload was not found');
      if (upload.claimedBy) throw conflict('This photo is already part of a profile');
      const contentType = storage.checkImage(bytes, Math.min(grant.maxBytes, DATING_PHOTO_MAX_BYTES));
      await chargeUploadBytes(from.ip, bytes.length);
      await storage.putObject(grant.key, bytes);
      const isRecorded = await markDatingUploadReceived(db, grant.key, { sizeBytes: bytes.length, contentType, at: clock.now() });
      if (!isRecorded) throw conflict('This photo is already part of a profile');
    },

    /**
     * POST /dating/auth/signup, step 1 (decisions 053, 101): the contract has checked every field;
     * here the rules that need the database, the clock or the browser: 18 or older, and three
     * photos uploaded from this very browser and not used by anyone yet. Nothing is said about the
     * phone: whether it is free or taken, the same work is done (password hashed, a signup row, a
     * text) and the same 202 goes back. A free phone gets a code; a taken one is told by text that
     * it already has an account, and its signup can never complete.
     */
    async signUp(_principal: Principal, input: DatingSignupInput, browserNonce: string | undefined, from: { ip?: string } = {}): Promise<DatingSignupStarted> {
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
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const salt = randomBytes(16).toString('hex');
      const { signupId, messageId } = await db.transaction(async (tx) => {
        const isTaken = Boolean(await findDatingUserByPhone(tx, phone));
        const id = randomUUID();
        // A taken phone's row gets the hash of a code nobody is sent: it can never be completed.
        const codeHash = hashSignupCode(salt, id, phone, isTaken ? randomBytes(16).toString('hex') : code);
        await insertDatingSignup(tx, { id, phone, passwordHash, profile, browserNonceHash: nonceHash, codeSalt: salt, codeHash, now, expiresAt });
        const message = await notifications.queueSms(tx, {
          userId: null,
          ip: from.ip,
          to: phone,
          body: isTaken
            ? 'Someone tried to create a Tablefair Dating account with this number, which already has a Tablefair Dating account. Log in with your password instead; if this was not you, ignore this text.'
            : `${code} is your Tablefair Dating code. It expires in ${SIGNUP_CODE_TTL_MINUTES} minutes. Never share it: Tablefair will never ask for it.`,
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
          const expected = Buffer.from(signup.code_hash, 'hex');
          const given = Buffer.from(hashSignupCode(signup.code_salt, signup.id, signup.phone, input.code), 'hex');
          if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
            // Counted (and committed) before the refusal goes out.
            const left = SIGNUP_CODE_ATTEMPTS - (await countDatingSignupAttempt(tx, signup.id));
            return {
              refusal:
                left > 0
                  ? badInput(`code: That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`)
                  : new AppError('RATE_LIMITED', SIGNUP_TOO_MANY_TRIES),
            };
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

    /**
     * For the background sweep (issue 12 item 7): deletes uploads no signup claimed within
     * UNCLAIMED_UPLOAD_TTL_MINUTES (plus a grace for a code in flight), row first and then its file,
     * forgets old signups and old upload counts, and logs the storage the uploads use.
     */
    async sweepUploads(): Promise<{ deleted: number; storage: Awaited<ReturnType<typeof measureUploadStorage>> }> {
      const now = clock.now();
      const keys = await listExpiredUnclaimedUploads(db, new Date(now.getTime() - SWEEP_GRACE_MINUTES * 60_000), SWEEP_BATCH);
      let deleted = 0;
      for (const key of keys) {
        // The row first, only while unclaimed: once it is gone no signup can claim the file.
        if (!(await deleteUnclaimedUpload(db, key))) continue;
        await storage.deleteObject(key);
        deleted++;
      }
      await deleteExpiredDatingSignups(db, new Date(now.getTime() - 24 * 3_600_000));
      await deleteOldUploadCounts(db, addDays(today(), -2));
      const used = await measureUploadStorage(db);
      if (deleted > 0 || now.getTime() - storageLoggedAt >= STORAGE_LOG_EVERY_MS) {
        storageLoggedAt = now.getTime();
        log.info({ uploadStorage: used, deletedUnclaimed: deleted }, 'dating upload storage');
      }
      return { deleted, storage: used };
    },

    /** GET /dating/dev/mailbox?signup=…: in the demo, the text a signup sent (whoever holds the signupId holds the "phone"). */
    async devMailboxForSignup(_principal: Principal, signupId: string): Promise<DevMailboxResponse> {
      const messageId = await findDatingSignupMessage(db, signupId);
      return notifications.listDevMessages(messageId ? [messageId] : []);
    },

    /** POST /dating/auth/login: the refusal never tells whether the phone or the password was wrong. */
    async logIn(
      _principal: Principal,
      { phone, password }: DatingLoginInput,
      previousToken: string | undefined,
    ): Promise<{ profile: DatingProfile; token: string }> {
      const user = await findDatingUserByPhone(db, normalizeDatingPhone(phone));
      const isValid = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDecoy(password, config.passwordHashCost);
      if (!user || !isValid) throw unauthenticated(LOGIN_REFUSED);
      // Only someone who knows the password learns of a suspension (decision 185). The row lock
      // orders this sign-in with a moderator's suspension: either it sees the suspension, or the
      // suspension revokes the session it issues.
      const token = await db.transaction(async (tx) => {
        const member = await lockMemberForSignIn(tx, user.id);
        if (!member) throw unauthenticated(LOGIN_REFUSED);
        if (member.suspendedAt) throw forbidden(DATING_ACCOUNT_SUSPENDED);
        return sessions.issueSession('dating', user.id, tx);
      });
      if (previousToken) await sessions.revokeToken(previousToken);
      return { profile: await profileOf(user), token };
    },

    /** GET /dating/auth/me: the signed-in dating user, with their photos. */
    async getCurrentDatingUser(principal: Principal): Promise<DatingProfile> {
      requireDating(principal);
      const user = await findDatingUserById(db, principal.datingUserId);
      if (!user) throw sessionExpired();
      return profileOf(user);
    },

    /** POST /dating/auth/logout: ends the cookie's session (no session is not an error). */
    async logOut(_principal: Principal, token: string | undefined): Promise<void> {
      if (token) await sessions.revokeToken(token);
    },

    /**
     * GET /dating/photos/{id}: a photo, to its owner and to members it was suggested to (not blocked).
     * Someone else's photo answers 404, like a missing one, so ids cannot be probed.
     */
    async readPhoto(principal: Principal, photoId: string): Promise<{ body: Buffer; contentType: AcceptedImageType }> {
      requireDating(principal);
      if (!PHOTO_ID.test(photoId)) throw notFound('Photo not found');
      const key = `dating/${photoId}`;
      const owner = await findPhotoOwner(db, key);
      if (!owner || !(await matches.mayShowMember(principal, owner))) throw notFound('Photo not found');
      const image = await storage.readImage(key);
      if (!image) throw notFound('Photo not found');
      return image;
    },
  };
}

export type DatingService = ReturnType<typeof createDatingService>;
