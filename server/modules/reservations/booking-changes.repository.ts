import { sql } from 'drizzle-orm';
import type { MoneyRequirement } from '#common/domain/deposit-policy.ts';
import type { ReservationActor } from '#common/domain/reservation-status.ts';
import { queryRows, type Db } from '#server/db/client.ts';

/** SQL of reservation_changes (migration 0027) and the writes a change makes to its reservation and deposit. */

export interface ReservationChangeRow {
  id: string;
  reservation_id: string;
  status: 'awaiting_payment' | 'applied' | 'refused';
  from_slot_id: string;
  to_slot_id: string;
  from_starts_at: Date;
  to_starts_at: Date;
  from_party_size: number;
  to_party_size: number;
  extra_paise: number;
  released_paise: number;
  extra_intent_id: string | null;
  actor_kind: ReservationActor;
  actor_id: string | null;
  created_at: Date;
  applied_at: Date | null;
}

export interface NewChange {
  reservationId: string;
  status: ReservationChangeRow['status'];
  fromSlotId: string;
  toSlotId: string;
  fromStartsAt: Date;
  toStartsAt: Date;
  fromPartySize: number;
  toPartySize: number;
  extraPaise: number;
  releasedPaise: number;
  actorKind: ReservationActor;
  actorId: string | null;
  now: Date;
}

export async function insertChange(db: Db, change: NewChange): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO reservation_changes (reservation_id, status, from_slot_id, to_slot_id, from_starts_at, to_starts_at, from_party_size, to_party_size,
          extra_paise, released_paise, actor_kind, actor_id, created_at, applied_at)
        VALUES (${change.reservationId}, ${change.status}, ${change.fromSlotId}, ${change.toSlotId}, ${change.fromStartsAt.toISOString()},
          ${change.toStartsAt.toISOString()}, ${change.fromPartySize}, ${change.toPartySize}, ${change.extraPaise}, ${change.releasedPaise},
          ${change.actorKind}, ${change.actorId}, ${change.now.toISOString()}, ${change.status === 'applied' ? change.now.toISOString() : null})
        RETURNING id`,
  );
  return row.id;
}

export async function setChangeIntent(db: Db, changeId: string, intentId: string): Promise<void> {
  await db.execute(sql`UPDATE reservation_changes SET extra_intent_id = ${intentId} WHERE id = ${changeId}`);
}

/** A waiting change becomes applied (with what it finally released) or refused; false when it no longer waits. */
export async function settleWaitingChange(db: Db, changeId: string, status: 'applied' | 'refused', now: Date): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`UPDATE reservation_changes SET status = ${status}, applied_at = ${status === 'applied' ? now.toISOString() : null}
        WHERE id = ${changeId} AND status = 'awaiting_payment' RETURNING id`,
  );
  return rows.length > 0;
}

/** A change still waiting for its payment is given up when the diner asks another (its payment, if it comes, is released). */
export async function refuseWaitingChanges(db: Db, reservationId: string): Promise<void> {
  await db.execute(sql`UPDATE reservation_changes SET status = 'refused' WHERE reservation_id = ${reservationId} AND status = 'awaiting_payment'`);
}

export async function findChangeByIntent(db: Db, intentId: string, options: { forUpdate?: boolean } = {}): Promise<ReservationChangeRow | undefined> {
  const [row] = await queryRows<ReservationChangeRow>(
    db,
    sql`SELECT * FROM reservation_changes WHERE extra_intent_id = ${intentId} ${options.forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row;
}

/** A reservation's changes, oldest first. */
export function listChanges(db: Db, reservationId: string): Promise<ReservationChangeRow[]> {
  return queryRows<ReservationChangeRow>(db, sql`SELECT * FROM reservation_changes WHERE reservation_id = ${reservationId} ORDER BY created_at, id`);
}

/** The latest applied change of each of these reservations (what a booking list shows). */
export async function listLatestAppliedChanges(db: Db, reservationIds: string[]): Promise<ReservationChangeRow[]> {
  if (reservationIds.length === 0) return [];
  return queryRows<ReservationChangeRow>(
    db,
    sql`SELECT DISTINCT ON (reservation_id) * FROM reservation_changes
        WHERE status = 'applied' AND reservation_id IN (${sql.join(
          reservationIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        ORDER BY reservation_id, applied_at DESC, id DESC`,
  );
}

/** Extra deposits of applied changes still to settle with the booking (decision 283). */
export function listExtraIntents(db: Db, reservationId: string): Promise<{ id: string; extra_intent_id: string }[]> {
  return queryRows<{ id: string; extra_intent_id: string }>(
    db,
    sql`SELECT id, extra_intent_id FROM reservation_changes WHERE reservation_id = ${reservationId} AND status = 'applied' AND extra_intent_id IS NOT NULL`,
  );
}

/** The booking's new time and party (its status and everything else stay). */
export async function updateReservationTimeAndParty(
  db: Db,
  id: string,
  change: { slotId: string; startsAt: Date; partySize: number; now: Date },
): Promise<void> {
  await db.execute(
    sql`UPDATE reservations SET slot_id = ${change.slotId}, starts_at = ${change.startsAt.toISOString()}, party_size = ${change.partySize},
          updated_at = ${change.now.toISOString()}
        WHERE id = ${id}`,
  );
}

/** A deposit's terms after a change (decisions 281, 282): the amount the booking now carries and its kept shares and deadline. */
export async function updateDepositTerms(db: Db, reservationId: string, terms: Omit<MoneyRequirement, 'kind'> & { now: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE reservation_deposits SET amount_paise = ${terms.amountPaise}, per_cover_paise = ${terms.perCoverPaise},
          free_cancel_until = ${terms.freeCancelUntil.toISOString()}, late_cancel_keep_paise = ${terms.lateCancelKeepPaise},
          no_show_keep_paise = ${terms.noShowKeepPaise}, plain_words = ${terms.plainWords}, updated_at = ${terms.now.toISOString()}
        WHERE reservation_id = ${reservationId}`,
  );
}
