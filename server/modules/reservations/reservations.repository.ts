import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import type { ReservationActor, ReservationStatus } from '#common/domain/reservation-status.ts';
import type { BookingRequestData, Occasion, RequestPick } from '#common/domain/guests.ts';
import { restaurantRefColumns, type RestaurantRefRow } from '#server/modules/restaurants/restaurant-sql.ts';
import { slotIsPublic } from '#server/modules/slots/slot-sql.ts';
import { waitingEntryFits } from '#server/modules/waitlist/waitlist-sql.ts';
import { coversTakenJoin, effectiveStatusSql, holdsCovers, isLapsedHold } from './reservation-sql.ts';

/** A reservation with what its screens show: restaurant and slot. */
export interface ReservationRow extends RestaurantRefRow {
  id: string;
  user_id: string;
  restaurant_id: string;
  slot_id: string;
  party_size: number;
  status: ReservationStatus;
  hold_expires_at: Date | null;
  starts_at: Date;
  created_at: Date;
  slot_date: string;
  slot_time: string;
  /** What the diner told the restaurant (decision 260). */
  occasion: Occasion | null;
  request_picks: RequestPick[];
  special_request: string | null;
  /** Why a cancelled reservation was cancelled ('HOLD_EXPIRED' for a hold that ran out), else null. */
  cancel_reason?: string | null;
}

const reservationColumns = sql`r.id, r.user_id, r.slot_id, r.party_size, r.status, r.hold_expires_at, r.starts_at, r.created_at, r.cancel_reason,
  r.occasion, r.request_picks, r.special_request,
  ${restaurantRefColumns}, to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time`;

const reservationJoins = sql`FROM reservations r
  JOIN restaurants rest ON rest.id = r.restaurant_id
  JOIN slots s ON s.id = r.slot_id`;

/** Serialises one diner's reservation changes (hold limits are per diner). */
export async function lockUser(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
  return rows.length > 0;
}

export async function countActiveHolds(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM reservations
        WHERE user_id = ${userId} AND status = 'HELD' AND hold_expires_at > ${now.toISOString()}`,
  );
  return row.count;
}

/** True when the diner already has a live reservation starting at that instant. */
export async function hasLiveReservationAt(db: Db, userId: string, startsAt: Date, now: Date): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM reservations
        WHERE user_id = ${userId} AND starts_at = ${startsAt.toISOString()}
          AND ${holdsCovers(now, '')}
        LIMIT 1`,
  );
  return rows.length > 0;
}

/** What the per-diner booking rules look at, in one statement: live holds, upcoming reservations, one at `startsAt`. */
export async function readDinerBookingCounts(
  db: Db,
  userId: string,
  startsAt: Date,
  now: Date,
): Promise<{ activeHolds: number; upcoming: number; hasLiveAtStart: boolean }> {
  const at = now.toISOString();
  const [row] = await queryRows<{ active_holds: number; upcoming: number; live_at_start: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'HELD')::int AS active_holds,
               count(*) FILTER (WHERE starts_at > ${at} AND status IN ('HELD', 'PENDING', 'CONFIRMED'))::int AS upcoming,
               count(*) FILTER (WHERE starts_at = ${startsAt.toISOString()})::int AS live_at_start
        FROM reservations
        WHERE user_id = ${userId}
          AND ${holdsCovers(now, '')}`,
  );
  return { activeHolds: row.active_holds, upcoming: row.upcoming, hasLiveAtStart: row.live_at_start > 0 };
}

/**
 * When the diner started their most recent holds at a restaurant since `since`, newest first, at
 * most `limit` of them. Only holds the diner placed count (their first history row is the diner's):
 * offers the system placed for them (waitlist, drops) do not.
 */
export async function listHoldStartsSince(db: Db, userId: string, restaurantId: string, since: Date, limit: number): Promise<Date[]> {
  const rows = await queryRows<{ created_at: Date | string }>(
    db,
    sql`SELECT r.created_at FROM reservations r
        WHERE r.user_id = ${userId} AND r.restaurant_id = ${restaurantId} AND r.created_at > ${since.toISOString()}
          AND EXISTS (SELECT 1 FROM reservation_events e
                      WHERE e.reservation_id = r.id AND e.from_status IS NULL AND e.actor_kind = 'diner')
        ORDER BY r.created_at DESC
        LIMIT ${limit}`,
  );
  return rows.map((row) => new Date(row.created_at));
}

export interface LockedSlot {
  id: string;
  restaurant_id: string;
  capacity: number;
  status: 'available' | 'full';
  starts_at: Date;
  /** The drop the slot belongs to, if any (its tables are given out through the drop's draw). */
  drop_id: string | null;
}

/** Live reservations (unexpired holds, requests, accepted ones) starting after `now`. */
export async function countUpcomingReservations(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM reservations
        WHERE user_id = ${userId} AND starts_at > ${now.toISOString()}
          AND (status IN ('PENDING', 'CONFIRMED') OR (status = 'HELD' AND hold_expires_at > ${now.toISOString()}))`,
  );
  return row.count;
}

/** True when anyone may book the slot: it is in no drop, or its drop's line has had its turn. */
export async function isSlotPublic(db: Db, slotId: string, now: Date): Promise<boolean> {
  const rows = await queryRows(db, sql`SELECT 1 FROM slots s WHERE s.id = ${slotId} AND ${slotIsPublic(now)}`);
  return rows.length > 0;
}

/** Locks a slot row by id with what a hold needs (offers from drops and the waitlist name the slot). */
export async function lockSlotForHold(db: Db, slotId: string): Promise<LockedSlot | undefined> {
  const [row] = await queryRows<LockedSlot>(db, sql`SELECT id, restaurant_id, capacity, status, starts_at, drop_id FROM slots WHERE id = ${slotId} FOR UPDATE`);
  return row;
}

/**
 * Locks a restaurant's slot row: every hold on the slot queues here, so the covers
 * counted next (in a fresh statement, with a fresh snapshot) include every earlier hold.
 */
export async function lockSlot(db: Db, restaurantId: string, date: string, time: string): Promise<LockedSlot | undefined> {
  const [row] = await queryRows<LockedSlot>(
    db,
    sql`SELECT id, restaurant_id, capacity, status, starts_at, drop_id FROM slots
        WHERE restaurant_id = ${restaurantId} AND slot_date = ${date} AND slot_time = ${time}
        FOR UPDATE`,
  );
  return row;
}

/** Locks a slot row by id (a hold being confirmed queues behind new holds on its slot). */
export async function lockSlotById(db: Db, slotId: string): Promise<{ capacity: number } | undefined> {
  const [row] = await queryRows<{ capacity: number }>(db, sql`SELECT capacity FROM slots WHERE id = ${slotId} FOR UPDATE`);
  return row;
}

/** True when `freeCovers` on the slot are owed to someone else waiting for it (decision 099). */
export async function isOwedToWaitlist(db: Db, slotId: string, freeCovers: number, userId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`SELECT 1 FROM slots s WHERE s.id = ${slotId} AND ${waitingEntryFits(freeCovers, userId)}`);
  return rows.length > 0;
}

export async function countCoversTaken(db: Db, slotId: string, now: Date): Promise<number> {
  const [row] = await queryRows<{ covers: number }>(db, sql`SELECT taken.covers FROM slots s ${coversTakenJoin(now)} WHERE s.id = ${slotId}`);
  return row?.covers ?? 0;
}

export async function insertReservation(
  db: Db,
  reservation: {
    userId: string;
    restaurantId: string;
    slotId: string;
    partySize: number;
    holdExpiresAt: Date;
    startsAt: Date;
    now: Date;
    request?: BookingRequestData | null;
  },
): Promise<string> {
  const request = reservation.request ?? null;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, hold_expires_at, starts_at, created_at, updated_at,
                                  occasion, request_picks, special_request)
        VALUES (${reservation.userId}, ${reservation.restaurantId}, ${reservation.slotId}, ${reservation.partySize}, 'HELD',
                ${reservation.holdExpiresAt.toISOString()}, ${reservation.startsAt.toISOString()},
                ${reservation.now.toISOString()}, ${reservation.now.toISOString()},
                ${request?.occasion ?? null}, ${toPgArray([...(request?.picks ?? [])])}::text[], ${request?.note || null})
        RETURNING id`,
  );
  return row.id;
}

/** Every request a diner told any restaurant, removed (the account was deleted, decision 266). */
export async function clearRequestsOfUser(db: Db, userId: string): Promise<void> {
  await db.execute(sql`UPDATE reservations SET occasion = NULL, request_picks = '{}', special_request = NULL WHERE user_id = ${userId}`);
}

/** Writes (or with null, removes) what the diner told the restaurant for one booking (decision 260). */
export async function updateBookingRequest(db: Db, id: string, request: BookingRequestData | null, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE reservations
        SET occasion = ${request?.occasion ?? null}, request_picks = ${toPgArray([...(request?.picks ?? [])])}::text[],
            special_request = ${request?.note || null}, updated_at = ${now.toISOString()}
        WHERE id = ${id}`,
  );
}

export async function insertReservationEvent(
  db: Db,
  event: {
    reservationId: string;
    from: ReservationStatus | null;
    to: ReservationStatus;
    actor: ReservationActor;
    actorId: string | null;
    reason?: string;
    now: Date;
  },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO reservation_events (reservation_id, from_status, to_status, actor_kind, actor_id, reason, created_at)
        VALUES (${event.reservationId}, ${event.from}, ${event.to}, ${event.actor}, ${event.actorId}, ${event.reason ?? null}, ${event.now.toISOString()})`,
  );
}

/** How many moves a reservation has had: a calendar file's SEQUENCE, which must rise with every change. */
export async function countReservationEvents(db: Db, reservationId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM reservation_events WHERE reservation_id = ${reservationId}`);
  return row.count;
}

export async function findReservation(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<ReservationRow | undefined> {
  const [row] = await queryRows<ReservationRow>(
    db,
    sql`SELECT ${reservationColumns} ${reservationJoins} WHERE r.id = ${id} ${options.forUpdate ? sql`FOR UPDATE OF r` : sql``}`,
  );
  return row;
}

export async function updateReservationStatus(db: Db, id: string, change: { to: ReservationStatus; cancelReason?: string; now: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE reservations SET status = ${change.to}, cancel_reason = ${change.cancelReason ?? null}, updated_at = ${change.now.toISOString()}
        WHERE id = ${id}`,
  );
}

/**
 * A diner's reservations: live upcoming ones first (soonest first), then the rest (latest first).
 * An expired hold shows as the CANCELLED it has become, even before the sweeper writes it.
 */
export function listReservationsOfUser(db: Db, userId: string, now: Date): Promise<ReservationRow[]> {
  const at = now.toISOString();
  // Live: active, upcoming, and (for a hold) not yet expired; an expired hold sorts with the ended ones.
  const isLive = sql`${holdsCovers(now, 'r')} AND r.starts_at > ${at}`;
  return queryRows<ReservationRow>(
    db,
    sql`SELECT ${reservationColumns} ${reservationJoins}
        WHERE r.user_id = ${userId}
        ORDER BY (${isLive}) DESC,
                 CASE WHEN ${isLive} THEN extract(epoch FROM r.starts_at) ELSE -extract(epoch FROM r.starts_at) END,
                 r.created_at DESC`,
  );
}

export async function countReservationsByStatus(db: Db, userId: string, now: Date): Promise<Map<string, number>> {
  const rows = await queryRows<{ status: string; count: number }>(
    db,
    sql`SELECT ${effectiveStatusSql(now, '')} AS status, count(*)::int AS count
        FROM reservations WHERE user_id = ${userId} GROUP BY 1`,
  );
  return new Map(rows.map((row) => [row.status, row.count]));
}

/** Turns every hold past its expiry into CANCELLED (HOLD_EXPIRED) and writes its history. */
export async function expireDueHolds(db: Db, now: Date): Promise<{ id: string; restaurant_id: string; user_id: string; slot_id: string }[]> {
  const expired = await queryRows<{ id: string; restaurant_id: string; user_id: string; slot_id: string }>(
    db,
    sql`UPDATE reservations SET status = 'CANCELLED', cancel_reason = 'HOLD_EXPIRED', updated_at = ${now.toISOString()}
        WHERE id IN (
          SELECT id FROM reservations
          WHERE status = 'HELD' AND hold_expires_at <= ${now.toISOString()}
          ORDER BY hold_expires_at LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING id, restaurant_id, user_id, slot_id`,
  );
  if (expired.length > 0) {
    await db.execute(
      sql`INSERT INTO reservation_events (reservation_id, from_status, to_status, actor_kind, reason, created_at)
          SELECT unnest(${toPgArray(expired.map((row) => row.id))}::uuid[]), 'HELD', 'CANCELLED', 'system', 'HOLD_EXPIRED', ${now.toISOString()}`,
    );
  }
  return expired;
}

// ---- The staff's bookings list (GET /api/admin/bookings) ----

export interface AdminBookingRow {
  id: string;
  status: ReservationStatus;
  hold_expires_at: Date | string | null;
  party_size: number;
  created_at: Date | string;
  starts_at: Date | string;
  slot_date: string;
  slot_time: string;
  user_name: string;
  username: string;
  user_email: string | null;
  user_phone: string | null;
}

/** A booking as staff see it: the reservation, its slot and the diner's contact details (the AdminBookingRow columns). */
export const staffBookingSelect = sql`SELECT r.id, r.status, r.hold_expires_at, r.party_size, r.created_at, r.starts_at,
    to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time,
    u.name AS user_name, u.username, u.email AS user_email, u.phone AS user_phone
  FROM reservations r
  JOIN slots s ON s.id = r.slot_id
  JOIN users u ON u.id = r.user_id`;

/**
 * The restaurant's bookings from `fromDate` (a Kolkata date) for `days` days, soonest first.
 * Holds that lapsed (expired, whether or not swept yet) are left out: they were never bookings.
 */
export function listBookingsFrom(db: Db, restaurantId: string, fromDate: string, days: number, now: Date, limit: number): Promise<AdminBookingRow[]> {
  return queryRows<AdminBookingRow>(
    db,
    sql`${staffBookingSelect}
        WHERE r.restaurant_id = ${restaurantId}
          AND s.slot_date >= ${fromDate}::date AND s.slot_date < ${fromDate}::date + ${days}::int
          AND NOT ${isLapsedHold(now, 'r')}
          AND NOT (r.status = 'CANCELLED' AND r.cancel_reason = 'HOLD_EXPIRED')
        ORDER BY r.starts_at, r.created_at
        LIMIT ${limit}`,
  );
}

/** Today's counts per effective status (an expired hold counts as the CANCELLED it has become). */
export async function countBookingsOfDate(db: Db, restaurantId: string, date: string, now: Date): Promise<Map<string, number>> {
  const rows = await queryRows<{ status: string; count: number }>(
    db,
    sql`SELECT ${effectiveStatusSql(now, 'r')} AS status, count(*)::int AS count
        FROM reservations r JOIN slots s ON s.id = r.slot_id
        WHERE r.restaurant_id = ${restaurantId} AND s.slot_date = ${date}::date
        GROUP BY 1`,
  );
  return new Map(rows.map((row) => [row.status, row.count]));
}

/** A booking of this restaurant, or undefined (another restaurant's booking is not found). */
export async function findBookingOfRestaurant(db: Db, restaurantId: string, id: string): Promise<AdminBookingRow | undefined> {
  const [row] = await queryRows<AdminBookingRow>(
    db,
    sql`${staffBookingSelect}
        WHERE r.id = ${id} AND r.restaurant_id = ${restaurantId}`,
  );
  return row;
}
