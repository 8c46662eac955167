import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/** The reminders' SQL: what is due, claimed by writing its row (the unique key makes it once). */

export interface ClaimedReminder {
  reservation_id: string;
  offset_minutes: number;
  user_id: string;
  restaurant_name: string;
  slot_date: string;
  slot_time: string;
  party_size: number;
  starts_at: Date | string;
  verified_phone: string | null;
}

/**
 * Claims up to `limit` reminders due at `now` and returns what their messages need. A reminder is
 * due when its offset before the start has passed, the start has not, the reservation is live
 * (PENDING or CONFIRMED: never after a cancel, a no-show or a seat) and was made before the
 * reminder's moment, and no shorter offset is due too (a late sweep sends the nearest reminder
 * only). Its row, keyed by reservation, offset and start, is inserted in `tx`: another instance's
 * insert of the same key waits for `tx` and then does nothing, so each goes out once.
 */
export function claimDueReminders(tx: Db, now: Date, offsetsMinutes: readonly number[], limit: number): Promise<ClaimedReminder[]> {
  const at = now.toISOString();
  const offsets = toPgArray(offsetsMinutes);
  const longest = Math.max(...offsetsMinutes);
  return queryRows<ClaimedReminder>(
    tx,
    sql`WITH due AS (
          SELECT r.id, o.m, r.starts_at
          FROM reservations r CROSS JOIN unnest(${offsets}::int[]) AS o(m)
          WHERE r.status IN ('PENDING', 'CONFIRMED')
            AND r.starts_at > ${at}::timestamptz
            AND r.starts_at <= ${at}::timestamptz + make_interval(mins => ${longest}::int)
            AND r.starts_at - make_interval(mins => o.m) <= ${at}::timestamptz
            AND r.created_at < r.starts_at - make_interval(mins => o.m)
            AND NOT EXISTS (
              SELECT 1 FROM unnest(${offsets}::int[]) AS shorter(m)
              WHERE shorter.m < o.m AND r.starts_at - make_interval(mins => shorter.m) <= ${at}::timestamptz)
            AND NOT EXISTS (SELECT 1 FROM restaurant_reminder_opt_outs x WHERE x.restaurant_id = r.restaurant_id)
            AND NOT EXISTS (
              SELECT 1 FROM reservation_reminders rr
              WHERE rr.reservation_id = r.id AND rr.offset_minutes = o.m AND rr.starts_at = r.starts_at)
          ORDER BY r.starts_at
          LIMIT ${limit}
        ), claimed AS (
          INSERT INTO reservation_reminders (reservation_id, offset_minutes, starts_at, queued_at)
          SELECT id, m, starts_at, ${at}::timestamptz FROM due
          ON CONFLICT DO NOTHING
          RETURNING reservation_id, offset_minutes
        )
        SELECT c.reservation_id, c.offset_minutes, r.user_id, rest.name AS restaurant_name,
               to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time, r.party_size, r.starts_at, u.verified_phone
        FROM claimed c
        JOIN reservations r ON r.id = c.reservation_id
        JOIN slots s ON s.id = r.slot_id
        JOIN restaurants rest ON rest.id = r.restaurant_id
        JOIN users u ON u.id = r.user_id`,
  );
}

export async function setRemindersOff(db: Db, restaurantId: string, off: boolean, now: Date): Promise<void> {
  if (off) {
    await db.execute(
      sql`INSERT INTO restaurant_reminder_opt_outs (restaurant_id, created_at) VALUES (${restaurantId}, ${now.toISOString()}) ON CONFLICT DO NOTHING`,
    );
  } else await db.execute(sql`DELETE FROM restaurant_reminder_opt_outs WHERE restaurant_id = ${restaurantId}`);
}

export async function remindersAreOff(db: Db, restaurantId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one FROM restaurant_reminder_opt_outs WHERE restaurant_id = ${restaurantId}`);
  return rows.length > 0;
}

export type StoredReply = 'coming' | 'released';

/** The diner's latest answer to a reminder, if any. */
export async function findReply(db: Db, reservationId: string): Promise<StoredReply | undefined> {
  const [row] = await queryRows<{ reply: StoredReply }>(db, sql`SELECT reply FROM reminder_replies WHERE reservation_id = ${reservationId}`);
  return row?.reply;
}

/** Records "I'm coming"; false when it was already recorded (a second tap changes nothing). */
export async function insertComingReply(db: Db, reservationId: string, now: Date): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`INSERT INTO reminder_replies (reservation_id, reply, replied_at) VALUES (${reservationId}, 'coming', ${now.toISOString()})
        ON CONFLICT (reservation_id) DO NOTHING RETURNING reservation_id`,
  );
  return rows.length > 0;
}

/** Records "Release my table", in the release's own transaction; it replaces an earlier "I'm coming". */
export async function upsertReleasedReply(db: Db, reservationId: string, now: Date): Promise<void> {
  await db.execute(
    sql`INSERT INTO reminder_replies (reservation_id, reply, replied_at) VALUES (${reservationId}, 'released', ${now.toISOString()})
        ON CONFLICT (reservation_id) DO UPDATE SET reply = 'released', replied_at = EXCLUDED.replied_at`,
  );
}

/** For each reservation that has an answer or had a reminder: its answer, or null for none yet. */
export async function listReplies(db: Db, reservationIds: readonly string[]): Promise<Map<string, StoredReply | null>> {
  if (reservationIds.length === 0) return new Map();
  const rows = await queryRows<{ reservation_id: string; reply: StoredReply | null }>(
    db,
    sql`SELECT ids.id AS reservation_id, rr.reply
        FROM unnest(${toPgArray(reservationIds)}::uuid[]) AS ids(id)
        LEFT JOIN reminder_replies rr ON rr.reservation_id = ids.id
        WHERE rr.reply IS NOT NULL OR EXISTS (SELECT 1 FROM reservation_reminders m WHERE m.reservation_id = ids.id)`,
  );
  return new Map(rows.map((row) => [row.reservation_id, row.reply]));
}

/**
 * True when a released table had someone to go to (a read-only look at the waitlist's table, as
 * the release page needs it): a diner offered a table on the same slot since the release, or one
 * still waiting on that date with the slot's time in their window.
 */
export async function someoneWasWaitingFor(db: Db, releasedReservationId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM reservations released JOIN slots s ON s.id = released.slot_id
        WHERE released.id = ${releasedReservationId} AND (
          EXISTS (SELECT 1 FROM waitlist_entries w JOIN reservations offered ON offered.id = w.reservation_id
                  WHERE offered.slot_id = released.slot_id AND w.offered_at >= released.updated_at)
          OR EXISTS (SELECT 1 FROM waitlist_entries w
                  WHERE w.restaurant_id = released.restaurant_id AND w.wait_date = s.slot_date AND w.status = 'waiting'
                    AND w.window_start <= s.slot_time AND w.window_end >= s.slot_time))`,
  );
  return rows.length > 0;
}
