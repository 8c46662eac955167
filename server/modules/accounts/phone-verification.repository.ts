import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';

/** SQL for phone verification: one-time codes (hashed) and the account's verified phone. */

export interface PhoneVerificationRow {
  id: string;
  phone: string;
  code_salt: string;
  code_hash: string;
  attempts: number;
  created_at: Date | string;
  expires_at: Date | string;
}

export async function findUserPhone(db: Db, userId: string): Promise<{ verified_phone: string | null; phone_verified_at: Date | string | null } | undefined> {
  const [row] = await queryRows<{ verified_phone: string | null; phone_verified_at: Date | string | null }>(
    db,
    sql`SELECT verified_phone, phone_verified_at FROM users WHERE id = ${userId}`,
  );
  return row;
}

export async function isPhoneVerifiedByAnother(db: Db, phone: string, userId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`SELECT 1 FROM users WHERE verified_phone = ${phone} AND id <> ${userId}`);
  return rows.length > 0;
}

/** The account's newest code not yet used (locked when `forUpdate`, so attempts are counted one at a time). */
export async function findLatestOpenVerification(db: Db, userId: string, options: { forUpdate?: boolean } = {}): Promise<PhoneVerificationRow | undefined> {
  const [row] = await queryRows<PhoneVerificationRow>(
    db,
    sql`SELECT id, phone, code_salt, code_hash, attempts, created_at, expires_at FROM phone_verifications
        WHERE user_id = ${userId} AND consumed_at IS NULL
        ORDER BY created_at DESC LIMIT 1 ${options.forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row;
}

/** A new code replaces any earlier one still open. */
export async function replaceOpenVerification(
  db: Db,
  verification: { userId: string; phone: string; codeSalt: string; codeHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.execute(
    sql`UPDATE phone_verifications SET consumed_at = ${verification.now.toISOString()} WHERE user_id = ${verification.userId} AND consumed_at IS NULL`,
  );
  await db.execute(
    sql`INSERT INTO phone_verifications (user_id, phone, code_salt, code_hash, created_at, expires_at)
        VALUES (${verification.userId}, ${verification.phone}, ${verification.codeSalt}, ${verification.codeHash},
                ${verification.now.toISOString()}, ${verification.expiresAt.toISOString()})`,
  );
}

export async function countFailedAttempt(db: Db, id: string): Promise<number> {
  const [row] = await queryRows<{ attempts: number }>(db, sql`UPDATE phone_verifications SET attempts = attempts + 1 WHERE id = ${id} RETURNING attempts`);
  return row.attempts;
}

export async function consumeVerification(db: Db, id: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE phone_verifications SET consumed_at = ${now.toISOString()} WHERE id = ${id}`);
}

/** Sets the account's verified phone (and its contact phone, which staff see on bookings); false if it already had one. */
export async function setVerifiedPhone(db: Db, userId: string, phone: string, now: Date): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`UPDATE users SET verified_phone = ${phone}, phone = ${phone}, phone_verified_at = ${now.toISOString()}
        WHERE id = ${userId} AND verified_phone IS NULL RETURNING id`,
  );
  return rows.length > 0;
}

/** The diner's verified phone, locked with the account (one entry per phone is then decided by the unique index). */
export async function lockVerifiedPhone(db: Db, userId: string): Promise<{ verified_phone: string | null } | undefined> {
  const [row] = await queryRows<{ verified_phone: string | null }>(db, sql`SELECT verified_phone FROM users WHERE id = ${userId} FOR UPDATE`);
  return row;
}
