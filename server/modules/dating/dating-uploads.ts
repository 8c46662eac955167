import { createHash, randomUUID } from 'node:crypto';
import type { DatingPresignResponse } from '#common/contract/dating.ts';
import { DATING_PHOTO_MAX_BYTES } from '#common/domain/dating-profile.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict, forbidden, notFound } from '#server/errors.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import { fileExtensionFor, type AcceptedImageType } from '#server/modules/storage/image-type.ts';
import {
  addUploadBytes,
  deleteExpiredDatingSignups,
  deleteOldUploadCounts,
  deleteUnclaimedUpload,
  findDatingUploads,
  insertDatingUploads,
  listExpiredUnclaimedUploads,
  measureUploadStorage,
  markDatingUploadReceived,
  type DatingUploadRow,
} from './dating.repository.ts';

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

export const NOT_THIS_BROWSER = 'These photos were not uploaded from this browser. Please add your photos again.';
export const NOT_UPLOADED = 'Upload all 3 photos before creating your account';

/** SHA-256 of the browser's upload nonce: what the table keeps. */
export function hashBrowserNonce(nonce: string): string {
  return createHash('sha256').update(`dating-upload:${nonce}`).digest('base64url');
}

/**
 * A signup's three photos (decision 053): upload URLs bound to the browser that asked for them,
 * the bytes checked on arrival (or, on S3, at signup), a daily quota per address, and the sweep
 * that deletes what no signup claimed in time.
 */
export function createDatingUploads(deps: AppDeps, storage: StorageService) {
  const { db, clock, config, log } = deps;
  const today = () => todayInKolkata(clock.now());
  let storageLoggedAt = 0;

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
    checkUploads,

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
     * For the background sweep (decision 053): deletes uploads no signup claimed within
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
  };
}

export type DatingUploads = ReturnType<typeof createDatingUploads>;
