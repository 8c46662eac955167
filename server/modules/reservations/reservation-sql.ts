import { sql, type SQL } from 'drizzle-orm';
import { coverHoldingStatuses } from '#common/domain/reservation-status.ts';

/**
 * The reservations module's rules as SQL fragments, derived from the state machine in
 * common/domain/reservation-status.ts, for any query that reads reservations (decision 091:
 * other modules import these, never reservations.repository.ts).
 */

/** `alias.name`, or the bare column when the query has no alias. */
const column = (alias: string, name: string): SQL => sql.raw(alias ? `${alias}.${name}` : name);

/** The statuses of coverHoldingStatuses as a literal SQL list (constants, so the planner sees them). */
const coverHoldingList = sql.raw(coverHoldingStatuses.map((status) => `'${status}'`).join(', '));

/** The SQL form of isHoldingCovers: active statuses, a HELD one only until its expiry instant. */
export function holdsCovers(now: Date, alias = 'r'): SQL {
  const status = column(alias, 'status');
  return sql`(${status} IN (${coverHoldingList}) AND (${status} <> 'HELD' OR ${column(alias, 'hold_expires_at')} > ${now.toISOString()}))`;
}

/** A hold past its expiry at `now`, swept or not yet (the SQL form of effectiveStatus's one rule). */
export function isLapsedHold(now: Date, alias = 'r'): SQL {
  return sql`(${column(alias, 'status')} = 'HELD' AND ${column(alias, 'hold_expires_at')} <= ${now.toISOString()})`;
}

/** The SQL form of effectiveStatus: an expired hold reads as the CANCELLED it has become. */
export function effectiveStatusSql(now: Date, alias = 'r'): SQL {
  return sql`CASE WHEN ${isLapsedHold(now, alias)} THEN 'CANCELLED' ELSE ${column(alias, 'status')} END`;
}

/**
 * The one definition of "covers taken" on a slot, used by every read and by the hold itself:
 * the party sizes of the reservations holding covers at `now`. Expects the slot aliased as `s`;
 * yields `taken.covers`.
 */
export function coversTakenJoin(now: Date): SQL {
  return sql`LEFT JOIN LATERAL (
    SELECT coalesce(sum(r.party_size), 0)::int AS covers
    FROM reservations r
    WHERE r.slot_id = s.id
      AND ${holdsCovers(now, 'r')}
  ) taken ON true`;
}

/** A reservation that was a booking: not a hold that lapsed (swept or not yet). Staff's lists and the guest card count only these. */
export function wasBooking(now: Date, alias = 'r'): SQL {
  return sql`(NOT ${isLapsedHold(now, alias)} AND NOT (${column(alias, 'status')} = 'CANCELLED' AND coalesce(${column(alias, 'cancel_reason')}, '') = 'HOLD_EXPIRED'))`;
}

/** The guest came: seated, or seated and done (decision 262). */
export function isVisit(alias = 'r'): SQL {
  return sql`(${column(alias, 'status')} IN ('SEATED', 'COMPLETED'))`;
}

/**
 * A late cancel (decision 262): a booking (not a hold) the diner cancelled less than
 * `minutes` before its start, read from its history.
 */
export function isLateDinerCancel(minutes: number, alias = 'r'): SQL {
  return sql`(${column(alias, 'status')} = 'CANCELLED' AND EXISTS (
    SELECT 1 FROM reservation_events late_e
    WHERE late_e.reservation_id = ${column(alias, 'id')} AND late_e.to_status = 'CANCELLED'
      AND late_e.actor_kind = 'diner' AND late_e.from_status <> 'HELD'
      AND late_e.created_at > ${column(alias, 'starts_at')} - make_interval(mins => ${minutes}::int)))`;
}
