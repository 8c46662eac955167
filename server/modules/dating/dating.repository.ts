import { sql } from 'drizzle-orm';
import { asDate, queryRows, toPgArray, type Db } from '#server/db/client.ts';

/** SQL for the dating section: accounts, their photos, and browser-bound photo uploads. No rules here. */

export interface DatingUserRow {
  id: string;
  phone: string;
  passwordHash: string;
  name: string;
  dob: string;
  profession: string | null;
  dreams: string;
  fiveYearGoal: string;
  whatIWantInPartner: string;
  whyPartnerWouldLikeMe: string;
  physicalActivity: string;
  dateBudget: string;
  instagramHandle: string | null;
  diet: string | null;
  drinking: string | null;
  smoking: string | null;
  cuisines: string[];
  interests: string[];
  firstDateTypes: string[];
  createdAt: Date;
}

export type NewDatingUser = Omit<DatingUserRow, 'id' | 'createdAt'>;

const USER_COLUMNS = sql`id, phone, password_hash, name, dob::text AS dob, profession, dreams, five_year_goal, what_i_want_in_partner,
  why_partner_would_like_me, physical_activity, date_budget, instagram_handle, diet, drinking, smoking, cuisines, interests,
  first_date_types, created_at`;

interface RawUser {
  id: string;
  phone: string;
  password_hash: string;
  name: string;
  dob: string;
  profession: string | null;
  dreams: string;
  five_year_goal: string;
  what_i_want_in_partner: string;
  why_partner_would_like_me: string;
  physical_activity: string;
  date_budget: string;
  instagram_handle: string | null;
  diet: string | null;
  drinking: string | null;
  smoking: string | null;
  cuisines: string[];
  interests: string[];
  first_date_types: string[];
  created_at: Date | string;
}

function toUser(row: RawUser): DatingUserRow {
  return {
    id: row.id,
    phone: row.phone,
    passwordHash: row.password_hash,
    name: row.name,
    dob: row.dob,
    profession: row.profession,
    dreams: row.dreams,
    fiveYearGoal: row.five_year_goal,
    whatIWantInPartner: row.what_i_want_in_partner,
    whyPartnerWouldLikeMe: row.why_partner_would_like_me,
    physicalActivity: row.physical_activity,
    dateBudget: row.date_budget,
    instagramHandle: row.instagram_handle,
    diet: row.diet,
    drinking: row.drinking,
    smoking: row.smoking,
    cuisines: row.cuisines,
    interests: row.interests,
    firstDateTypes: row.first_date_types,
    createdAt: asDate(row.created_at),
  };
}

export async function findDatingUserByPhone(db: Db, phone: string): Promise<DatingUserRow | undefined> {
  const [row] = await queryRows<RawUser>(db, sql`SELECT ${USER_COLUMNS} FROM dating_users WHERE phone = ${phone}`);
  return row && toUser(row);
}

export async function findDatingUserById(db: Db, id: string): Promise<DatingUserRow | undefined> {
  const [row] = await queryRows<RawUser>(db, sql`SELECT ${USER_COLUMNS} FROM dating_users WHERE id = ${id}`);
  return row && toUser(row);
}

export async function insertDatingUser(db: Db, user: NewDatingUser): Promise<DatingUserRow> {
  const [row] = await queryRows<RawUser>(
    db,
    sql`INSERT INTO dating_users (phone, password_hash, name, dob, profession, dreams, five_year_goal, what_i_want_in_partner,
          why_partner_would_like_me, physical_activity, date_budget, instagram_handle, diet, drinking, smoking, cuisines, interests, first_date_types)
        VALUES (${user.phone}, ${user.passwordHash}, ${user.name}, ${user.dob}, ${user.profession}, ${user.dreams}, ${user.fiveYearGoal},
          ${user.whatIWantInPartner}, ${user.whyPartnerWouldLikeMe}, ${user.physicalActivity}, ${user.dateBudget}, ${user.instagramHandle},
          ${user.diet}, ${user.drinking}, ${user.smoking}, ${toPgArray(user.cuisines)}::text[], ${toPgArray(user.interests)}::text[],
          ${toPgArray(user.firstDateTypes)}::text[])
        RETURNING ${USER_COLUMNS}`,
  );
  return toUser(row);
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

export interface DatingUploadRow {
  objectKey: string;
  browserNonceHash: string;
  contentType: string;
  sizeBytes: number | null;
  expiresAt: Date;
  uploadedAt: Date | null;
  claimedBy: string | null;
}

interface RawUpload {
  object_key: string;
  browser_nonce_hash: string;
  content_type: string;
  size_bytes: number | null;
  expires_at: Date | string;
  uploaded_at: Date | string | null;
  claimed_by: string | null;
}

function toUpload(row: RawUpload): DatingUploadRow {
  return {
    objectKey: row.object_key,
    browserNonceHash: row.browser_nonce_hash,
    contentType: row.content_type,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    expiresAt: asDate(row.expires_at),
    uploadedAt: row.uploaded_at === null ? null : asDate(row.uploaded_at),
    claimedBy: row.claimed_by,
  };
}

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
  const rows = await queryRows<RawUpload>(
    db,
    sql`SELECT object_key, browser_nonce_hash, content_type, size_bytes, expires_at, uploaded_at, claimed_by
        FROM dating_uploads WHERE object_key = ANY(${toPgArray(objectKeys)}::text[])`,
  );
  return rows.map(toUpload);
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
