import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import { coversTakenJoin, holdsCovers } from '#server/modules/reservations/reservation-sql.ts';
import { slotIsOpen } from '#server/modules/slots/slot-sql.ts';

export interface SlotAvailabilityRow {
  id: string;
  time: string;
  starts_at: Date | string;
  is_open: boolean;
  free_covers: number;
  /** The per-guest deposit of the drop the slot belongs to, if it asks one. */
  drop_deposit_per_cover_paise: number | null;
}

/** Every slot of one restaurant on one date with its free covers: one indexed query. */
export function listSlotAvailability(db: Db, restaurantId: string, date: string, now: Date, cutoffMinutes: number) {
  return queryRows<SlotAvailabilityRow>(
    db,
    sql`SELECT s.id, s.slot_time AS time, s.starts_at, ${slotIsOpen(now, cutoffMinutes)} AS is_open,
               (s.capacity - taken.covers)::int AS free_covers, d.deposit_per_cover_paise AS drop_deposit_per_cover_paise
        FROM slots s LEFT JOIN drops d ON d.id = s.drop_id ${coversTakenJoin(now)}
        WHERE s.restaurant_id = ${restaurantId} AND s.slot_date = ${date}
        ORDER BY s.slot_time`,
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
  starts_at: Date | string;
  /** The per-guest deposit of the drop the slot belongs to, if it asks one. */
  drop_deposit_per_cover_paise: number | null;
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
               s.slot_time AS time, (s.capacity - taken.covers)::int AS free_covers,
               s.starts_at, d.deposit_per_cover_paise AS drop_deposit_per_cover_paise
        FROM slots s
        JOIN restaurants rest ON rest.id = s.restaurant_id
        LEFT JOIN drops d ON d.id = s.drop_id
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

/** A slot as the availability cache keeps it: everything needed to answer for any instant. */
export interface CachedSlotRow {
  id: string;
  date: string;
  time: string;
  capacity: number;
  status: string;
  starts_at: Date | string;
  /** Part of a drop; null for an ordinary slot. */
  drop_id: string | null;
  /** When the drop's leftover tables joined normal availability (null: not yet). */
  drop_opened_to_all_at: Date | string | null;
  /** The per-guest deposit the drop asks (decision 120), or null. */
  drop_deposit_per_cover_paise: number | null;
  /** Covers of PENDING, CONFIRMED and SEATED reservations: taken until someone moves them. */
  lasting_covers: number;
  /** The live holds as [expiry epoch milliseconds, covers] pairs: each stops counting at its expiry. */
  holds: [number, number][];
}

/**
 * Every slot of one restaurant in [from, to], with what takes its covers, in one indexed query:
 * holds that expire before `now` are left out, the rest are kept with their expiry so the
 * cache can drop each at its own instant.
 */
export function listSlotsForCache(db: Db, restaurantId: string, from: string, to: string, now: Date) {
  return queryRows<CachedSlotRow>(
    db,
    sql`SELECT s.id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time, s.capacity, s.status, s.starts_at,
               s.drop_id, d.opened_to_all_at AS drop_opened_to_all_at, d.deposit_per_cover_paise AS drop_deposit_per_cover_paise,
               coalesce(taken.lasting_covers, 0)::int AS lasting_covers, coalesce(taken.holds, '[]'::json) AS holds
        FROM slots s
        LEFT JOIN drops d ON d.id = s.drop_id
        LEFT JOIN LATERAL (
          SELECT sum(r.party_size) FILTER (WHERE r.status <> 'HELD') AS lasting_covers,
                 json_agg(json_build_array((extract(epoch FROM r.hold_expires_at) * 1000)::bigint, r.party_size))
                   FILTER (WHERE r.status = 'HELD') AS holds
          FROM reservations r
          WHERE r.slot_id = s.id
            AND ${holdsCovers(now, 'r')}
        ) taken ON true
        WHERE s.restaurant_id = ${restaurantId} AND s.slot_date BETWEEN ${from} AND ${to}
        ORDER BY s.slot_date, s.slot_time`,
  );
}
