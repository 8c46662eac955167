import { sql } from 'drizzle-orm';
import type { DepositMove } from '#common/domain/deposit-moves.ts';
import type { MoneyRequirement } from '#common/domain/deposit-policy.ts';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { asDate, queryRows, type Db } from '#server/db/client.ts';
import { restaurantRefColumns, type RestaurantRefRow } from '#server/modules/restaurants/restaurant-sql.ts';

/** SQL of reservation_deposits (migration 0010): the deposit a reservation carries and its decided money move. */

export interface ReservationDepositRow {
  reservation_id: string;
  intent_id: string;
  kind: 'deposit' | 'prepayment';
  amount_paise: number;
  per_cover_paise: number;
  free_cancel_until: Date;
  late_cancel_keep_paise: number;
  no_show_keep_paise: number;
  plain_words: string;
  authorised_at: Date | null;
  late_cancel: boolean;
  move: Exclude<DepositMove, 'none'> | null;
  move_paise: number;
  move_key: string | null;
  move_done_at: Date | null;
  user_id: string;
  restaurant_id: string;
  restaurant_name: string;
  slot_id: string;
  party_size: number;
  starts_at: Date;
  reservation_status: ReservationStatus;
}

const depositColumns = sql`d.*, r.user_id, r.restaurant_id, rest.name AS restaurant_name, r.slot_id, r.party_size, r.starts_at, r.status AS reservation_status`;
const depositJoins = sql`FROM reservation_deposits d JOIN reservations r ON r.id = d.reservation_id JOIN restaurants rest ON rest.id = r.restaurant_id`;

/** The requirement as it was asked when the diner paid. */
export function requirementOfDeposit(row: ReservationDepositRow): MoneyRequirement {
  return {
    kind: row.kind,
    amountPaise: row.amount_paise,
    perCoverPaise: row.per_cover_paise,
    freeCancelUntil: asDate(row.free_cancel_until),
    lateCancelKeepPaise: row.late_cancel_keep_paise,
    noShowKeepPaise: row.no_show_keep_paise,
    plainWords: row.plain_words,
  };
}

/** Writes the deposit a hold is paying (once: a second Pay press finds the first). */
export async function insertDepositOnce(db: Db, deposit: { reservationId: string; intentId: string; requirement: MoneyRequirement; now: Date }): Promise<void> {
  const { requirement: r, now } = deposit;
  await db.execute(
    sql`INSERT INTO reservation_deposits (reservation_id, intent_id, kind, amount_paise, per_cover_paise, free_cancel_until,
          late_cancel_keep_paise, no_show_keep_paise, plain_words, created_at, updated_at)
        VALUES (${deposit.reservationId}, ${deposit.intentId}, ${r.kind}, ${r.amountPaise}, ${r.perCoverPaise}, ${r.freeCancelUntil.toISOString()},
          ${r.lateCancelKeepPaise}, ${r.noShowKeepPaise}, ${r.plainWords}, ${now.toISOString()}, ${now.toISOString()})
        ON CONFLICT (reservation_id) DO NOTHING`,
  );
}

export async function findDeposit(db: Db, reservationId: string, options: { forUpdate?: boolean } = {}): Promise<ReservationDepositRow | undefined> {
  const [row] = await queryRows<ReservationDepositRow>(
    db,
    sql`SELECT ${depositColumns} ${depositJoins} WHERE d.reservation_id = ${reservationId} ${options.forUpdate ? sql`FOR UPDATE OF d` : sql``}`,
  );
  return row;
}

export async function findDepositByIntent(db: Db, intentId: string): Promise<ReservationDepositRow | undefined> {
  const [row] = await queryRows<ReservationDepositRow>(db, sql`SELECT ${depositColumns} ${depositJoins} WHERE d.intent_id = ${intentId}`);
  return row;
}

export async function markAuthorised(db: Db, reservationId: string, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE reservation_deposits SET authorised_at = ${now.toISOString()}, updated_at = ${now.toISOString()} WHERE reservation_id = ${reservationId}`,
  );
}

/** Records the money move a reservation move decided (in that move's transaction); payments takes it after commit. */
export async function recordMove(
  db: Db,
  reservationId: string,
  move: { move: Exclude<DepositMove, 'none'>; paise: number; key: string; lateCancel?: boolean; now: Date },
): Promise<void> {
  await db.execute(
    sql`UPDATE reservation_deposits SET move = ${move.move}, move_paise = ${move.paise}, move_key = ${move.key}, move_done_at = NULL,
          late_cancel = late_cancel OR ${move.lateCancel ?? false}, updated_at = ${move.now.toISOString()}
        WHERE reservation_id = ${reservationId}`,
  );
}

export async function markMoveDone(db: Db, reservationId: string, key: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE reservation_deposits SET move_done_at = ${now.toISOString()} WHERE reservation_id = ${reservationId} AND move_key = ${key}`);
}

/** Moves decided but not yet taken by payments (a crash after commit, a refused or busy provider). */
export async function listUndoneMoves(db: Db, limit: number): Promise<string[]> {
  const rows = await queryRows<{ reservation_id: string }>(
    db,
    sql`SELECT reservation_id FROM reservation_deposits WHERE move IS NOT NULL AND move_done_at IS NULL ORDER BY updated_at LIMIT ${limit}`,
  );
  return rows.map((row) => row.reservation_id);
}

/** Deposits whose hold has not become a booking though money may be blocked (reconciled on start). */
export async function listUnbookedDeposits(db: Db, since: Date, limit: number): Promise<ReservationDepositRow[]> {
  return queryRows<ReservationDepositRow>(
    db,
    sql`SELECT ${depositColumns} ${depositJoins}
        WHERE d.authorised_at IS NULL AND d.move IS NULL AND r.status IN ('HELD', 'CANCELLED') AND d.created_at > ${since.toISOString()}
        ORDER BY d.created_at LIMIT ${limit}`,
  );
}

/**
 * Late cancels on a slot whose fee is captured and not waived, oldest cancel first: the covers a
 * new booking on that slot takes before the start were sold again (decision 131).
 */
export async function listResoldCandidates(db: Db, slotId: string, now: Date): Promise<ReservationDepositRow[]> {
  return queryRows<ReservationDepositRow>(
    db,
    sql`SELECT ${depositColumns} ${depositJoins}
        WHERE r.slot_id = ${slotId} AND r.status = 'CANCELLED' AND d.late_cancel AND d.move = 'capture_keep' AND r.starts_at > ${now.toISOString()}
        ORDER BY d.updated_at`,
  );
}

/** A diner's deposits, newest first, with what /me shows of the booking. */
export async function listDepositsOfUser(db: Db, userId: string, limit: number) {
  return queryRows<ReservationDepositRow & RestaurantRefRow & { slot_date: string; slot_time: string }>(
    db,
    sql`SELECT ${depositColumns}, ${restaurantRefColumns}, to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time
        ${depositJoins} JOIN slots s ON s.id = r.slot_id
        WHERE r.user_id = ${userId} ORDER BY d.created_at DESC LIMIT ${limit}`,
  );
}

/** A restaurant's deposits for bookings on one Kolkata date. */
export async function listDepositsOfDay(db: Db, restaurantId: string, date: string) {
  return queryRows<ReservationDepositRow>(
    db,
    sql`SELECT ${depositColumns} ${depositJoins} JOIN slots s ON s.id = r.slot_id
        WHERE r.restaurant_id = ${restaurantId} AND s.slot_date = ${date} ORDER BY r.starts_at`,
  );
}

/** The per-guest deposit of the drop a slot belongs to (a read-only look at the drops table for the hold view), or null. */
export async function findDropDepositOfSlot(db: Db, slotId: string): Promise<number | null> {
  const [row] = await queryRows<{ paise: number | null }>(
    db,
    sql`SELECT d.deposit_per_cover_paise AS paise FROM slots s JOIN drops d ON d.id = s.drop_id WHERE s.id = ${slotId}`,
  );
  return row?.paise ?? null;
}

/**
 * The Tablefair date deposits of a restaurant's bookings on one Kolkata date (a read-only look at
 * the dating plans and their payment intents): each member's intent, by the booking it is for.
 */
export async function listDateDepositsOfDay(db: Db, restaurantId: string, date: string) {
  return queryRows<{ reservation_id: string; intent_id: string; amount_paise: number }>(
    db,
    sql`SELECT dp.reservation_id, p.id AS intent_id, p.amount_paise
        FROM dating_plans dp JOIN payment_intents p ON p.dating_plan_id = dp.id
        JOIN reservations r ON r.id = dp.reservation_id JOIN slots s ON s.id = r.slot_id
        WHERE r.restaurant_id = ${restaurantId} AND s.slot_date = ${date} AND p.authorised_paise > 0
        ORDER BY r.starts_at, p.created_at`,
  );
}
