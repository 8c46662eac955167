import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { coversTakenJoin, effectiveStatusSql, isLapsedHold } from '#server/modules/reservations/reservation-sql.ts';

/** The portal's SQL: a restaurant's profile, slots and bookings. Every query is scoped by restaurant id. */

export interface AdminRestaurantRow {
  id: string;
  slug: string;
  name: string;
  emoji: string;
  category: string;
  neighborhood: string;
  instagram_url: string | null;
  website: string | null;
  hero_image_url: string | null;
  hero_image_key: string | null;
}

const restaurantColumns = sql`id, slug, name, emoji, category, neighborhood, instagram_url, website, hero_image_url, hero_image_key`;

export async function findAdminRestaurant(db: Db, restaurantId: string): Promise<AdminRestaurantRow | undefined> {
  const [row] = await queryRows<AdminRestaurantRow>(db, sql`SELECT ${restaurantColumns} FROM restaurants WHERE id = ${restaurantId}`);
  return row;
}

export async function updateRestaurantProfile(
  db: Db,
  restaurantId: string,
  profile: { name: string; neighborhood: string; instagramUrl: string | null; website: string | null; heroImageUrl: string | null; now: Date },
): Promise<AdminRestaurantRow | undefined> {
  const [row] = await queryRows<AdminRestaurantRow>(
    db,
    sql`UPDATE restaurants SET name = ${profile.name}, neighborhood = ${profile.neighborhood}, instagram_url = ${profile.instagramUrl},
          website = ${profile.website}, hero_image_url = ${profile.heroImageUrl}, updated_at = ${profile.now.toISOString()}
        WHERE id = ${restaurantId}
        RETURNING ${restaurantColumns}`,
  );
  return row;
}

export async function setHeroImage(db: Db, restaurantId: string, image: { key: string; url: string; now: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE restaurants SET hero_image_key = ${image.key}, hero_image_url = ${image.url}, updated_at = ${image.now.toISOString()}
        WHERE id = ${restaurantId}`,
  );
}

export async function findHeroImageKey(db: Db, restaurantId: string): Promise<string | null | undefined> {
  const [row] = await queryRows<{ hero_image_key: string | null }>(db, sql`SELECT hero_image_key FROM restaurants WHERE id = ${restaurantId}`);
  return row ? row.hero_image_key : undefined;
}

export interface AdminSlotRow {
  id: string;
  date: string;
  time: string;
  capacity: number;
  status: 'available' | 'full';
  starts_at: Date | string;
  covers_booked: number;
}

export function listSlotsOfDate(db: Db, restaurantId: string, date: string, now: Date): Promise<AdminSlotRow[]> {
  return queryRows<AdminSlotRow>(
    db,
    sql`SELECT s.id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time, s.capacity, s.status, s.starts_at,
               taken.covers AS covers_booked
        FROM slots s ${coversTakenJoin(now)}
        WHERE s.restaurant_id = ${restaurantId} AND s.slot_date = ${date}
        ORDER BY s.slot_time`,
  );
}

/** Inserts the times not already present; returns the ids of the rows created. */
export async function insertSlots(
  db: Db,
  restaurantId: string,
  slots: { date: string; times: string[]; startsAt: string[]; capacity: number },
): Promise<string[]> {
  if (slots.times.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity)
        SELECT ${restaurantId}, ${slots.date}::date, t.time, t.starts_at::timestamptz, ${slots.capacity}
        FROM unnest(${toPgArray(slots.times)}::text[], ${toPgArray(slots.startsAt)}::text[]) AS t(time, starts_at)
        ON CONFLICT (restaurant_id, slot_date, slot_time) DO NOTHING
        RETURNING id`,
  );
  return rows.map((row) => row.id);
}

/** Sets a slot's status; undefined when the slot is not this restaurant's. */
export async function updateSlotStatus(
  db: Db,
  restaurantId: string,
  slotId: string,
  status: 'available' | 'full',
): Promise<{ id: string; date: string } | undefined> {
  const [row] = await queryRows<{ id: string; date: string }>(
    db,
    sql`UPDATE slots SET status = ${status} WHERE id = ${slotId} AND restaurant_id = ${restaurantId}
        RETURNING id, to_char(slot_date, 'YYYY-MM-DD') AS date`,
  );
  return row;
}

export async function findSlotOfRestaurant(db: Db, restaurantId: string, slotId: string, now: Date): Promise<AdminSlotRow | undefined> {
  const [row] = await queryRows<AdminSlotRow>(
    db,
    sql`SELECT s.id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time, s.capacity, s.status, s.starts_at,
               taken.covers AS covers_booked
        FROM slots s ${coversTakenJoin(now)}
        WHERE s.id = ${slotId} AND s.restaurant_id = ${restaurantId}`,
  );
  return row;
}

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

/**
 * The restaurant's bookings from `fromDate` (a Kolkata date) for `days` days, soonest first.
 * Holds that lapsed (expired, whether or not swept yet) are left out: they were never bookings.
 */
export function listBookingsFrom(db: Db, restaurantId: string, fromDate: string, days: number, now: Date, limit: number): Promise<AdminBookingRow[]> {
  return queryRows<AdminBookingRow>(
    db,
    sql`SELECT r.id, r.status, r.hold_expires_at, r.party_size, r.created_at, r.starts_at,
               to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time,
               u.name AS user_name, u.username, u.email AS user_email, u.phone AS user_phone
        FROM reservations r
        JOIN slots s ON s.id = r.slot_id
        JOIN users u ON u.id = r.user_id
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
    sql`SELECT r.id, r.status, r.hold_expires_at, r.party_size, r.created_at, r.starts_at,
               to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time,
               u.name AS user_name, u.username, u.email AS user_email, u.phone AS user_phone
        FROM reservations r
        JOIN slots s ON s.id = r.slot_id
        JOIN users u ON u.id = r.user_id
        WHERE r.id = ${id} AND r.restaurant_id = ${restaurantId}`,
  );
  return row;
}
