import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { coversTakenJoin, holdsCovers } from '#server/modules/reservations/reservation-sql.ts';

/** The slots' SQL: the only place that writes the slots table (decision 091). Every staff query is scoped by restaurant id. */

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

/** Which of these (date, time) pairs the restaurant already has a slot at. */
export function findTakenSlotTimes(db: Db, restaurantId: string, dates: string[], times: string[]): Promise<{ date: string; time: string }[]> {
  return queryRows<{ date: string; time: string }>(
    db,
    sql`SELECT to_char(slot_date, 'YYYY-MM-DD') AS date, slot_time AS time FROM slots
        WHERE restaurant_id = ${restaurantId} AND slot_date = ANY(${toPgArray(dates)}::date[]) AND slot_time = ANY(${toPgArray(times)}::text[])
        ORDER BY slot_date, slot_time`,
  );
}

/** A time the restaurant already has, locked for a drop to take: its drop if any, and its live bookings. */
export interface ExistingTimeRow {
  id: string;
  date: string;
  time: string;
  drop_id: string | null;
  drop_title: string | null;
  bookings: number;
  covers: number;
}

/** Locks the restaurant's slots at these dates × times (in date and time order), with what is booked on each at `now`. */
export function lockExistingTimes(db: Db, restaurantId: string, dates: string[], times: string[], now: Date): Promise<ExistingTimeRow[]> {
  return queryRows<ExistingTimeRow>(
    db,
    sql`SELECT s.id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time, s.drop_id,
               (SELECT d.title FROM drops d WHERE d.id = s.drop_id) AS drop_title,
               (SELECT count(*)::int FROM reservations r WHERE r.slot_id = s.id AND ${holdsCovers(now, 'r')}) AS bookings,
               (SELECT coalesce(sum(r.party_size), 0)::int FROM reservations r WHERE r.slot_id = s.id AND ${holdsCovers(now, 'r')}) AS covers
        FROM slots s
        WHERE s.restaurant_id = ${restaurantId} AND s.slot_date = ANY(${toPgArray(dates)}::date[]) AND s.slot_time = ANY(${toPgArray(times)}::text[])
        ORDER BY s.slot_date, s.slot_time
        FOR UPDATE OF s`,
  );
}

/** Makes existing slots a drop's: the drop's covers, open (the drop's release decides when anyone sees them). */
export async function moveSlotsIntoDrop(db: Db, restaurantId: string, dropId: string, slotIds: string[], capacity: number): Promise<void> {
  if (slotIds.length === 0) return;
  await db.execute(
    sql`UPDATE slots SET drop_id = ${dropId}, capacity = ${capacity}, status = 'available'
        WHERE restaurant_id = ${restaurantId} AND id = ANY(${toPgArray(slotIds)}::uuid[]) AND drop_id IS NULL`,
  );
}

export async function insertDropSlots(
  db: Db,
  restaurantId: string,
  dropId: string,
  slots: { dates: string[]; times: string[]; startsAt: string[]; capacity: number },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity, drop_id)
        SELECT ${restaurantId}, t.slot_date::date, t.slot_time, t.starts_at::timestamptz, ${slots.capacity}, ${dropId}
        FROM unnest(${toPgArray(slots.dates)}::text[], ${toPgArray(slots.times)}::text[], ${toPgArray(slots.startsAt)}::text[])
          AS t(slot_date, slot_time, starts_at)`,
  );
}

export async function findDropIdOfSlot(db: Db, slotId: string): Promise<string | null> {
  const [row] = await queryRows<{ drop_id: string | null }>(db, sql`SELECT drop_id FROM slots WHERE id = ${slotId}`);
  return row?.drop_id ?? null;
}

/** Locks one of the restaurant's slots for an edit; with its drop and how many reservations it has ever had. */
export async function lockSlotForEdit(
  db: Db,
  restaurantId: string,
  slotId: string,
  now: Date,
): Promise<{ id: string; drop_id: string | null; covers_booked: number; reservations: number } | undefined> {
  const [locked] = await queryRows<{ id: string; drop_id: string | null }>(
    db,
    sql`SELECT id, drop_id FROM slots WHERE id = ${slotId} AND restaurant_id = ${restaurantId} FOR UPDATE`,
  );
  if (!locked) return undefined;
  const [counts] = await queryRows<{ covers_booked: number; reservations: number }>(
    db,
    sql`SELECT taken.covers AS covers_booked, (SELECT count(*)::int FROM reservations r WHERE r.slot_id = s.id) AS reservations
        FROM slots s ${coversTakenJoin(now)} WHERE s.id = ${slotId}`,
  );
  return { ...locked, covers_booked: Number(counts?.covers_booked ?? 0), reservations: counts?.reservations ?? 0 };
}

export async function updateSlotCapacity(db: Db, slotId: string, capacity: number): Promise<void> {
  await db.execute(sql`UPDATE slots SET capacity = ${capacity} WHERE id = ${slotId}`);
}

export async function deleteSlot(db: Db, slotId: string): Promise<void> {
  await db.execute(sql`DELETE FROM slots WHERE id = ${slotId}`);
}
