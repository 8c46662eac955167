import { sql } from 'drizzle-orm';
import type { ResettableAccount } from '#common/domain/password-reset.ts';
import { containsPattern, queryRows, type Db } from '#server/db/client.ts';

/** SQL for password resets (decision 230) and the accounts' own rows they read and write. */

export interface PasswordResetRow {
  id: string;
  account_kind: ResettableAccount;
  subject_id: string | null;
  code_salt: string;
  code_hash: string;
  attempts: number;
  expires_at: Date | string;
  consumed_at: Date | string | null;
}

export async function insertPasswordReset(
  db: Db,
  reset: { kind: ResettableAccount; lookupHash: string; codeSalt: string; codeHash: string; ip: string | null; now: Date; expiresAt: Date },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO password_resets (account_kind, lookup_hash, code_salt, code_hash, requested_ip, created_at, expires_at)
        VALUES (${reset.kind}, ${reset.lookupHash}, ${reset.codeSalt}, ${reset.codeHash}, ${reset.ip}, ${reset.now.toISOString()}, ${reset.expiresAt.toISOString()})
        RETURNING id`,
  );
  return row.id;
}

/** Requests that named one address since `since`, account or not. */
export async function countResetsForLookup(db: Db, lookupHash: string, since: Date): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM password_resets WHERE lookup_hash = ${lookupHash} AND created_at > ${since.toISOString()}`,
  );
  return row.count;
}

/** Codes sent to one account since `since` (rows whose code went out). */
export async function countCodesSentTo(db: Db, kind: ResettableAccount, subjectId: string, since: Date): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM password_resets
        WHERE account_kind = ${kind} AND subject_id = ${subjectId} AND channel IN ('email', 'sms') AND created_at > ${since.toISOString()}`,
  );
  return row.count;
}

/** The request now stands for a real account, with the code that was sent to it. */
export async function attachResetToAccount(
  db: Db,
  id: string,
  account: { subjectId: string; channel: 'email' | 'sms'; codeSalt: string; codeHash: string },
): Promise<void> {
  await db.execute(
    sql`UPDATE password_resets SET subject_id = ${account.subjectId}, channel = ${account.channel}, code_salt = ${account.codeSalt}, code_hash = ${account.codeHash}
        WHERE id = ${id}`,
  );
}

export async function lockPasswordReset(db: Db, id: string): Promise<PasswordResetRow | undefined> {
  const [row] = await queryRows<PasswordResetRow>(
    db,
    sql`SELECT id, account_kind, subject_id, code_salt, code_hash, attempts, expires_at, consumed_at FROM password_resets WHERE id = ${id} FOR UPDATE`,
  );
  return row;
}

export async function countFailedResetAttempt(db: Db, id: string): Promise<number> {
  const [row] = await queryRows<{ attempts: number }>(db, sql`UPDATE password_resets SET attempts = attempts + 1 WHERE id = ${id} RETURNING attempts`);
  return row.attempts;
}

/** Uses up every open request of the account (the one just used, and any older code still out). */
export async function consumeResetsOf(db: Db, kind: ResettableAccount, subjectId: string, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE password_resets SET consumed_at = ${now.toISOString()}
        WHERE account_kind = ${kind} AND subject_id = ${subjectId} AND consumed_at IS NULL`,
  );
}

/** The platform's new password for staff, kept with who set it (decision 231). */
export async function recordPlatformReset(db: Db, reset: { staffId: string; moderatorId: string; lookupHash: string; now: Date }): Promise<void> {
  await db.execute(
    sql`INSERT INTO password_resets (account_kind, subject_id, lookup_hash, channel, code_salt, code_hash, moderator_id, created_at, expires_at, consumed_at)
        VALUES ('staff', ${reset.staffId}, ${reset.lookupHash}, 'platform', '', '', ${reset.moderatorId},
                ${reset.now.toISOString()}, ${reset.now.toISOString()}, ${reset.now.toISOString()})`,
  );
}

// ---- The accounts' rows (accounts owns users and staff_accounts) ----

export interface DinerContact {
  id: string;
  email: string | null;
  email_verified_at: Date | string | null;
  verified_phone: string | null;
}

export async function findDinerForReset(db: Db, by: { username?: string; verifiedEmail?: string; verifiedPhone?: string }): Promise<DinerContact | undefined> {
  const where = by.verifiedEmail
    ? sql`lower(email) = lower(${by.verifiedEmail}) AND email_verified_at IS NOT NULL`
    : by.verifiedPhone
      ? sql`verified_phone = ${by.verifiedPhone}`
      : sql`lower(username) = lower(${by.username ?? ''})`;
  const [row] = await queryRows<DinerContact>(db, sql`SELECT id, email, email_verified_at, verified_phone FROM users WHERE ${where}`);
  return row;
}

export async function findStaffForReset(db: Db, username: string): Promise<{ id: string; email: string | null } | undefined> {
  const [row] = await queryRows<{ id: string; email: string | null }>(db, sql`SELECT id, email FROM staff_accounts WHERE lower(username) = lower(${username})`);
  return row;
}

export async function setDinerPasswordHash(db: Db, userId: string, passwordHash: string): Promise<boolean> {
  const rows = await queryRows(db, sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${userId} RETURNING id`);
  return rows.length === 1;
}

export async function setStaffPasswordHash(db: Db, staffId: string, passwordHash: string): Promise<boolean> {
  const rows = await queryRows(db, sql`UPDATE staff_accounts SET password_hash = ${passwordHash} WHERE id = ${staffId} RETURNING id`);
  return rows.length === 1;
}

/** Marks the diner's email verified when it is still the address the link was sent to; false otherwise. */
export async function markDinerEmailVerified(db: Db, userId: string, email: string, now: Date): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`UPDATE users SET email_verified_at = COALESCE(email_verified_at, ${now.toISOString()})
        WHERE id = ${userId} AND lower(email) = lower(${email}) RETURNING id`,
  );
  return rows.length === 1;
}

/** Staff accounts whose username, email or restaurant name contains `query` (for platform moderators). */
export async function searchStaffAccounts(db: Db, query: string, limit: number) {
  const pattern = containsPattern(query);
  return queryRows<{ id: string; username: string; email: string | null; restaurant_id: string; restaurant_name: string; restaurant_slug: string }>(
    db,
    sql`SELECT sa.id, sa.username, sa.email, r.id AS restaurant_id, r.name AS restaurant_name, r.slug AS restaurant_slug
        FROM staff_accounts sa JOIN restaurants r ON r.id = sa.restaurant_id
        WHERE lower(sa.username) LIKE ${pattern} OR lower(coalesce(sa.email, '')) LIKE ${pattern} OR lower(r.name) LIKE ${pattern}
        ORDER BY r.name, sa.username LIMIT ${limit}`,
  );
}

export async function findStaffAccount(db: Db, staffId: string): Promise<{ id: string; username: string } | undefined> {
  const [row] = await queryRows<{ id: string; username: string }>(db, sql`SELECT id, username FROM staff_accounts WHERE id = ${staffId} FOR UPDATE`);
  return row;
}
