import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/** The outbox's SQL: messages are written in the caller's transaction and sent after it commits. */

import type { TextTemplate } from './drivers.ts';

export type OutboxChannel = 'email' | 'sms' | 'whatsapp';

export interface OutboxRow {
  id: string;
  channel: OutboxChannel;
  recipient: string;
  user_id: string | null;
  subject: string;
  body: string;
  created_at: Date | string;
  sent_at: Date | string | null;
  attempts: number;
  template: TextTemplate | null;
}

export async function insertOutboxMessage(
  db: Db,
  message: { channel: OutboxChannel; recipient: string; userId: string | null; subject: string; body: string; template?: TextTemplate; now: Date },
): Promise<string> {
  const template = message.template ? JSON.stringify(message.template) : null;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO outbox_messages (channel, recipient, user_id, subject, body, template, created_at)
        VALUES (${message.channel}, ${message.recipient}, ${message.userId}, ${message.subject}, ${message.body}, ${template}::jsonb, ${message.now.toISOString()})
        RETURNING id`,
  );
  return row.id;
}

/**
 * Claims up to `limit` unsent messages due at `now` for one sending attempt: each claim moves
 * next_attempt_at forward by `leaseSeconds`, so another instance skips it meanwhile.
 */
export function claimDueMessages(
  db: Db,
  now: Date,
  options: { limit: number; leaseSeconds: number; maxAttempts: number; ids?: string[] },
): Promise<OutboxRow[]> {
  const at = now.toISOString();
  const onlyThese = options.ids ? sql`AND id = ANY(${toPgArray(options.ids)}::uuid[])` : sql``;
  return queryRows<OutboxRow>(
    db,
    sql`UPDATE outbox_messages SET attempts = attempts + 1,
          next_attempt_at = ${new Date(now.getTime() + options.leaseSeconds * 1000).toISOString()}
        WHERE id IN (
          SELECT id FROM outbox_messages
          WHERE sent_at IS NULL AND attempts < ${options.maxAttempts} AND (next_attempt_at IS NULL OR next_attempt_at <= ${at}) ${onlyThese}
          ORDER BY created_at LIMIT ${options.limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, channel, recipient, user_id, subject, body, created_at, sent_at, attempts, template`,
  );
}

export async function markMessageSent(db: Db, id: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE outbox_messages SET sent_at = ${now.toISOString()}, last_error = NULL WHERE id = ${id}`);
}

export async function markMessageFailed(db: Db, id: string, error: string, retryAt: Date): Promise<void> {
  await db.execute(sql`UPDATE outbox_messages SET last_error = ${error.slice(0, 500)}, next_attempt_at = ${retryAt.toISOString()} WHERE id = ${id}`);
}

/** The newest messages, optionally to one recipient and only those addressed to one account (the dev mailbox). */
export function listRecentMessages(db: Db, options: { limit: number; recipient?: string; userId?: string; ids?: string[] }): Promise<OutboxRow[]> {
  const filter = sql`WHERE true ${options.recipient ? sql`AND recipient = ${options.recipient}` : sql``} ${options.userId ? sql`AND user_id = ${options.userId}` : sql``}
    ${options.ids ? sql`AND id = ANY(${toPgArray(options.ids)}::uuid[])` : sql``}`;
  return queryRows<OutboxRow>(
    db,
    sql`SELECT id, channel, recipient, user_id, subject, body, created_at, sent_at, attempts, template FROM outbox_messages ${filter}
        ORDER BY created_at DESC, id DESC LIMIT ${options.limit}`,
  );
}

/** A diner's email address, if they gave one. */
export async function findUserEmail(db: Db, userId: string): Promise<string | null> {
  const [row] = await queryRows<{ email: string | null }>(db, sql`SELECT email FROM users WHERE id = ${userId}`);
  return row?.email ?? null;
}

/** The outbox's backlog for /metrics: unsent messages, the oldest one's age at `now`, and those whose last attempt failed. */
export async function readOutboxStats(db: Db, now: Date): Promise<{ unsent: number; oldestUnsentSeconds: number; failing: number }> {
  const [row] = await queryRows<{ unsent: number; oldest_seconds: number | null; failing: number }>(
    db,
    sql`SELECT count(*)::int AS unsent,
               extract(epoch FROM (${now.toISOString()}::timestamptz - min(created_at)))::float8 AS oldest_seconds,
               (count(*) FILTER (WHERE last_error IS NOT NULL))::int AS failing
        FROM outbox_messages WHERE sent_at IS NULL`,
  );
  return { unsent: row?.unsent ?? 0, oldestUnsentSeconds: Math.max(0, row?.oldest_seconds ?? 0), failing: row?.failing ?? 0 };
}

/** Every message to or about a diner, removed (the account was deleted, decision 266). */
export async function deleteMessagesOf(db: Db, userId: string, recipients: readonly string[]): Promise<void> {
  await db.execute(sql`DELETE FROM outbox_messages WHERE user_id = ${userId} OR recipient = ANY(${toPgArray([...recipients])}::text[])`);
}
