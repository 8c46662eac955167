import { sql } from 'drizzle-orm';
import { containsPattern, queryRows, type Db } from '#server/db/client.ts';
import { isLapsedHold } from './reservation-sql.ts';
import { staffBookingSelect, type AdminBookingRow } from './reservations.repository.ts';

/** A booking as staff see it: the same columns as their bookings list. */
export type BookingSearchRow = AdminBookingRow;

/**
 * One restaurant's bookings, any date, whose guest name contains `name`, whose phone contains
 * `digits`, or whose id starts with the booking code's 8 hex digits (a range on the primary key).
 * Lapsed holds were never bookings. Upcoming first, soonest first; then past, latest first.
 */
export function searchRestaurantBookings(
  db: Db,
  restaurantId: string,
  terms: { name: string; digits: string | null; codeHex: string | null },
  now: Date,
  limit: number,
): Promise<BookingSearchRow[]> {
  const conditions = [sql`lower(u.name) LIKE ${containsPattern(terms.name)}`, sql`lower(u.username) = ${terms.name.toLowerCase()}`];
  if (terms.digits) {
    const pattern = `%${terms.digits}%`;
    conditions.push(
      sql`regexp_replace(coalesce(u.phone, ''), '\\D', '', 'g') LIKE ${pattern}`,
      sql`regexp_replace(coalesce(u.verified_phone, ''), '\\D', '', 'g') LIKE ${pattern}`,
    );
  }
  if (terms.codeHex) {
    conditions.push(sql`r.id BETWEEN ${`${terms.codeHex}-0000-0000-0000-000000000000`}::uuid AND ${`${terms.codeHex}-ffff-ffff-ffff-ffffffffffff`}::uuid`);
  }
  return queryRows<BookingSearchRow>(
    db,
    sql`${staffBookingSelect}
        WHERE r.restaurant_id = ${restaurantId}
          AND NOT ${isLapsedHold(now, 'r')}
          AND NOT (r.status = 'CANCELLED' AND r.cancel_reason = 'HOLD_EXPIRED')
          AND (${sql.join(conditions, sql` OR `)})
        ORDER BY (r.starts_at < ${now.toISOString()}), CASE WHEN r.starts_at >= ${now.toISOString()} THEN r.starts_at END, r.starts_at DESC
        LIMIT ${limit}`,
  );
}
