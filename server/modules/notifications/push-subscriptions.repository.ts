import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import type { OptionalChannel } from '#common/domain/delivery-policy.ts';

/** Push subscriptions and the channels a diner turned off (migration 0028, decision 212). */

export interface PushSubscriptionRow {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Keeps a browser's subscription for `userId`. The endpoint is the browser's: subscribing again
 * from it (after a sign-out and another sign-in) moves it to the account now signed in.
 */
export async function upsertPushSubscription(db: Db, row: { userId: string; endpoint: string; p256dh: string; auth: string; now: Date }): Promise<void> {
  await db.execute(
    sql`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at)
        VALUES (${row.userId}, ${row.endpoint}, ${row.p256dh}, ${row.auth}, ${row.now.toISOString()})
        ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
          created_at = EXCLUDED.created_at, last_failure_at = NULL, last_failure = NULL`,
  );
}

/** Removes one browser's subscription of one account; true when there was one. */
export async function deletePushSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`DELETE FROM push_subscriptions WHERE user_id = ${userId} AND endpoint = ${endpoint} RETURNING id`);
  return rows.length > 0;
}

/** The push service says the subscription is gone (404, 410): it is deleted. */
export async function deletePushSubscriptionById(db: Db, id: string): Promise<void> {
  await db.execute(sql`DELETE FROM push_subscriptions WHERE id = ${id}`);
}

export function listPushSubscriptions(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return queryRows<PushSubscriptionRow>(
    db,
    sql`SELECT id, user_id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT 20`,
  );
}

export async function countPushSubscriptions(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM push_subscriptions WHERE user_id = ${userId}`);
  return row?.count ?? 0;
}

export async function hasPushSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`SELECT id FROM push_subscriptions WHERE user_id = ${userId} AND endpoint = ${endpoint}`);
  return rows.length > 0;
}

export async function recordPushOutcome(db: Db, id: string, now: Date, failure: string | null): Promise<void> {
  await db.execute(
    failure === null
      ? sql`UPDATE push_subscriptions SET last_success_at = ${now.toISOString()} WHERE id = ${id}`
      : sql`UPDATE push_subscriptions SET last_failure_at = ${now.toISOString()}, last_failure = ${failure.slice(0, 300)} WHERE id = ${id}`,
  );
}

/** The channels the diner turned off; none when they never chose. */
export async function readDeclinedChannels(db: Db, userId: string): Promise<OptionalChannel[]> {
  const [row] = await queryRows<{ push: boolean; whatsapp: boolean; sms: boolean }>(
    db,
    sql`SELECT push, whatsapp, sms FROM notification_preferences WHERE user_id = ${userId}`,
  );
  if (!row) return [];
  return (['push', 'whatsapp', 'sms'] as const).filter((channel) => !row[channel]);
}

export async function writeChannelChoices(db: Db, userId: string, choices: Record<OptionalChannel, boolean>, now: Date): Promise<void> {
  await db.execute(
    sql`INSERT INTO notification_preferences (user_id, push, whatsapp, sms, updated_at)
        VALUES (${userId}, ${choices.push}, ${choices.whatsapp}, ${choices.sms}, ${now.toISOString()})
        ON CONFLICT (user_id) DO UPDATE SET push = EXCLUDED.push, whatsapp = EXCLUDED.whatsapp, sms = EXCLUDED.sms, updated_at = EXCLUDED.updated_at`,
  );
}

/** Where push and the diner's choices leave a message: their account when a browser subscribed and push is on. */
export async function findPushReach(db: Db, userId: string): Promise<{ pushTo: string | null; declined: OptionalChannel[] }> {
  const declined = await readDeclinedChannels(db, userId);
  const pushTo = !declined.includes('push') && (await countPushSubscriptions(db, userId)) > 0 ? userId : null;
  return { pushTo, declined };
}

/** A deleted account's browsers and choices (decision 266): no push reaches it again. */
export async function deletePushDataOf(db: Db, userId: string): Promise<void> {
  await db.execute(sql`DELETE FROM push_subscriptions WHERE user_id = ${userId}`);
  await db.execute(sql`DELETE FROM notification_preferences WHERE user_id = ${userId}`);
}
