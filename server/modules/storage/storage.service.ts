import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput } from '#server/errors.ts';
import { fileExtensionFor, sniffImageType, type AcceptedImageType } from './image-type.ts';
import { LocalObjectStore } from './local-driver.ts';
import { S3ObjectStore } from './s3-driver.ts';
import { createSigningKey, signPayload, verifyPayload } from '#server/signing.ts';

/** What a signed local upload URL allows: one object key, one declared type, a size cap, until exp. */
export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Seconds since the epoch. */
  exp: number;
}

/** What both drivers do: local disk (default) and an S3-compatible bucket (STORAGE_DRIVER=s3). */
interface ObjectStore {
  put(key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  size(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
}

export interface StoredImage {
  key: string;
  contentType: AcceptedImageType;
  size: number;
}

/**
 * Files: local disk under DATA_DIR/uploads by default. Uploads are images checked by
 * their bytes and size-limited. Upload URLs are signed with the app's signing key (server/signing.ts).
 */
export function createStorageService({ db, clock, config }: AppDeps) {
  const s3 = config.storage?.driver === 's3' && config.storage.s3 ? new S3ObjectStore(config.storage.s3, clock) : undefined;
  const store: ObjectStore = s3 ?? new LocalObjectStore(join(config.dataDir, 'uploads'));
  const signingSecret = createSigningKey({ db, config });

  /** Checks bytes are an accepted image within the limit; the refusal says which rule failed. */
  function checkImage(bytes: Uint8Array, maxBytes: number): AcceptedImageType {
    if (bytes.length === 0) throw badInput('The file is empty');
    if (bytes.length > maxBytes) throw new AppError('TOO_LARGE', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    const type = sniffImageType(bytes);
    if (!type) throw new AppError('UNSUPPORTED_MEDIA', 'Only JPEG, PNG or WebP images are accepted');
    return type;
  }

  return {
    checkImage,

    /** Stores an image under a fresh key in `folder` ('hero', 'dating', …) after checking its bytes. */
    async saveImage(folder: string, bytes: Uint8Array, maxBytes: number): Promise<StoredImage> {
      const contentType = checkImage(bytes, maxBytes);
      const key = `${folder}/${randomUUID()}.${fileExtensionFor[contentType]}`;
      await store.put(key, bytes, contentType);
      return { key, contentType, size: bytes.length };
    },

    /** Stores bytes under a key the app chose earlier (a signed upload). */
    async putObject(key: string, bytes: Uint8Array): Promise<void> {
      await store.put(key, bytes, sniffImageType(bytes) ?? 'application/octet-stream');
    },

    /**
     * True when browsers upload straight to the object store (S3 presigned PUT); false when
     * they PUT to the app's own signed upload URL (local driver).
     */
    hasDirectUploads: s3 !== undefined,

    /** A presigned PUT URL on the bucket for one object of one content type (S3 driver only). */
    presignDirectUpload(key: string, contentType: string, ttlSeconds: number): string {
      if (!s3) throw new Error('Direct uploads need STORAGE_DRIVER=s3');
      return s3.presignPut(key, contentType, ttlSeconds);
    },

    /** An object's bytes with the type its bytes say, or undefined. */
    async readImage(key: string): Promise<{ body: Buffer; contentType: AcceptedImageType } | undefined> {
      const body = await store.get(key);
      if (!body) return undefined;
      const contentType = sniffImageType(body);
      return contentType ? { body, contentType } : undefined;
    },

    /** Deletes an object (an unclaimed upload past its time); a missing one is not an error. */
    async deleteObject(key: string): Promise<void> {
      await store.delete(key);
    },

    async objectSize(key: string): Promise<number | undefined> {
      return store.size(key);
    },

    /** A short-lived signed token allowing one PUT of one object (local driver upload URLs). */
    async signUploadGrant(grant: Omit<UploadGrant, 'exp'>, ttlSeconds: number): Promise<string> {
      const exp = Math.floor(clock.now().getTime() / 1000) + ttlSeconds;
      return signPayload<UploadGrant>({ ...grant, exp }, await signingSecret());
    },

    /** The grant a token carries, if it is genuine and unexpired. */
    async verifyUploadGrant(token: string): Promise<UploadGrant | undefined> {
      return verifyPayload<UploadGrant>(token, await signingSecret(), clock.now());
    },
  };
}

export type StorageService = ReturnType<typeof createStorageService>;
