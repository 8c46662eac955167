import { sql, type SQL } from 'drizzle-orm';

/**
 * The one definition of "covers taken" on a slot, used by every read and by the
 * hold itself: active reservations, with a HELD one counting only until its
 * expiry instant (so an expired hold frees its covers before any sweeper runs).
 * Expects the slot aliased as `s`; yields `taken.covers`.
 */
export function coversTakenJoin(now: Date): SQL {
  return sql`LEFT JOIN LATERAL (
    SELECT coalesce(sum(r.party_size), 0)::int AS covers
    FROM reservations r
    WHERE r.slot_id = s.id
      AND r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
      AND (r.status <> 'HELD' OR r.hold_expires_at > ${now.toISOString()})
  ) taken ON true`;
}

/** A slot open for booking at `now`: staff have not closed it and its cut-off has not passed. */
export function slotIsOpen(now: Date, cutoffMinutes: number): SQL {
  const cutoff = new Date(now.getTime() + cutoffMinutes * 60_000).toISOString();
  return sql`(s.status = 'available' AND s.starts_at > ${cutoff})`;
}
