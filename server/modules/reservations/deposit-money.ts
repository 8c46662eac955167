import { depositMoveFor, isLateCancel, type DepositEvent, type DepositMoveDecision, type DepositTransition } from '#common/domain/deposit-moves.ts';
import type { DepositRequirement } from '#common/domain/deposit-policy.ts';
import { effectiveStatus, type ReservationActor } from '#common/domain/reservation-status.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import type { DecidedMoneyMove, PaymentsService } from '#server/modules/payments/payments.service.ts';
import {
  countSeatedCoversOf,
  findDeposit,
  listResoldCandidates,
  markMoveDone,
  readSlotResale,
  recordMove,
  requirementOfDeposit,
  type ReservationDepositRow,
} from './deposits.repository.ts';
import type { MoveStep } from './move-reservation.ts';
import { findReservation } from './reservations.repository.ts';
import { RESERVATION_NOT_FOUND } from './reservation-view.ts';
import type { ReminderLinkGrant } from './reservations.service.ts';

/** The money move `depositMoves` gives for a transition of a reservation with this deposit, at `now`. */
function moneyMoveOf(
  deposit: ReservationDepositRow,
  transition: DepositTransition,
  now: Date,
): { decision: DepositMoveDecision; requirement: DepositRequirement } {
  const requirement: DepositRequirement = requirementOfDeposit(deposit);
  const decision = depositMoveFor(transition, { now, requirement, authorised: deposit.authorised_at !== null, wasLateCancel: deposit.late_cancel });
  return { decision, requirement };
}

/** A recorded deposit move as the money-move executor takes it (its key and amount were decided with the move). */
function decidedMoveOf(deposit: ReservationDepositRow, move: NonNullable<ReservationDepositRow['move']>, key: string): DecidedMoneyMove {
  return {
    intentId: deposit.intent_id,
    key,
    kind: move === 'capture_keep' ? 'keep' : move,
    paise: deposit.move_paise,
    reason: `${move} after reservation ${deposit.reservation_id}`,
  };
}

/**
 * A reservation's deposit money (decisions 121, 130, 131, 191): each reservation move, and each money
 * event that is not a move, decides its money move from `depositMoves` under the reservation's
 * row lock, reading the deposit once, and records it with its key in that transaction; after
 * commit payments takes it through the one money-move executor (payments/money-moves.ts).
 */
export function createDepositMoney({ db, clock }: Pick<AppDeps, 'db' | 'clock'>, payments: PaymentsService) {
  /**
   * Writes the money move `depositMoves` gives, in the move's transaction, so the one move that wins
   * the row lock is the one money move (decision 130); true when payments has a move to take.
   */
  async function recordMoneyMove(tx: Db, deposit: ReservationDepositRow, transition: DepositTransition, now: Date): Promise<boolean> {
    const { decision, requirement } = moneyMoveOf(deposit, transition, now);
    if (decision.move === 'none') return false;
    // A waiver after a waiver (or a second dispute) is the same move: its key makes it one.
    const key = `deposit:${deposit.reservation_id}:${transition.event ?? `${transition.from}-${transition.to}`}:${decision.move}`;
    if (deposit.move_key === key) return deposit.move_done_at === null;
    const lateCancel = transition.to === 'CANCELLED' && transition.actor === 'diner' && decision.move === 'capture_keep' && isLateCancel(requirement, now);
    await recordMove(tx, deposit.reservation_id, { move: decision.move, paise: decision.capturePaise, key, lateCancel, now });
    return true;
  }

  /**
   * Hands a recorded money move to payments, with the move's own idempotency key (a retry repeats
   * the request, never doubles it). Left undone (for the sweep) when payments cannot take it yet.
   */
  async function settleMoneyMove(reservationId: string): Promise<void> {
    const deposit = await findDeposit(db, reservationId);
    if (!deposit?.move || !deposit.move_key || deposit.move_done_at) return;
    const key = deposit.move_key;
    await payments.settleMoneyMove(decidedMoveOf(deposit, deposit.move, key), () => markMoveDone(db, reservationId, key, clock.now()));
  }

  /**
   * A booking on the slot was seated: late cancels whose covers it (with the others seated) sold
   * again are waived, oldest first (decisions 131, 204). A late cancel's covers count as resold only
   * as far as the slot's seated covers of OTHER diners, plus every late cancel's covers, exceed the
   * slot's capacity: the slot could not have seated them had the diner kept the table. A booking
   * that is cancelled before it is seated resold nothing.
   */
  async function waiveResoldLateCancels(slotId: string): Promise<void> {
    const slot = await readSlotResale(db, slotId);
    if (!slot) return;
    let waived = slot.waived;
    for (const candidate of await listResoldCandidates(db, slotId)) {
      const seatedByOthers = slot.seated - (await countSeatedCoversOf(db, slotId, candidate.user_id));
      const resold = seatedByOthers + slot.freed - slot.capacity - waived;
      if (candidate.party_size > resold) continue;
      if (await recordMoneyEvent(candidate.reservation_id, 'tableResold', 'system')) waived += candidate.party_size;
    }
  }

  /** A money event that is not a status change, decided under the reservation's row lock; true when a money move was written. */
  async function recordMoneyEvent(reservationId: string, event: DepositEvent, actor: ReservationActor): Promise<boolean> {
    const decided = await db.transaction(async (tx) => {
      const locked = await findReservation(tx, reservationId, { forUpdate: true });
      if (!locked) throw notFound(RESERVATION_NOT_FOUND);
      const deposit = await findDeposit(tx, reservationId, { forUpdate: true });
      if (!deposit) return false;
      return recordMoneyMove(tx, deposit, { from: locked.status, to: locked.status, actor, event }, clock.now());
    });
    if (decided) await settleMoneyMove(reservationId);
    return decided;
  }

  /**
   * The money move step of every reservation move (registered in server/composition.ts): reads the
   * deposit once, locked, before the state machine decides (a paid booking may be cancelled up to
   * its start), records the move's money move after it, and has payments take it after commit. A
   * booking seated (with or without a deposit of its own) then waives the late cancels it resold.
   */
  const moneyMoveStep: MoveStep = async (tx, reservation) => {
    const deposit = await findDeposit(tx, reservation.id, { forUpdate: true });
    return {
      carriesDeposit: deposit ? deposit.authorised_at !== null : false,
      async afterMove(stepTx, move) {
        const decided = deposit ? await recordMoneyMove(stepTx, deposit, { from: move.from, to: move.to, actor: move.actor }, move.now) : false;
        const seated = move.to === 'SEATED';
        if (!decided && !seated) return;
        return async () => {
          if (decided && deposit) await settleMoneyMove(deposit.reservation_id);
          if (seated) await waiveResoldLateCancels(reservation.slotId);
        };
      },
    };
  };

  return {
    moneyMoveStep,
    settleMoneyMove,

    /**
     * A money event that is not a status change (decision 131): a staff waiver, an upheld dispute.
     * Decided by `depositMoves` on the reservation's current status under its row lock; true when a
     * money move was written (and handed to payments).
     */
    recordMoneyEvent,

    /**
     * What "Release my table" would keep of the deposit if pressed now, in paise (0 when nothing
     * is kept): the same money rule the release itself runs through (decision 130).
     */
    async releaseFeeNow(grant: ReminderLinkGrant): Promise<number> {
      const [row, deposit] = await Promise.all([findReservation(db, grant.reservationId), findDeposit(db, grant.reservationId)]);
      if (!row || !deposit) return 0;
      const now = clock.now();
      const { decision } = moneyMoveOf(deposit, { from: effectiveStatus(row.status, row.hold_expires_at, now), to: 'CANCELLED', actor: 'diner' }, now);
      return decision.move === 'capture_keep' ? decision.capturePaise : 0;
    },
  };
}

export type DepositMoney = ReturnType<typeof createDepositMoney>;
