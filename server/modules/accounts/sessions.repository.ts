import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import { sessions } from '#server/db/schema.ts';

export type SessionKind = 'diner' | 'staff' | 'dating' | 'moderator';

export async function insertSession(db: Db, session: { tokenHash: string; kind: SessionKind; subjectId: string; expiresAt: Date }): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The live session for a token hash, with the staff account's restaurant when it is a staff session. */
export async function findLiveSession(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ kind: SessionKind; subjectId: string; restaurantId: string | null } | undefined> {
  const rows = await queryRows<{ kind: SessionKind; subject_id: string; restaurant_id: string | null }>(
    db,
    sql`SELECT s.kind, s.subject_id, sa.restaurant_id
        FROM sessions s
        LEFT JOIN staff_accounts sa ON s.kind = 'staff' AND sa.id = s.subject_id
        WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND s.expires_at > ${now.toISOString()}`,
  );
  const row = rows[0];
  return row && { kind: row.kind, subjectId: row.subject_id, restaurantId: row.restaurant_id };
}

export async function revokeSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
}

/** Revokes every live session of one account (a suspended dating member's); answers how many. */
export async function revokeSessionsOf(db: Db, kind: SessionKind, subjectId: string, now: Date): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.kind, kind), eq(sessions.subjectId, subjectId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.length;
}
