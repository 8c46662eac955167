import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { sameBytes } from './constant-time.ts';

/**
 * Signed tokens for URLs the app hands out itself: JSON ones (payload.signature, both base64url)
 * for local upload URLs, and short binary ones (one base64url string) for the links in reminders
 * and calendar emails.
 * The payload is readable, not secret; the HMAC makes it unforgeable. Each kind of token names
 * its purpose inside what is signed, so one kind can never be used as another.
 */
export function signPayload<T extends { exp: number }>(payload: T, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

/** The payload of a token signed with `secret` and not yet expired at `now`; undefined otherwise. */
export function verifyPayload<T extends { exp: number }>(token: string, secret: string, now: Date): T | undefined {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (!sameBytes(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now.getTime()) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}

/** Bytes of HMAC-SHA256 a short token keeps: 128 bits, as many as a forger must guess. */
const SHORT_SIGNATURE_BYTES = 16;

/**
 * A short signed token for links people receive in texts and emails: the caller's bytes and the
 * signature, as one base64url string. One piece, without a dot, so that no path segment holding
 * it looks like a file name; the caller packs its own fixed layout, so a token is about 50
 * characters.
 */
export function signBytes(bytes: Buffer, secret: string): string {
  return Buffer.concat([bytes, shortSignature(bytes, secret)]).toString('base64url');
}

/** The bytes of a short token signed with `secret`; undefined when it is not genuine. */
export function readSignedBytes(token: string, secret: string): Buffer | undefined {
  const whole = Buffer.from(token, 'base64url');
  if (whole.length <= SHORT_SIGNATURE_BYTES) return undefined;
  const bytes = whole.subarray(0, whole.length - SHORT_SIGNATURE_BYTES);
  const given = whole.subarray(whole.length - SHORT_SIGNATURE_BYTES);
  return sameBytes(given, shortSignature(bytes, secret)) ? bytes : undefined;
}

function shortSignature(bytes: Buffer, secret: string): Buffer {
  return createHmac('sha256', secret).update(bytes).digest().subarray(0, SHORT_SIGNATURE_BYTES);
}

/**
 * What a link about one record is for, as the first signed byte: one table for every module, so no
 * two kinds of link ever share a byte and one can never be read as another.
 */
export const linkPurposes = {
  /** A reminder's "I'm coming" (decision 152). */
  reminderComing: 1,
  /** A reminder's "Release my table". */
  reminderRelease: 2,
  /** A reservation's live calendar file. */
  calendar: 3,
  /** A date plan shared with a trusted contact (decision 184). */
  datePlanShare: 4,
} as const;
export type LinkPurpose = keyof typeof linkPurposes;

/** The signed bytes of a record link: the purpose, the record's uuid, an instant in whole seconds. */
const RECORD_LINK_BYTES = 1 + 16 + 4;

/** A short signed link about one record (`id`, a uuid) and one instant (a start, an expiry). */
export function signRecordLink(purpose: LinkPurpose, id: string, instant: Date, secret: string): string {
  const bytes = Buffer.alloc(RECORD_LINK_BYTES);
  bytes.writeUInt8(linkPurposes[purpose], 0);
  Buffer.from(id.replace(/-/g, ''), 'hex').copy(bytes, 1);
  bytes.writeUInt32BE(Math.floor(instant.getTime() / 1000), 17);
  return signBytes(bytes, secret);
}

/** What a record link says, or undefined when it is not a genuine one (tampered, another layout, an unknown purpose). */
export function readRecordLink(token: string, secret: string): { purpose: LinkPurpose; id: string; instant: Date } | undefined {
  const bytes = readSignedBytes(token, secret);
  if (!bytes || bytes.length !== RECORD_LINK_BYTES) return undefined;
  const purpose = (Object.keys(linkPurposes) as LinkPurpose[]).find((name) => linkPurposes[name] === bytes.readUInt8(0));
  if (!purpose) return undefined;
  const hex = bytes.subarray(1, 17).toString('hex');
  return {
    purpose,
    id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    instant: new Date(bytes.readUInt32BE(17) * 1000),
  };
}

/**
 * The key every signed token is made with: SIGNING_SECRET, else one generated once and kept in
 * `app_settings`, so every instance signs and checks with the same key. Loaded on first use; a
 * failed load is tried again on the next. Inside a transaction, pass it: the key is then read (or
 * first written) there, and kept only once that write can no longer be rolled back, that is, from
 * a load outside any transaction.
 */
export function createSigningKey({ db, config }: Pick<AppDeps, 'db' | 'config'>): (tx?: Db) => Promise<string> {
  let secret: Promise<string> | undefined;

  async function load(handle: Db): Promise<string> {
    if (config.signingSecret) return config.signingSecret;
    await handle.execute(
      sql`INSERT INTO app_settings (key, value) VALUES ('signing_secret', ${randomBytes(32).toString('base64url')}) ON CONFLICT (key) DO NOTHING`,
    );
    const [row] = await queryRows<{ value: string }>(handle, sql`SELECT value FROM app_settings WHERE key = 'signing_secret'`);
    return row.value;
  }

  return (tx?: Db) => {
    if (tx && !secret) return load(tx);
    secret ??= load(db).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}
