import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';

/** SQL for a dating member's forgotten password (decision 230): dating owns dating_users. */

export async function findMemberPhone(db: Db, phone: string): Promise<{ id: string; phone: string } | undefined> {
  const [row] = await queryRows<{ id: string; phone: string }>(db, sql`SELECT id, phone FROM dating_users WHERE phone = ${phone}`);
  return row;
}

export async function setMemberPasswordHash(db: Db, memberId: string, passwordHash: string): Promise<boolean> {
  const rows = await queryRows(db, sql`UPDATE dating_users SET password_hash = ${passwordHash} WHERE id = ${memberId} RETURNING id`);
  return rows.length === 1;
}
