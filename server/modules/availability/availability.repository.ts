import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import { coversTakenJoin, slotIsOpen } from './covers.ts';

export interface SlotAvailabilityRow {
  id: string;
  time: string;
  is_open: boolean;
  free_covers: number;
}

/** Every slot of one restaurant on one date with its free covers: one indexed query. */
export function listSlotAvailability(db: Db, restaurantId: string, date: string, now: Date, cutoffMinutes: number) {
  return queryRows<SlotAvailabilityRow>(
    db,
    sql`SELECT s.id, s.slot_time AS time, ${slotIsOpen(now, cutoffMinutes)} AS is_open,
               (s.capacity - taken.covers)::int AS free_covers
        FROM slots s ${coversTakenJoin(now)}
        WHERE s.restaurant_id = ${restaurantId} AND s.slot_date = ${date}
        ORDER BY s.slot_time`,
  );
}

/** For each date in [from, to]: the most covers free in any open slot. Dates with no open slot are absent. */
export function listMaxFreeCoversByDate(db: Db, restaurantId: string, from: string, to: string, now: Date, cutoffMinutes: number) {
  return queryRows<{ date: string; max_free: number }>(
    db,
    sql`SELECT to_char(s.slot_date, 'YYYY-MM-DD') AS date, max(s.capacity - taken.covers)::int AS max_free
        FROM slots s ${coversTakenJoin(now)}
        WHERE s.restaurant_id = ${restaurantId} AND s.slot_date BETWEEN ${from} AND ${to}
          AND ${slotIsOpen(now, cutoffMinutes)}
        GROUP BY s.slot_date
        ORDER BY s.slot_date`,
  );
}

export interface OpenSlotRow {
  restaurant_id: string;
  slug: string;
  name: string;
  emoji: string;
  neighborhood: string;
  category: string;
  cuisine_tags: string[];
  hot: boolean;
  slot_id: string;
  date: string;
  time: string;
  free_covers: number;
}

/**
 * Open slots starting in (now + cut-off, until], with at least `minCovers` free, across
 * all restaurants: one query whose slot scan is a range on slots_starts_at_idx, so its
 * cost follows the window, not the number of days stored. Exported as SQL so tests can
 * EXPLAIN exactly this query.
 */
export function openSlotsBetweenQuery(now: Date, until: Date, cutoffMinutes: number, minCovers: number): SQL {
  return sql`SELECT rest.id AS restaurant_id, rest.slug, rest.name, rest.emoji, rest.neighborhood, rest.category,
               rest.cuisine_tags, rest.hot, s.id AS slot_id, to_char(s.slot_date, 'YYYY-MM-DD') AS date,
               s.slot_time AS time, (s.capacity - taken.covers)::int AS free_covers
        FROM slots s
        JOIN restaurants rest ON rest.id = s.restaurant_id
        ${coversTakenJoin(now)}
        WHERE s.starts_at <= ${until.toISOString()}
          AND ${slotIsOpen(now, cutoffMinutes)}
          AND s.capacity - taken.covers >= ${minCovers}
        ORDER BY rest.hot DESC, rest.name, rest.id, s.starts_at`;
}

/** Runs openSlotsBetweenQuery. */
export function listOpenSlotsBetween(db: Db, now: Date, until: Date, cutoffMinutes: number, minCovers: number) {
  return queryRows<OpenSlotRow>(db, openSlotsBetweenQuery(now, until, cutoffMinutes, minCovers));
}
