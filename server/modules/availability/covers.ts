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

/**
 * A slot anyone may book: not part of a drop, or part of a drop whose line has had its turn
 * (every entry offered, so the leftover tables join normal availability; decision 082).
 * Until then a drop's slots are given out only through its draw. Expects the slot aliased as `s`.
 */
export function slotIsPublic(now: Date): SQL {
  return sql`(s.drop_id IS NULL OR EXISTS (
    SELECT 1 FROM drops d WHERE d.id = s.drop_id AND d.opened_to_all_at <= ${now.toISOString()}))`;
}

/** A slot open for booking at `now`: staff have not closed it, its cut-off has not passed, and no drop holds it back. */
export function slotIsOpen(now: Date, cutoffMinutes: number): SQL {
  const cutoff = new Date(now.getTime() + cutoffMinutes * 60_000).toISOString();
  return sql`(s.status = 'available' AND s.starts_at > ${cutoff} AND ${slotIsPublic(now)})`;
}
