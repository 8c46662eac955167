import { sql, type SQL } from 'drizzle-orm';
import type { GuestTag, Occasion, RequestPick } from '#common/domain/guests.ts';
import { LATE_CANCEL_MINUTES } from '#common/domain/guests.ts';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { containsPattern, queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { isLateDinerCancel, isVisit, wasBooking } from '#server/modules/reservations/reservation-sql.ts';

/**
 * SQL of the guests module (decisions 261–264). It writes only `guest_notes`; it reads the
 * reservations and their diners through read-only joins, with the reservations module's
 * fragments for what counts as a booking, a visit and a late cancel. Every read is of one
 * restaurant: no query here spans restaurants.
 */

export interface GuestRow {
  guest_id: string;
  name: string;
  username: string;
  email: string | null;
  phone: string | null;
  visits: number;
  last_visit: string | null;
  no_shows: number;
  late_cancels: number;
  tags: GuestTag[];
  note: string;
  notes_updated_at: Date | string | null;
  /** Some booking here carries the "Allergies" pick or writes of an allergy. */
  requested_allergy: boolean;
}

export interface GuestFilter {
  userId?: string;
  text?: string;
  digits?: string | null;
  tag?: GuestTag;
  lastVisitSince?: string;
  minVisits?: number;
}

/** One restaurant's guests (diners with a booking there, accounts not deleted) with their history and the restaurant's notes. */
export function listGuests(db: Db, restaurantId: string, filter: GuestFilter, now: Date, limit: number): Promise<GuestRow[]> {
  const where: SQL[] = [sql`r.restaurant_id = ${restaurantId}`, wasBooking(now, 'r'), sql`u.deleted_at IS NULL`];
  if (filter.userId) where.push(sql`r.user_id = ${filter.userId}`);
  const outer: SQL[] = [sql`true`];
  if (filter.text) {
    const pattern = containsPattern(filter.text);
    const match = [sql`lower(g.name) LIKE ${pattern}`, sql`lower(g.username) LIKE ${pattern}`, sql`lower(coalesce(g.email, '')) LIKE ${pattern}`];
    if (filter.digits) match.push(sql`regexp_replace(coalesce(g.phone, ''), '\\D', '', 'g') LIKE ${`%${filter.digits}%`}`);
    outer.push(sql`(${sql.join(match, sql` OR `)})`);
  }
  if (filter.tag) outer.push(sql`${filter.tag} = ANY(g.tags)`);
  if (filter.lastVisitSince) outer.push(sql`g.last_visit >= ${filter.lastVisitSince}`);
  if (filter.minVisits !== undefined) outer.push(sql`g.visits >= ${filter.minVisits}`);
  return queryRows<GuestRow>(
    db,
    sql`SELECT * FROM (
          SELECT u.id AS guest_id, u.name, u.username, u.email, coalesce(u.verified_phone, u.phone) AS phone,
            count(*) FILTER (WHERE ${isVisit('r')})::int AS visits,
            to_char(max(r.starts_at AT TIME ZONE 'Asia/Kolkata') FILTER (WHERE ${isVisit('r')}), 'YYYY-MM-DD') AS last_visit,
            count(*) FILTER (WHERE r.status = 'NO_SHOW')::int AS no_shows,
            count(*) FILTER (WHERE ${isLateDinerCancel(LATE_CANCEL_MINUTES, 'r')})::int AS late_cancels,
            coalesce(n.tags, '{}') AS tags, coalesce(n.note, '') AS note, n.updated_at AS notes_updated_at,
            bool_or('allergies' = ANY(r.request_picks) OR r.special_request ILIKE '%allerg%') AS requested_allergy
          FROM reservations r
          JOIN users u ON u.id = r.user_id
          LEFT JOIN guest_notes n ON n.restaurant_id = r.restaurant_id AND n.user_id = r.user_id
          WHERE ${sql.join(where, sql` AND `)}
          GROUP BY u.id, n.tags, n.note, n.updated_at
        ) g
        WHERE ${sql.join(outer, sql` AND `)}
        ORDER BY g.last_visit DESC NULLS LAST, lower(g.name), g.guest_id
        LIMIT ${limit}`,
  );
}

export interface GuestRequestRow {
  id: string;
  status: ReservationStatus;
  slot_date: string;
  slot_time: string;
  occasion: Occasion | null;
  request_picks: RequestPick[];
  special_request: string | null;
}

/** What one diner told this restaurant, booking by booking, latest first. */
export function listGuestRequests(db: Db, restaurantId: string, userId: string, now: Date, limit: number): Promise<GuestRequestRow[]> {
  return queryRows<GuestRequestRow>(
    db,
    sql`SELECT r.id, r.status, to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time, r.occasion, r.request_picks, r.special_request
        FROM reservations r JOIN slots s ON s.id = r.slot_id
        WHERE r.restaurant_id = ${restaurantId} AND r.user_id = ${userId} AND ${wasBooking(now, 'r')}
          AND (r.occasion IS NOT NULL OR cardinality(r.request_picks) > 0 OR r.special_request IS NOT NULL)
        ORDER BY r.starts_at DESC
        LIMIT ${limit}`,
  );
}

/** The diner of a booking of this restaurant, or undefined (another restaurant's booking is not found). */
export async function findGuestOfBooking(db: Db, restaurantId: string, reservationId: string, now: Date): Promise<string | undefined> {
  const [row] = await queryRows<{ user_id: string }>(
    db,
    sql`SELECT r.user_id FROM reservations r JOIN users u ON u.id = r.user_id
        WHERE r.id = ${reservationId} AND r.restaurant_id = ${restaurantId} AND u.deleted_at IS NULL AND ${wasBooking(now, 'r')}`,
  );
  return row?.user_id;
}

/** Writes the restaurant's tags and note about a guest. */
export async function upsertGuestNotes(
  db: Db,
  notes: { restaurantId: string; userId: string; tags: readonly GuestTag[]; note: string; staffId: string; now: Date },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO guest_notes (restaurant_id, user_id, tags, note, updated_by, updated_at)
        VALUES (${notes.restaurantId}, ${notes.userId}, ${toPgArray([...notes.tags])}::text[], ${notes.note}, ${notes.staffId}, ${notes.now.toISOString()})
        ON CONFLICT (restaurant_id, user_id)
        DO UPDATE SET tags = EXCLUDED.tags, note = EXCLUDED.note, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
  );
}

/** Every restaurant's notes about a diner, removed (the diner deleted their account, decision 266). */
export async function deleteNotesAbout(db: Db, userId: string): Promise<void> {
  await db.execute(sql`DELETE FROM guest_notes WHERE user_id = ${userId}`);
}

export interface ArrivalRow {
  id: string;
  status: ReservationStatus;
  slot_time: string;
  party_size: number;
  user_id: string;
  name: string;
  username: string;
  occasion: Occasion | null;
  request_picks: RequestPick[];
  special_request: string | null;
  table_name: string | null;
  tags: GuestTag[];
  note: string;
  visits: number;
}

/**
 * The table a booking is assigned on the floor (decisions 240, 264), as a column: joined tables
 * read "T8 + T9"; a booking without a table (a restaurant still on covers) is null, shown "—".
 */
const tableNameColumn = sql`(SELECT string_agg(t.name, ' + ' ORDER BY t.name)
    FROM table_assignments a JOIN floor_tables t ON t.id = ANY (a.table_ids)
    WHERE a.reservation_id = r.id AND a.released_at IS NULL) AS table_name`;

/** A date's arrivals at this restaurant (requests, accepted and seated bookings), by time. */
export function listArrivals(db: Db, restaurantId: string, date: string): Promise<ArrivalRow[]> {
  return queryRows<ArrivalRow>(
    db,
    sql`SELECT r.id, r.status, s.slot_time, r.party_size, r.user_id, u.name, u.username,
          r.occasion, r.request_picks, r.special_request, ${tableNameColumn},
          coalesce(n.tags, '{}') AS tags, coalesce(n.note, '') AS note,
          (SELECT count(*)::int FROM reservations v WHERE v.restaurant_id = r.restaurant_id AND v.user_id = r.user_id AND ${isVisit('v')}) AS visits
        FROM reservations r
        JOIN slots s ON s.id = r.slot_id
        JOIN users u ON u.id = r.user_id
        LEFT JOIN guest_notes n ON n.restaurant_id = r.restaurant_id AND n.user_id = r.user_id
        WHERE r.restaurant_id = ${restaurantId} AND s.slot_date = ${date}::date AND r.status IN ('PENDING', 'CONFIRMED', 'SEATED')
        ORDER BY r.starts_at, r.created_at`,
  );
}
