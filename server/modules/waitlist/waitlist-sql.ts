import { sql, type SQL } from 'drizzle-orm';

/**
 * The waitlist's rules as SQL fragments for other modules' queries (decision 091): the reservations
 * module asks whether covers on a slot are owed to the line before a diner's own hold takes them.
 */

/**
 * True when a waiting entry of someone other than `exceptUserId` matches the slot (same restaurant
 * and date, the slot's time in its window) and its party fits in `freeCovers`: such covers were
 * freed after the entry joined (joining is refused while a table is free) and have not been offered
 * yet (decision 099). Expects the slot aliased as `s`.
 */
export function waitingEntryFits(freeCovers: number, exceptUserId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM waitlist_entries w
    WHERE w.status = 'waiting' AND w.restaurant_id = s.restaurant_id AND w.wait_date = s.slot_date
      AND w.window_start <= s.slot_time AND w.window_end >= s.slot_time
      AND w.party_size <= ${freeCovers} AND w.user_id <> ${exceptUserId})`;
}
