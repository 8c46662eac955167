import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import { restaurantRefColumns, type RestaurantRefRow } from '#server/modules/restaurants/restaurant-sql.ts';

/** The strikes module's tables (migration 0009): no_show_strikes and strike_disputes. */

/** Records the strike of one no-show; a second call for the same reservation changes nothing. */
export async function insertStrike(db: Db, strike: { userId: string; reservationId: string; restaurantId: string; now: Date }): Promise<void> {
  await db.execute(
    sql`INSERT INTO no_show_strikes (user_id, reservation_id, restaurant_id, created_at)
        VALUES (${strike.userId}, ${strike.reservationId}, ${strike.restaurantId}, ${strike.now.toISOString()})
        ON CONFLICT (reservation_id) DO NOTHING`,
  );
}

/** The times of a diner's strikes that still count (not removed) recorded after `since`. */
export async function listCountingStrikeTimes(db: Db, userId: string, since: Date): Promise<Date[]> {
  const rows = await queryRows<{ created_at: Date | string }>(
    db,
    sql`SELECT created_at FROM no_show_strikes WHERE user_id = ${userId} AND removed_at IS NULL AND created_at > ${since.toISOString()}`,
  );
  return rows.map((row) => new Date(row.created_at));
}

export interface MyStrikeRow extends RestaurantRefRow {
  id: string;
  created_at: Date | string;
  removed_at: Date | string | null;
  slot_date: string;
  slot_time: string;
  dispute_status: 'open' | 'upheld' | 'rejected' | null;
  dispute_reason: string | null;
  dispute_created_at: Date | string | null;
  dispute_resolved_at: Date | string | null;
}

/** A diner's strikes, newest first, with the booking's slot and any dispute. */
export function listStrikesOfUser(db: Db, userId: string): Promise<MyStrikeRow[]> {
  return queryRows<MyStrikeRow>(
    db,
    sql`SELECT k.id, k.created_at, k.removed_at, ${restaurantRefColumns},
               to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time,
               d.status AS dispute_status, d.reason AS dispute_reason, d.created_at AS dispute_created_at, d.resolved_at AS dispute_resolved_at
        FROM no_show_strikes k
        JOIN restaurants rest ON rest.id = k.restaurant_id
        JOIN reservations r ON r.id = k.reservation_id
        JOIN slots s ON s.id = r.slot_id
        LEFT JOIN strike_disputes d ON d.strike_id = k.id
        WHERE k.user_id = ${userId}
        ORDER BY k.created_at DESC, k.id`,
  );
}

export async function findStrike(db: Db, id: string): Promise<{ id: string; user_id: string; created_at: Date | string } | undefined> {
  const [row] = await queryRows<{ id: string; user_id: string; created_at: Date | string }>(
    db,
    sql`SELECT id, user_id, created_at FROM no_show_strikes WHERE id = ${id}`,
  );
  return row;
}

export async function insertDispute(db: Db, dispute: { strikeId: string; reason: string; now: Date }): Promise<void> {
  await db.execute(
    sql`INSERT INTO strike_disputes (strike_id, reason, created_at) VALUES (${dispute.strikeId}, ${dispute.reason}, ${dispute.now.toISOString()})`,
  );
}

export interface AdminDisputeRow {
  id: string;
  strike_id: string;
  reservation_id: string;
  user_id: string;
  diner_name: string;
  slot_date: string;
  slot_time: string;
  party_size: number;
  reason: string;
  status: 'open' | 'upheld' | 'rejected';
  created_at: Date | string;
  resolved_at: Date | string | null;
}

const disputeSelect = sql`SELECT d.id, d.strike_id, k.reservation_id, k.user_id, coalesce(nullif(u.name, ''), u.username) AS diner_name,
    to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time, r.party_size, d.reason, d.status, d.created_at, d.resolved_at
  FROM strike_disputes d
  JOIN no_show_strikes k ON k.id = d.strike_id
  JOIN users u ON u.id = k.user_id
  JOIN reservations r ON r.id = k.reservation_id
  JOIN slots s ON s.id = r.slot_id`;

/** A restaurant's disputes: open ones first (oldest first), then the latest resolved. */
export function listDisputesOfRestaurant(db: Db, restaurantId: string, limit: number): Promise<AdminDisputeRow[]> {
  return queryRows<AdminDisputeRow>(
    db,
    sql`${disputeSelect}
        WHERE k.restaurant_id = ${restaurantId}
        ORDER BY (d.status = 'open') DESC, CASE WHEN d.status = 'open' THEN d.created_at END ASC, d.resolved_at DESC, d.id
        LIMIT ${limit}`,
  );
}

/** One dispute of this restaurant, locked for its resolution (another restaurant's is not found). */
export async function lockDisputeOfRestaurant(db: Db, restaurantId: string, id: string): Promise<AdminDisputeRow | undefined> {
  const [row] = await queryRows<AdminDisputeRow>(
    db,
    sql`${disputeSelect}
        WHERE d.id = ${id} AND k.restaurant_id = ${restaurantId}
        FOR UPDATE OF d`,
  );
  return row;
}

export async function resolveDispute(db: Db, dispute: { id: string; strikeId: string; upheld: boolean; staffId: string; now: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE strike_disputes SET status = ${dispute.upheld ? 'upheld' : 'rejected'}, resolved_at = ${dispute.now.toISOString()}, resolved_by = ${dispute.staffId}
        WHERE id = ${dispute.id}`,
  );
  if (dispute.upheld) {
    await db.execute(sql`UPDATE no_show_strikes SET removed_at = ${dispute.now.toISOString()} WHERE id = ${dispute.strikeId}`);
  }
}
