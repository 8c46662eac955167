import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { datingUploads, datingUsers } from '#server/db/schema.ts';

/** SQL for the dating section: accounts, their photos, and browser-bound photo uploads. No rules here. */

/** A dating account as stored: the schema maps its columns (server/db/schema.ts). */
export type DatingUserRow = typeof datingUsers.$inferSelect;

export type NewDatingUser = Omit<typeof datingUsers.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export async function findDatingUserByPhone(db: Db, phone: string): Promise<DatingUserRow | undefined> {
  const [row] = await db.select().from(datingUsers).where(eq(datingUsers.phone, phone));
  return row;
}

export async function findDatingUserById(db: Db, id: string): Promise<DatingUserRow | undefined> {
  const [row] = await db.select().from(datingUsers).where(eq(datingUsers.id, id));
  return row;
}

/**
 * Locks a member's row against a moderator's suspension while a sign-in issues its session, and
 * answers when they were suspended (null when they are not); undefined when there is no such member.
 */
export async function lockMemberForSignIn(db: Db, id: string): Promise<{ suspendedAt: Date | null } | undefined> {
  const [row] = await queryRows<{ suspended_at: string | Date | null }>(db, sql`SELECT suspended_at FROM dating_users WHERE id = ${id} FOR SHARE`);
  return row && { suspendedAt: row.suspended_at === null ? null : new Date(row.suspended_at) };
}

export async function insertDatingUser(db: Db, user: NewDatingUser): Promise<DatingUserRow> {
  const [row] = await db.insert(datingUsers).values(user).returning();
  return row;
}

export interface DatingPhotoRow {
  sortOrder: number;
  objectKey: string;
  contentType: string;
}

export async function insertDatingPhotos(db: Db, datingUserId: string, photos: (DatingPhotoRow & { sizeBytes: number })[]): Promise<void> {
  for (const photo of photos) {
    await db.execute(
      sql`INSERT INTO dating_photos (dating_user_id, sort_order, object_key, content_type, size_bytes)
          VALUES (${datingUserId}, ${photo.sortOrder}, ${photo.objectKey}, ${photo.contentType}, ${photo.sizeBytes})`,
    );
  }
}

export async function listDatingPhotos(db: Db, datingUserId: string): Promise<DatingPhotoRow[]> {
  const rows = await queryRows<{ sort_order: number; object_key: string; content_type: string }>(
    db,
    sql`SELECT sort_order, object_key, content_type FROM dating_photos WHERE dating_user_id = ${datingUserId} ORDER BY sort_order`,
  );
  return rows.map((row) => ({ sortOrder: Number(row.sort_order), objectKey: row.object_key, contentType: row.content_type }));
}

export async function findPhotoOwner(db: Db, objectKey: string): Promise<string | undefined> {
  const [row] = await queryRows<{ dating_user_id: string }>(db, sql`SELECT dating_user_id FROM dating_photos WHERE object_key = ${objectKey}`);
  return row?.dating_user_id;
}

/** A browser-bound photo upload as stored (the schema maps its columns). */
export type DatingUploadRow = Pick<
  typeof datingUploads.$inferSelect,
  'objectKey' | 'browserNonceHash' | 'contentType' | 'sizeBytes' | 'expiresAt' | 'uploadedAt' | 'claimedBy'
>;

export async function insertDatingUploads(
  db: Db,
  uploads: { objectKey: string; browserNonceHash: string; contentType: string; expiresAt: Date }[],
): Promise<void> {
  for (const upload of uploads) {
    await db.execute(
      sql`INSERT INTO dating_uploads (object_key, browser_nonce_hash, content_type, expires_at)
          VALUES (${upload.objectKey}, ${upload.browserNonceHash}, ${upload.contentType}, ${upload.expiresAt.toISOString()})`,
    );
  }
}

export async function findDatingUploads(db: Db, objectKeys: string[]): Promise<DatingUploadRow[]> {
  if (objectKeys.length === 0) return [];
  const { objectKey, browserNonceHash, contentType, sizeBytes, expiresAt, uploadedAt, claimedBy } = getTableColumns(datingUploads);
  return db
    .select({ objectKey, browserNonceHash, contentType, sizeBytes, expiresAt, uploadedAt, claimedBy })
    .from(datingUploads)
    .where(inArray(datingUploads.objectKey, objectKeys));
}

/** Records that an upload's bytes arrived and were checked; not once a signup has claimed it. */
export async function markDatingUploadReceived(db: Db, objectKey: string, upload: { sizeBytes: number; contentType: string; at: Date }): Promise<boolean> {
  const rows = await queryRows<{ object_key: string }>(
    db,
    sql`UPDATE dating_uploads SET uploaded_at = ${upload.at.toISOString()}, size_bytes = ${upload.sizeBytes}, content_type = ${upload.contentType}
        WHERE object_key = ${objectKey} AND claimed_by IS NULL
        RETURNING object_key`,
  );
  return rows.length === 1;
}

/** Claims uploads for a new account: only unclaimed, uploaded ones bound to this browser. Returns how many were claimed. */
export async function claimDatingUploads(db: Db, objectKeys: string[], browserNonceHash: string, datingUserId: string, at: Date): Promise<number> {
  const rows = await queryRows<{ object_key: string }>(
    db,
    sql`UPDATE dating_uploads SET claimed_by = ${datingUserId}, claimed_at = ${at.toISOString()}
        WHERE object_key = ANY(${toPgArray(objectKeys)}::text[]) AND browser_nonce_hash = ${browserNonceHash}
          AND claimed_by IS NULL AND uploaded_at IS NOT NULL
        RETURNING object_key`,
  );
  return rows.length;
}

/** A dating signup waiting for its code (decision 101). */
export interface DatingSignupRow {
  id: string;
  phone: string;
  password_hash: string;
  profile: unknown;
  browser_nonce_hash: string;
  code_salt: string;
  code_hash: string;
  attempts: number;
  message_id: string | null;
  expires_at: Date | string;
  consumed_at: Date | string | null;
}

export async function insertDatingSignup(
  db: Db,
  signup: {
    id: string;
    phone: string;
    passwordHash: string;
    profile: unknown;
    browserNonceHash: string;
    codeSalt: string;
    codeHash: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO dating_signups (id, phone, password_hash, profile, browser_nonce_hash, code_salt, code_hash, created_at, expires_at)
        VALUES (${signup.id}, ${signup.phone}, ${signup.passwordHash}, ${JSON.stringify(signup.profile)}::jsonb, ${signup.browserNonceHash}, ${signup.codeSalt},
                ${signup.codeHash}, ${signup.now.toISOString()}, ${signup.expiresAt.toISOString()})
        RETURNING id`,
  );
  return row.id;
}

export async function setDatingSignupMessage(db: Db, id: string, messageId: string): Promise<void> {
  await db.execute(sql`UPDATE dating_signups SET message_id = ${messageId} WHERE id = ${id}`);
}

export async function lockDatingSignup(db: Db, id: string): Promise<DatingSignupRow | undefined> {
  const [row] = await queryRows<DatingSignupRow>(
    db,
    sql`SELECT id, phone, password_hash, profile, browser_nonce_hash, code_salt, code_hash, attempts, message_id, expires_at, consumed_at
        FROM dating_signups WHERE id = ${id} FOR UPDATE`,
  );
  return row;
}

export async function findDatingSignupMessage(db: Db, id: string): Promise<string | null> {
  const [row] = await queryRows<{ message_id: string | null }>(db, sql`SELECT message_id FROM dating_signups WHERE id = ${id}`);
  return row?.message_id ?? null;
}

/** Counts a wrong code; answers the attempts so far. */
export async function countDatingSignupAttempt(db: Db, id: string): Promise<number> {
  const [row] = await queryRows<{ attempts: number }>(db, sql`UPDATE dating_signups SET attempts = attempts + 1 WHERE id = ${id} RETURNING attempts`);
  return row.attempts;
}

export async function consumeDatingSignup(db: Db, id: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE dating_signups SET consumed_at = ${now.toISOString()} WHERE id = ${id}`);
}

/** Signups whose code has long expired: nothing can complete them any more. */
export async function deleteExpiredDatingSignups(db: Db, before: Date): Promise<number> {
  const rows = await queryRows(db, sql`DELETE FROM dating_signups WHERE expires_at < ${before.toISOString()} RETURNING id`);
  return rows.length;
}

/**
 * Adds `bytes` to an address's uploads of `day` and answers the new total (one statement, so
 * concurrent uploads on N instances add up exactly).
 */
export async function addUploadBytes(db: Db, ip: string, day: string, bytes: number): Promise<number> {
  const [row] = await queryRows<{ bytes: string | number }>(
    db,
    sql`INSERT INTO upload_byte_counts (ip, day, bytes) VALUES (${ip}, ${day}, ${bytes})
        ON CONFLICT (ip, day) DO UPDATE SET bytes = upload_byte_counts.bytes + EXCLUDED.bytes
        RETURNING bytes`,
  );
  return Number(row.bytes);
}

export async function deleteOldUploadCounts(db: Db, beforeDay: string): Promise<void> {
  await db.execute(sql`DELETE FROM upload_byte_counts WHERE day < ${beforeDay}`);
}

/** Unclaimed uploads whose time ran out before `before`, oldest first. */
export async function listExpiredUnclaimedUploads(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await queryRows<{ object_key: string }>(
    db,
    sql`SELECT object_key FROM dating_uploads WHERE claimed_by IS NULL AND expires_at < ${before.toISOString()} ORDER BY expires_at LIMIT ${limit}`,
  );
  return rows.map((row) => row.object_key);
}

/** Forgets an upload whose object was deleted, unless a signup claimed it meanwhile. */
export async function deleteUnclaimedUpload(db: Db, objectKey: string): Promise<boolean> {
  const rows = await queryRows(db, sql`DELETE FROM dating_uploads WHERE object_key = ${objectKey} AND claimed_by IS NULL RETURNING object_key`);
  return rows.length === 1;
}

/** What the uploads hold in storage now: every received file, and the unclaimed part of it. */
export async function measureUploadStorage(db: Db): Promise<{ files: number; bytes: number; unclaimedFiles: number; unclaimedBytes: number }> {
  const [row] = await queryRows<{ files: number; bytes: string | number; unclaimed_files: number; unclaimed_bytes: string | number }>(
    db,
    sql`SELECT count(*)::int AS files, coalesce(sum(size_bytes), 0)::bigint AS bytes,
               (count(*) FILTER (WHERE claimed_by IS NULL))::int AS unclaimed_files,
               coalesce(sum(size_bytes) FILTER (WHERE claimed_by IS NULL), 0)::bigint AS unclaimed_bytes
        FROM dating_uploads WHERE uploaded_at IS NOT NULL`,
  );
  return { files: row.files, bytes: Number(row.bytes), unclaimedFiles: row.unclaimed_files, unclaimedBytes: Number(row.unclaimed_bytes) };
}
