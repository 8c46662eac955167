import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/** The outbox's SQL: messages are written in the caller's transaction and sent after it commits. */

import type { DeliveryStatus, MessageKind } from '#common/domain/delivery-policy.ts';
import type { TextTemplate } from './drivers.ts';

export type OutboxChannel = 'email' | 'sms' | 'whatsapp' | 'push';

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
  kind: MessageKind | null;
  delivery_status: DeliveryStatus;
  fallbacks: { channel: OutboxChannel; recipient: string }[];
  /** The screen a push notification opens (decision 212). */
  link: string | null;
}

const COLUMNS = sql.raw('id, channel, recipient, user_id, subject, body, created_at, sent_at, attempts, template, kind, delivery_status, fallbacks, link');

/**
 * Writes one message. With an idempotency key, a second write of the same key (another instance,
 * a retried job) writes nothing and returns null: the message goes to its person once.
 */
export async function insertOutboxMessage(
  db: Db,
  message: {
    channel: OutboxChannel;
    recipient: string;
    userId: string | null;
    subject: string;
    body: string;
    template?: TextTemplate;
    now: Date;
    kind?: MessageKind;
    idempotencyKey?: string;
    fallbacks?: { channel: OutboxChannel; recipient: string }[];
    link?: string | null;
  },
): Promise<string | null> {
  const template = message.template ? JSON.stringify(message.template) : null;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO outbox_messages (channel, recipient, user_id, subject, body, template, created_at, kind, idempotency_key, fallbacks, link)
        VALUES (${message.channel}, ${message.recipient}, ${message.userId}, ${message.subject}, ${message.body}, ${template}::jsonb,
                ${message.now.toISOString()}, ${message.kind ?? null}, ${message.idempotencyKey ?? null}, ${JSON.stringify(message.fallbacks ?? [])}::jsonb,
                ${message.link ?? null})
        ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING id`,
  );
  return row?.id ?? null;
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
          WHERE sent_at IS NULL AND delivery_status = 'queued' AND attempts < ${options.maxAttempts} AND (next_attempt_at IS NULL OR next_attempt_at <= ${at}) ${onlyThese}
          ORDER BY created_at LIMIT ${options.limit} FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS}`,
  );
}

/** The provider took the message: sent, with its id for the receipts to name. */
export async function markMessageSent(db: Db, id: string, now: Date, providerMessageId: string | null = null): Promise<void> {
  await db.execute(
    sql`UPDATE outbox_messages SET sent_at = ${now.toISOString()}, last_error = NULL, delivery_status = 'sent', status_at = ${now.toISOString()},
          provider_message_id = ${providerMessageId}
        WHERE id = ${id} AND delivery_status = 'queued'`,
  );
}

/** An attempt failed and will be tried again at `retryAt`. */
export async function markMessageFailed(db: Db, id: string, error: string, retryAt: Date): Promise<void> {
  await db.execute(sql`UPDATE outbox_messages SET last_error = ${error.slice(0, 500)}, next_attempt_at = ${retryAt.toISOString()} WHERE id = ${id}`);
}

/**
 * This channel is done with the message for good. With a fallback left, the message moves to the
 * next channel and is due at once (attempts start again); otherwise it ends as failed. Returns
 * which of the two happened, or null when the message had already moved on (a late receipt).
 */
export async function failMessageOnChannel(
  db: Db,
  where: { id: string } | { channel: OutboxChannel; providerMessageId: string },
  error: string,
  now: Date,
): Promise<{ outcome: 'next_channel' | 'failed'; row: OutboxRow } | null> {
  const match = 'id' in where ? sql`id = ${where.id}` : sql`channel = ${where.channel} AND provider_message_id = ${where.providerMessageId}`;
  const [row] = await queryRows<OutboxRow>(
    db,
    sql`UPDATE outbox_messages SET
          channel = CASE WHEN jsonb_array_length(fallbacks) > 0 THEN fallbacks->0->>'channel' ELSE channel END,
          recipient = CASE WHEN jsonb_array_length(fallbacks) > 0 THEN fallbacks->0->>'recipient' ELSE recipient END,
          delivery_status = CASE WHEN jsonb_array_length(fallbacks) > 0 THEN 'queued' ELSE 'failed' END,
          attempts = CASE WHEN jsonb_array_length(fallbacks) > 0 THEN 0 ELSE attempts END,
          sent_at = NULL, provider_message_id = NULL, next_attempt_at = NULL,
          fallbacks = CASE WHEN jsonb_array_length(fallbacks) > 0 THEN fallbacks - 0 ELSE fallbacks END,
          last_error = ${error.slice(0, 500)}, status_at = ${now.toISOString()}
        WHERE ${match} AND delivery_status IN ('queued', 'sent')
        RETURNING ${COLUMNS}`,
  );
  if (!row) return null;
  return { outcome: row.delivery_status === 'failed' ? 'failed' : 'next_channel', row };
}

/**
 * A provider's receipt says the message reached the phone: recorded once, on a sent message.
 * Returns the message, or null when the id is unknown or it was already delivered or failed.
 */
export async function recordDelivered(db: Db, receipt: { channel: OutboxChannel; providerMessageId: string }, now: Date): Promise<OutboxRow | null> {
  const [row] = await queryRows<OutboxRow>(
    db,
    sql`UPDATE outbox_messages SET delivery_status = 'delivered', status_at = ${now.toISOString()}
        WHERE channel = ${receipt.channel} AND provider_message_id = ${receipt.providerMessageId} AND delivery_status = 'sent'
        RETURNING ${COLUMNS}`,
  );
  return row ?? null;
}

/** The newest messages, optionally to one recipient and only those addressed to one account (the dev mailbox). */
export function listRecentMessages(db: Db, options: { limit: number; recipient?: string; userId?: string; ids?: string[] }): Promise<OutboxRow[]> {
  const filter = sql`WHERE true ${options.recipient ? sql`AND recipient = ${options.recipient}` : sql``} ${options.userId ? sql`AND user_id = ${options.userId}` : sql``}
    ${options.ids ? sql`AND id = ANY(${toPgArray(options.ids)}::uuid[])` : sql``}`;
  return queryRows<OutboxRow>(
    db,
    sql`SELECT ${COLUMNS} FROM outbox_messages ${filter}
        ORDER BY created_at DESC, id DESC LIMIT ${options.limit}`,
  );
}

/** Where a diner can be reached: the email they gave and the phone they verified, if any. */
export async function findUserAddresses(db: Db, userId: string): Promise<{ email: string | null; phone: string | null }> {
  const [row] = await queryRows<{ email: string | null; verified_phone: string | null }>(db, sql`SELECT email, verified_phone FROM users WHERE id = ${userId}`);
  return { email: row?.email ?? null, phone: row?.verified_phone ?? null };
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
        FROM outbox_messages WHERE sent_at IS NULL AND delivery_status = 'queued'`,
  );
  return { unsent: row?.unsent ?? 0, oldestUnsentSeconds: Math.max(0, row?.oldest_seconds ?? 0), failing: row?.failing ?? 0 };
}

/** Every message to or about a diner, removed (the account was deleted, decision 266). */
export async function deleteMessagesOf(db: Db, userId: string, recipients: readonly string[]): Promise<void> {
  await db.execute(sql`DELETE FROM outbox_messages WHERE user_id = ${userId} OR recipient = ANY(${toPgArray([...recipients])}::text[])`);
}
