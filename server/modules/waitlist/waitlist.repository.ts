import { sql } from 'drizzle-orm';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { coversTakenJoin } from '#server/modules/reservations/reservation-sql.ts';
import { slotIsOpen } from '#server/modules/slots/slot-sql.ts';
import { restaurantRefColumns, type RestaurantRefRow } from '#server/modules/restaurants/restaurant-sql.ts';

/** The waitlist's SQL. No rules here. */

export interface WaitlistRow extends RestaurantRefRow {
  id: string;
  user_id: string;
  restaurant_id: string;
  wait_date: string;
  party_size: number;
  window_start: string;
  window_end: string;
  status: 'waiting' | 'offered' | 'removed';
  reservation_id: string | null;
  created_at: Date | string;
  reservation_status: ReservationStatus | null;
  cancel_reason: string | null;
  hold_expires_at: Date | string | null;
  slot_date: string | null;
  slot_time: string | null;
  offered_party_size: number | null;
  waiting_ahead: number;
}

const waitlistSelect = sql`SELECT w.id, w.user_id, to_char(w.wait_date, 'YYYY-MM-DD') AS wait_date, w.party_size,
    w.window_start, w.window_end, w.status, w.reservation_id, w.created_at, ${restaurantRefColumns},
    r.status AS reservation_status, r.cancel_reason, r.hold_expires_at, to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time,
    r.party_size AS offered_party_size,
    (SELECT count(*)::int FROM waitlist_entries o
      WHERE o.status = 'waiting' AND o.restaurant_id = w.restaurant_id AND o.wait_date = w.wait_date
        AND (o.created_at, o.id) < (w.created_at, w.id)) AS waiting_ahead
  FROM waitlist_entries w
  JOIN restaurants rest ON rest.id = w.restaurant_id
  LEFT JOIN reservations r ON r.id = w.reservation_id
  LEFT JOIN slots s ON s.id = r.slot_id`;

export function listEntriesOfUser(db: Db, userId: string, limit: number): Promise<WaitlistRow[]> {
  return queryRows<WaitlistRow>(db, sql`${waitlistSelect} WHERE w.user_id = ${userId} ORDER BY w.created_at DESC, w.id DESC LIMIT ${limit}`);
}

export async function findEntry(db: Db, id: string): Promise<WaitlistRow | undefined> {
  const [row] = await queryRows<WaitlistRow>(db, sql`${waitlistSelect} WHERE w.id = ${id}`);
  return row;
}

/** Locks one entry row (an offer to it and the diner leaving cannot interleave). */
export async function lockEntry(db: Db, id: string): Promise<{ id: string; user_id: string; status: string; reservation_id: string | null } | undefined> {
  const [row] = await queryRows<{ id: string; user_id: string; status: string; reservation_id: string | null }>(
    db,
    sql`SELECT id, user_id, status, reservation_id FROM waitlist_entries WHERE id = ${id} FOR UPDATE`,
  );
  return row;
}

export async function countWaitingOfUser(db: Db, userId: string, today: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM waitlist_entries WHERE user_id = ${userId} AND status = 'waiting' AND wait_date >= ${today}::date`,
  );
  return row.count;
}

export async function insertEntry(
  db: Db,
  entry: { userId: string; restaurantId: string; date: string; partySize: number; windowStart: string; windowEnd: string; now: Date },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO waitlist_entries (user_id, restaurant_id, wait_date, party_size, window_start, window_end, created_at, updated_at)
        VALUES (${entry.userId}, ${entry.restaurantId}, ${entry.date}, ${entry.partySize}, ${entry.windowStart}, ${entry.windowEnd},
                ${entry.now.toISOString()}, ${entry.now.toISOString()})
        RETURNING id`,
  );
  return row.id;
}

export async function setEntryRemoved(db: Db, id: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE waitlist_entries SET status = 'removed', updated_at = ${now.toISOString()} WHERE id = ${id}`);
}

export async function markEntryOffered(db: Db, id: string, reservationId: string, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE waitlist_entries SET status = 'offered', reservation_id = ${reservationId}, offered_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
        WHERE id = ${id}`,
  );
}

/** An open slot of the restaurant on that date within the window with room for the party right now, if any. */
export async function findFreeSlotInWindow(
  db: Db,
  query: { restaurantId: string; date: string; windowStart: string; windowEnd: string; partySize: number; now: Date; cutoffMinutes: number },
): Promise<{ time: string } | undefined> {
  const [row] = await queryRows<{ time: string }>(
    db,
    sql`SELECT s.slot_time AS time FROM slots s ${coversTakenJoin(query.now)}
        WHERE s.restaurant_id = ${query.restaurantId} AND s.slot_date = ${query.date}
          AND s.slot_time BETWEEN ${query.windowStart} AND ${query.windowEnd}
          AND ${slotIsOpen(query.now, query.cutoffMinutes)}
          AND s.capacity - taken.covers >= ${query.partySize}
        ORDER BY s.slot_time LIMIT 1`,
  );
  return row;
}

export interface FreedSlotRow {
  id: string;
  restaurant_id: string;
  date: string;
  time: string;
  free: number;
  is_open: boolean;
}

/** A slot with its free covers now and whether anyone may book it. */
export async function findSlotState(db: Db, slotId: string, now: Date, cutoffMinutes: number): Promise<FreedSlotRow | undefined> {
  const [row] = await queryRows<FreedSlotRow>(
    db,
    sql`SELECT s.id, s.restaurant_id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time,
               (s.capacity - taken.covers)::int AS free, ${slotIsOpen(now, cutoffMinutes)} AS is_open
        FROM slots s ${coversTakenJoin(now)} WHERE s.id = ${slotId}`,
  );
  return row;
}

/**
 * The longest-waiting entry that matches the slot (same restaurant and date, the slot's time in
 * its window, its party fits `maxCovers`), leaving out `skip`, locked. An entry another offer
 * holds is waited for, then re-checked: if it was offered meanwhile the next one is taken.
 */
export async function lockLongestWaitingMatch(
  db: Db,
  slot: { restaurantId: string; date: string; time: string },
  maxCovers: number,
  skip: string[],
): Promise<{ id: string; user_id: string; party_size: number } | undefined> {
  const skipFilter = skip.length > 0 ? sql`AND NOT (id = ANY(${toPgArray(skip)}::uuid[]))` : sql``;
  const [row] = await queryRows<{ id: string; user_id: string; party_size: number }>(
    db,
    sql`SELECT id, user_id, party_size FROM waitlist_entries
        WHERE restaurant_id = ${slot.restaurantId} AND wait_date = ${slot.date} AND status = 'waiting'
          AND window_start <= ${slot.time} AND window_end >= ${slot.time} AND party_size <= ${maxCovers} ${skipFilter}
        ORDER BY created_at, id LIMIT 1 FOR UPDATE`,
  );
  return row;
}

/** Slots that some waiting entry could take right now (for the sweep: nothing is lost if an event was). */
export async function listSlotsWithWaitingMatches(db: Db, now: Date, today: string, cutoffMinutes: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT DISTINCT s.id FROM waitlist_entries w
        JOIN slots s ON s.restaurant_id = w.restaurant_id AND s.slot_date = w.wait_date
          AND s.slot_time BETWEEN w.window_start AND w.window_end
        ${coversTakenJoin(now)}
        WHERE w.status = 'waiting' AND w.wait_date >= ${today}::date
          AND ${slotIsOpen(now, cutoffMinutes)}
          AND s.capacity - taken.covers >= w.party_size
        LIMIT 200`,
  );
  return rows.map((row) => row.id);
}

/** Takes a deleted diner out of every line they wait in (decision 266). */
export async function removeWaitingEntriesOf(db: Db, userId: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE waitlist_entries SET status = 'removed', updated_at = ${now.toISOString()} WHERE user_id = ${userId} AND status = 'waiting'`);
}
