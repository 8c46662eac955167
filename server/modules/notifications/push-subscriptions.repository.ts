import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import type { OptionalChannel } from '#common/domain/delivery-policy.ts';

/** Push subscriptions and the channels a diner or dating member turned off (migrations 0028 and 0030, decisions 212 and 219). */

/** Whose browsers: a diner's (users) or a dating member's (dating_users), two separate accounts (decision 219). */
export type PushOwner = { userId: string } | { datingUserId: string };

const DATING_RECIPIENT = 'dating:';

/** The outbox's recipient of a push: a diner's account id as before, a dating member's as `dating:<id>`. */
export function pushRecipientOf(owner: PushOwner): string {
  return 'userId' in owner ? owner.userId : `${DATING_RECIPIENT}${owner.datingUserId}`;
}

/** The owner a push row's recipient names. */
export function pushOwnerOf(recipient: string): PushOwner {
  return recipient.startsWith(DATING_RECIPIENT) ? { datingUserId: recipient.slice(DATING_RECIPIENT.length) } : { userId: recipient };
}

const ownedBy = (owner: PushOwner) => ('userId' in owner ? sql`user_id = ${owner.userId}` : sql`dating_user_id = ${owner.datingUserId}`);

export interface PushSubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Keeps a browser's subscription for `owner`. The endpoint is the browser's: subscribing again
 * from it (after a sign-out and another sign-in) moves it to the account of the same kind now
 * signed in; a diner's and a dating member's subscription of one browser are two rows (decision 219).
 */
export async function upsertPushSubscription(db: Db, owner: PushOwner, row: { endpoint: string; p256dh: string; auth: string; now: Date }): Promise<void> {
  const userId = 'userId' in owner ? owner.userId : null;
  const datingUserId = 'datingUserId' in owner ? owner.datingUserId : null;
  const [column, kind] = userId ? [sql.raw('user_id'), sql.raw('user_id IS NOT NULL')] : [sql.raw('dating_user_id'), sql.raw('dating_user_id IS NOT NULL')];
  await db.execute(
    sql`INSERT INTO push_subscriptions (user_id, dating_user_id, endpoint, p256dh, auth, created_at)
        VALUES (${userId}, ${datingUserId}, ${row.endpoint}, ${row.p256dh}, ${row.auth}, ${row.now.toISOString()})
        ON CONFLICT (endpoint) WHERE ${kind} DO UPDATE SET ${column} = EXCLUDED.${column}, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
          created_at = EXCLUDED.created_at, last_failure_at = NULL, last_failure = NULL`,
  );
}

/** Removes one browser's subscription of one account; true when there was one. */
export async function deletePushSubscription(db: Db, owner: PushOwner, endpoint: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`DELETE FROM push_subscriptions WHERE ${ownedBy(owner)} AND endpoint = ${endpoint} RETURNING id`);
  return rows.length > 0;
}

/** The push service says the subscription is gone (404, 410): it is deleted. */
export async function deletePushSubscriptionById(db: Db, id: string): Promise<void> {
  await db.execute(sql`DELETE FROM push_subscriptions WHERE id = ${id}`);
}

export function listPushSubscriptions(db: Db, owner: PushOwner): Promise<PushSubscriptionRow[]> {
  return queryRows<PushSubscriptionRow>(
    db,
    sql`SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE ${ownedBy(owner)} ORDER BY created_at DESC LIMIT 20`,
  );
}

export async function countPushSubscriptions(db: Db, owner: PushOwner): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM push_subscriptions WHERE ${ownedBy(owner)}`);
  return row?.count ?? 0;
}

export async function hasPushSubscription(db: Db, owner: PushOwner, endpoint: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`SELECT id FROM push_subscriptions WHERE ${ownedBy(owner)} AND endpoint = ${endpoint}`);
  return rows.length > 0;
}

export async function recordPushOutcome(db: Db, id: string, now: Date, failure: string | null): Promise<void> {
  await db.execute(
    failure === null
      ? sql`UPDATE push_subscriptions SET last_success_at = ${now.toISOString()} WHERE id = ${id}`
      : sql`UPDATE push_subscriptions SET last_failure_at = ${now.toISOString()}, last_failure = ${failure.slice(0, 300)} WHERE id = ${id}`,
  );
}

/** The channels the diner (or dating member) turned off; none when they never chose. */
export async function readDeclinedChannels(db: Db, owner: PushOwner): Promise<OptionalChannel[]> {
  const [row] = await queryRows<{ push: boolean; whatsapp: boolean; sms: boolean }>(
    db,
    sql`SELECT push, whatsapp, sms FROM notification_preferences WHERE ${ownedBy(owner)}`,
  );
  if (!row) return [];
  return (['push', 'whatsapp', 'sms'] as const).filter((channel) => !row[channel]);
}

export async function writeChannelChoices(db: Db, owner: PushOwner, choices: Record<OptionalChannel, boolean>, now: Date): Promise<void> {
  const userId = 'userId' in owner ? owner.userId : null;
  const datingUserId = 'datingUserId' in owner ? owner.datingUserId : null;
  const key = sql.raw(userId ? 'user_id' : 'dating_user_id');
  await db.execute(
    sql`INSERT INTO notification_preferences (user_id, dating_user_id, push, whatsapp, sms, updated_at)
        VALUES (${userId}, ${datingUserId}, ${choices.push}, ${choices.whatsapp}, ${choices.sms}, ${now.toISOString()})
        ON CONFLICT (${key}) DO UPDATE SET push = EXCLUDED.push, whatsapp = EXCLUDED.whatsapp, sms = EXCLUDED.sms, updated_at = EXCLUDED.updated_at`,
  );
}

/** Where push and the owner's choices leave a message: the owner's recipient when a browser subscribed and push is on. */
export async function findPushReach(db: Db, owner: PushOwner): Promise<{ pushTo: string | null; declined: OptionalChannel[] }> {
  const declined = await readDeclinedChannels(db, owner);
  const pushTo = !declined.includes('push') && (await countPushSubscriptions(db, owner)) > 0 ? pushRecipientOf(owner) : null;
  return { pushTo, declined };
}

/**
 * A deleted account's browsers and choices (decisions 266, 219): no push reaches it again. A dating
 * member's pushes (they name the date and the other member) go too; a diner's messages are erased
 * with the rest of their outbox.
 */
export async function deletePushDataOf(db: Db, owner: PushOwner): Promise<void> {
  await db.execute(sql`DELETE FROM push_subscriptions WHERE ${ownedBy(owner)}`);
  await db.execute(sql`DELETE FROM notification_preferences WHERE ${ownedBy(owner)}`);
  if ('datingUserId' in owner) await db.execute(sql`DELETE FROM outbox_messages WHERE recipient = ${pushRecipientOf(owner)}`);
}
