import { sql, type SQL } from 'drizzle-orm';
import { bookingCutoffInstant } from '#common/domain/time.ts';

/**
 * The slots module's rules as SQL fragments, for any query that reads slots (decision 091).
 * Each expects the slot aliased as `s`.
 */

/**
 * A slot anyone may book: not part of a drop, or part of a drop whose line has had its turn
 * (every entry offered, so the leftover tables join normal availability; decision 082).
 * Until then a drop's slots are given out only through its draw.
 */
export function slotIsPublic(now: Date): SQL {
  return sql`(s.drop_id IS NULL OR EXISTS (
    SELECT 1 FROM drops d WHERE d.id = s.drop_id AND d.opened_to_all_at <= ${now.toISOString()}))`;
}

/** A slot open for booking at `now`: staff have not closed it, its cut-off has not passed, and no drop holds it back. */
export function slotIsOpen(now: Date, cutoffMinutes: number): SQL {
  return sql`(s.status = 'available' AND s.starts_at > ${bookingCutoffInstant(now, cutoffMinutes).toISOString()} AND ${slotIsPublic(now)})`;
}
