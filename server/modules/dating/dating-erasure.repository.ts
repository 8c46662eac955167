import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';

/** SQL of a dating account's erasure (decision 266). */

export async function deleteSignupsOfPhone(db: Db, phone: string): Promise<void> {
  await db.execute(sql`DELETE FROM dating_signups WHERE phone = ${phone}`);
}

export async function lockMemberOnPhone(db: Db, phone: string): Promise<string | undefined> {
  const [member] = await queryRows<{ id: string }>(db, sql`SELECT id FROM dating_users WHERE phone = ${phone} FOR UPDATE`);
  return member?.id;
}

/** Deletes the member's photos and claimed uploads; answers their storage keys. */
export async function deleteMemberPhotos(db: Db, memberId: string): Promise<string[]> {
  const photos = await queryRows<{ object_key: string }>(db, sql`DELETE FROM dating_photos WHERE dating_user_id = ${memberId} RETURNING object_key`);
  const uploads = await queryRows<{ object_key: string }>(db, sql`DELETE FROM dating_uploads WHERE claimed_by = ${memberId} RETURNING object_key`);
  return [...photos, ...uploads].map((row) => row.object_key);
}

/** Empties the member's profile, gives the row a phone no one holds, suspends it and revokes its sessions. */
export async function emptyMember(db: Db, memberId: string, placeholderPhone: string, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE dating_users SET phone = ${placeholderPhone}, password_hash = '!', name = 'Deleted member', dob = DATE '1900-01-01',
          profession = NULL, dreams = '', five_year_goal = '', what_i_want_in_partner = '', why_partner_would_like_me = '',
          instagram_handle = NULL, interests = '{}', languages = '{}', neighbourhoods = '{}', free_evenings = '{}',
          suspended_at = coalesce(suspended_at, ${now.toISOString()}), suspension_note = NULL, updated_at = ${now.toISOString()}
        WHERE id = ${memberId}`,
  );
  await db.execute(sql`UPDATE sessions SET revoked_at = ${now.toISOString()} WHERE kind = 'dating' AND subject_id = ${memberId} AND revoked_at IS NULL`);
}
