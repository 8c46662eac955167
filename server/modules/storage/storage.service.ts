import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput } from '#server/errors.ts';
import { fileExtensionFor, sniffImageType, type AcceptedImageType } from './image-type.ts';
import { LocalObjectStore } from './local-driver.ts';
import { signPayload, verifyPayload } from './signing.ts';

/** What a signed local upload URL allows: one object key, one declared type, a size cap, until exp. */
export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Seconds since the epoch. */
  exp: number;
}

export interface StoredImage {
  key: string;
  contentType: AcceptedImageType;
  size: number;
}

/**
 * Files: local disk under DATA_DIR/uploads by default. Uploads are images checked by
 * their bytes and size-limited. The signing secret comes from SIGNING_SECRET, else is
 * generated once and kept in the database so every instance shares it.
 */
export function createStorageService({ db, clock, config }: AppDeps) {
  const store = new LocalObjectStore(join(config.dataDir, 'uploads'));
  let secret: Promise<string> | undefined;

  async function loadSecret(): Promise<string> {
    if (config.signingSecret) return config.signingSecret;
    await db.execute(
      sql`INSERT INTO app_settings (key, value) VALUES ('signing_secret', ${randomBytes(32).toString('base64url')}) ON CONFLICT (key) DO NOTHING`,
    );
    const [row] = await queryRows<{ value: string }>(db, sql`SELECT value FROM app_settings WHERE key = 'signing_secret'`);
    return row.value;
  }

  function signingSecret(): Promise<string> {
    secret ??= loadSecret().catch((error) => {
      secret = undefined;
      throw error;
    });
    return secret;
  }

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
      await store.put(key, bytes);
      return { key, contentType, size: bytes.length };
    },

    /** Stores bytes under a key the app chose earlier (a signed upload). */
    async putObject(key: string, bytes: Uint8Array): Promise<void> {
      await store.put(key, bytes);
    },

    /** An object's bytes with the type its bytes say, or undefined. */
    async readImage(key: string): Promise<{ body: Buffer; contentType: AcceptedImageType } | undefined> {
      const body = await store.get(key);
      if (!body) return undefined;
      const contentType = sniffImageType(body);
      return contentType ? { body, contentType } : undefined;
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
