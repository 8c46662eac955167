import { createHash, randomUUID } from 'node:crypto';
import type { DatingLoginInput, DatingPresignResponse, DatingProfile, DatingSignupInput } from '#common/contract/dating.ts';
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
import { todayInKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict, forbidden, isUniqueViolation, notFound, sessionExpired, unauthenticated } from '#server/errors.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '#server/modules/accounts/password.ts';
import { requireDating, type Principal } from '#server/modules/accounts/principal.ts';
import type { SessionsService } from '#server/modules/accounts/sessions.service.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import { fileExtensionFor, type AcceptedImageType } from '#server/modules/storage/image-type.ts';
import {
  claimDatingUploads,
  findDatingUploads,
  findDatingUserById,
  findDatingUserByPhone,
  findPhotoOwner,
  insertDatingPhotos,
  insertDatingUploads,
  insertDatingUser,
  listDatingPhotos,
  markDatingUploadReceived,
  type DatingPhotoRow,
  type DatingUploadRow,
  type DatingUserRow,
} from './dating.repository.ts';

/** How long a local upload URL (or an S3 presigned PUT) stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** How long an uploaded photo waits to be claimed by a signup from the same browser. */
export const UPLOAD_CLAIM_HOURS = 24;
/** Local uploads are PUT here (then /{uuid}.{ext}?grant=…); with S3 the browser PUTs to the bucket. */
export const LOCAL_UPLOAD_PATH = '/dating/uploads/put';
/** Photos are served to their owner here (then /{uuid}.{ext}). */
export const PHOTO_PATH = '/dating/photos';

export const LOGIN_REFUSED = 'Invalid phone number or password';
export const DUPLICATE_PHONE = 'An account with this phone already exists';
export const NOT_THIS_BROWSER = 'These photos were not uploaded from this browser. Please add your photos again.';
export const NOT_UPLOADED = 'Upload all 3 photos before creating your account';

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
  };
}

/**
 * The dating section: phone + password accounts with three photos, cookie sessions, and
 * photo uploads that only the browser which asked for them can turn into a profile.
 */
export function createDatingService(deps: AppDeps, sessions: SessionsService, storage: StorageService) {
  const { db, clock, config } = deps;
  const today = () => todayInKolkata(clock.now());

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

  return {
    /**
     * POST /dating/uploads/presign: one upload URL per photo. The keys are bound to the
     * browser's upload nonce (an httpOnly cookie), so only this browser can claim them.
     */
    async presignPhotos(
      _principal: Principal,
      request: { count: number; contentTypes: AcceptedImageType[] },
      browserNonce: string,
    ): Promise<DatingPresignResponse> {
      const now = clock.now();
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
          expiresAt: new Date(now.getTime() + UPLOAD_CLAIM_HOURS * 3_600_000),
        });
      }
      await insertDatingUploads(db, rows);
      return { items };
    },

    /**
     * PUT {uploadUrl} on the local driver: the signed grant is the permission; the bytes must
     * be an image (by magic number) of at most 8 MB.
     */
    async receiveUpload(_principal: Principal, target: { photoId: string; grant: string }, bytes: Uint8Array): Promise<void> {
      const grant = target.grant.length <= 2000 ? await storage.verifyUploadGrant(target.grant) : undefined;
      if (!grant || grant.key !== `dating/${target.photoId}`) throw forbidden('This upload link is not valid or has expired. Please add your photos again.');
      const [upload] = await findDatingUploads(db, [grant.key]);
      if (!upload) throw notFound('This upload was not found');
      if (upload.claimedBy) throw conflict('This photo is already part of a profile');
      const contentType = storage.checkImage(bytes, Math.min(grant.maxBytes, DATING_PHOTO_MAX_BYTES));
      await storage.putObject(grant.key, bytes);
      const isRecorded = await markDatingUploadReceived(db, grant.key, { sizeBytes: bytes.length, contentType, at: clock.now() });
      if (!isRecorded) throw conflict('This photo is already part of a profile');
    },

    /**
     * POST /dating/auth/signup: the contract has checked every field; here the rules that need
     * the database, the clock or the browser: 18 or older, one account per phone, and three
     * photos uploaded from this very browser and not used by anyone yet.
     */
    async signUp(_principal: Principal, input: DatingSignupInput, browserNonce: string | undefined): Promise<{ profile: DatingProfile; token: string }> {
      const ageProblem = checkDatingAge(input.dob, today());
      if (ageProblem) throw badInput(ageProblem);
      const phone = normalizeDatingPhone(input.phone);
      if (await findDatingUserByPhone(db, phone)) throw conflict(DUPLICATE_PHONE);

      const keys = input.photos.map((photo) => photo.objectKey);
      if (!browserNonce) throw forbidden(NOT_THIS_BROWSER);
      const nonceHash = hashBrowserNonce(browserNonce);
      const found = new Map((await findDatingUploads(db, keys)).map((upload) => [upload.objectKey, upload]));
      const now = clock.now();
      const uploads: DatingUploadRow[] = [];
      for (const key of keys) {
        let upload = found.get(key);
        if (!upload || upload.browserNonceHash !== nonceHash) throw forbidden(NOT_THIS_BROWSER);
        if (upload.claimedBy) throw conflict('One of these photos is already part of a profile. Please add your photos again.');
        if (upload.expiresAt <= now) throw badInput('Your photo uploads have expired. Please add your photos again.');
        if (!upload.uploadedAt) {
          if (!storage.hasDirectUploads) throw badInput(NOT_UPLOADED);
          upload = await confirmDirectUpload(upload);
        }
        uploads.push(upload);
      }

      const passwordHash = await hashPassword(input.password, config.passwordHashCost);
      let user: DatingUserRow;
      try {
        user = await db.transaction(async (tx) => {
          const created = await insertDatingUser(tx, {
            phone,
            passwordHash,
            name: input.name,
            dob: input.dob,
            profession: input.profession ?? null,
            dreams: input.dreams,
            fiveYearGoal: input.fiveYearGoal,
            whatIWantInPartner: input.whatIWantInPartner,
            whyPartnerWouldLikeMe: input.whyPartnerWouldLikeMe,
            physicalActivity: input.physicalActivity,
            dateBudget: input.dateBudget,
            instagramHandle: input.instagramHandle ?? null,
            diet: input.diet ?? null,
            drinking: input.drinking ?? null,
            smoking: input.smoking ?? null,
            cuisines: input.cuisines,
            interests: input.interests,
            firstDateTypes: input.firstDateTypes,
          });
          // The claim is the race-safe check: two signups from one browser cannot both take a photo.
          const claimed = await claimDatingUploads(tx, keys, nonceHash, created.id, now);
          if (claimed !== keys.length) throw conflict('One of these photos is already part of a profile. Please add your photos again.');
          await insertDatingPhotos(
            tx,
            created.id,
            input.photos.map((photo) => {
              const upload = uploads.find((candidate) => candidate.objectKey === photo.objectKey)!;
              return { sortOrder: photo.sortOrder, objectKey: photo.objectKey, contentType: upload.contentType, sizeBytes: upload.sizeBytes ?? 0 };
            }),
          );
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error, 'dating_users_phone_key')) throw conflict(DUPLICATE_PHONE);
        throw error;
      }
      const token = await sessions.issueSession('dating', user.id);
      return { profile: await profileOf(user), token };
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
      if (previousToken) await sessions.revokeToken(previousToken);
      const token = await sessions.issueSession('dating', user.id);
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
     * GET /dating/photos/{id}: a photo, to its owner only for now (matches will widen this).
     * Someone else's photo answers 404, like a missing one, so ids cannot be probed.
     */
    async readPhoto(principal: Principal, photoId: string): Promise<{ body: Buffer; contentType: AcceptedImageType }> {
      requireDating(principal);
      if (!PHOTO_ID.test(photoId)) throw notFound('Photo not found');
      const key = `dating/${photoId}`;
      const owner = await findPhotoOwner(db, key);
      if (owner !== principal.datingUserId) throw notFound('Photo not found');
      const image = await storage.readImage(key);
      if (!image) throw notFound('Photo not found');
      return image;
    },
  };
}

export type DatingService = ReturnType<typeof createDatingService>;
