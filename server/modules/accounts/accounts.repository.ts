import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import { users } from '#server/db/schema.ts';

export interface UserRow {
  id: string;
  username: string;
  passwordHash: string;
  name: string;
  email: string | null;
  phone: string | null;
  preferredHood: string | null;
}

export async function insertUser(db: Db, user: Omit<UserRow, 'id'>): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row;
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findStaffByUsername(db: Db, username: string): Promise<{ id: string; restaurantId: string; passwordHash: string } | undefined> {
  const rows = await queryRows<{ id: string; restaurant_id: string; password_hash: string }>(
    db,
    sql`SELECT id, restaurant_id, password_hash FROM staff_accounts WHERE lower(username) = lower(${username})`,
  );
  const row = rows[0];
  return row && { id: row.id, restaurantId: row.restaurant_id, passwordHash: row.password_hash };
}

/** A platform moderator by username, whatever its case (decision 185). */
export async function findModeratorByUsername(db: Db, username: string): Promise<{ id: string; passwordHash: string } | undefined> {
  const rows = await queryRows<{ id: string; password_hash: string }>(
    db,
    sql`SELECT id, password_hash FROM platform_moderators WHERE lower(username) = lower(${username})`,
  );
  const row = rows[0];
  return row && { id: row.id, passwordHash: row.password_hash };
}

/** Adds a platform moderator unless one of that username exists; answers whether it was added. */
export async function insertModeratorIfMissing(db: Db, moderator: { username: string; passwordHash: string }): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`INSERT INTO platform_moderators (username, password_hash) VALUES (${moderator.username}, ${moderator.passwordHash})
        ON CONFLICT ((lower(username))) DO NOTHING RETURNING id`,
  );
  return rows.length === 1;
}

/** The diner's contact details, for the erasure of what was sent to them. */
export async function findContactsOfUser(
  db: Db,
  id: string,
): Promise<{ email: string | null; phone: string | null; verified_phone: string | null } | undefined> {
  const [row] = await queryRows<{ email: string | null; phone: string | null; verified_phone: string | null }>(
    db,
    sql`SELECT email, phone, verified_phone FROM users WHERE id = ${id} AND deleted_at IS NULL FOR UPDATE`,
  );
  return row;
}

/**
 * A deleted account (decision 266): the row stays, because bookings and the payment ledger point
 * at it, with nothing personal left: a random username no one types, no password, no name, no
 * contact details. Its sessions, phone codes and password resets go.
 */
export async function emptyUser(db: Db, id: string, placeholderUsername: string, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE users SET username = ${placeholderUsername}, password_hash = '!', name = '', email = NULL, phone = NULL, preferred_hood = NULL,
          verified_phone = NULL, phone_verified_at = NULL, email_verified_at = NULL, deleted_at = ${now.toISOString()}
        WHERE id = ${id}`,
  );
  await db.execute(sql`DELETE FROM sessions WHERE kind = 'diner' AND subject_id = ${id}`);
  await db.execute(sql`DELETE FROM phone_verifications WHERE user_id = ${id}`);
  await db.execute(sql`DELETE FROM password_resets WHERE account_kind = 'diner' AND subject_id = ${id}`);
}
