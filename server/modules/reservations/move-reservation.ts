import type { DinerReservation } from '#common/contract/reservations.ts';
import {
  checkTransition,
  DINER_CANCEL_NOTICE_MINUTES,
  effectiveStatus,
  NO_SHOW_GRACE_MINUTES,
  type ReservationActor,
  type ReservationStatus,
  type TransitionCheck,
} from '#common/domain/reservation-status.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import {
  countCoversTaken,
  findReservation,
  insertReservationEvent,
  lockSlotById,
  updateReservationStatus,
  type ReservationRow,
} from './reservations.repository.ts';
import { HOLD_EXPIRED, RESERVATION_NOT_FOUND, toDinerReservation } from './reservation-view.ts';

/** Why a date plan gives its table back (decision 184). */
export type DateCancelReason = 'DATE_DECLINED' | 'DATE_REPLACED' | 'DATE_CANCELLED' | 'DATE_MEMBER_SUSPENDED' | 'DATE_MEMBER_BLOCKED';

/** What a cancel records as its reason, on the reservation and in its history. */
export type CancelReason = 'DINER_CANCELLED' | 'DINER_RELEASED' | 'RESTAURANT_CANCELLED' | DateCancelReason;

/**
 * Who or what moves a reservation, and why (decision 192). The state machine's actor, the id the
 * history records and a cancel's reason all follow from it; move steps read it too.
 */
export type MoveCause =
  /** The diner's Confirm or Cancel: signed in (their user id), or the hold's id alone (null). */
  | { kind: 'diner'; userId: string | null }
  /** Payments authorised the hold's deposit: the diner's Confirm completes (decision 130). */
  | { kind: 'depositAuthorised' }
  /** "Release my table" from a reminder's signed link: the diner's cancel, allowed up to the start (decision 152). */
  | { kind: 'reminderRelease' }
  /** The restaurant's staff. */
  | { kind: 'staff'; staffId: string }
  /** A date plan (decision 184): one of its two members in the diner's place, or the plan itself (booked, settled). */
  | { kind: 'datePlan'; by: 'member' | 'plan'; cancelReason?: DateCancelReason };

/** The state machine's actor for a cause, and the id the history records. */
export function actorOf(cause: MoveCause): { actor: ReservationActor; actorId: string | null } {
  switch (cause.kind) {
    case 'diner':
      return { actor: 'diner', actorId: cause.userId };
    case 'staff':
      return { actor: 'staff', actorId: cause.staffId };
    case 'datePlan':
      return { actor: cause.by === 'plan' ? 'system' : 'diner', actorId: null };
    case 'depositAuthorised':
    case 'reminderRelease':
      return { actor: 'diner', actorId: null };
  }
}

function cancelReasonOf(cause: MoveCause, to: ReservationStatus): CancelReason | undefined {
  if (to !== 'CANCELLED') return undefined;
  switch (cause.kind) {
    case 'diner':
      return 'DINER_CANCELLED';
    case 'reminderRelease':
      return 'DINER_RELEASED';
    case 'staff':
      return 'RESTAURANT_CANCELLED';
    case 'datePlan':
      return cause.cancelReason;
    case 'depositAuthorised':
      return undefined;
  }
}

/** A reservation under its row lock, as a move step sees it before the state machine decides. */
export interface LockedReservation {
  id: string;
  userId: string;
  restaurantId: string;
  slotId: string;
}

/** A move written in its transaction, as move steps see it. */
export interface ReservationMove {
  id: string;
  userId: string;
  restaurantId: string;
  from: ReservationStatus;
  to: ReservationStatus;
  actor: ReservationActor;
  cause: MoveCause;
  /** The move's instant (read after its locks). */
  now: Date;
}

/** Work that runs once the move has committed, before the caller is answered. */
export type AfterCommit = () => void | Promise<void>;

/** What a step does for one move. */
export interface MoveStepRun {
  /** The booking carries money held for it (a paid deposit, a date's two deposits): its diner may then cancel up to the start (decision 121). */
  carriesDeposit?: boolean;
  /** Runs after the move is written, in its transaction; what it returns runs after commit. */
  afterMove?: (tx: Db, move: ReservationMove) => Promise<AfterCommit | void>;
}

/**
 * A step another part of the code adds to every move (registered in server/composition.ts):
 * called under the reservation's row lock before the state machine decides, it reads what it
 * needs once and answers what it will do for this move, or nothing.
 */
export type MoveStep = (tx: Db, reservation: LockedReservation) => Promise<MoveStepRun | void>;

/** The caller's own work inside a move's transaction, after the move (a no-show's strike, a date plan's side). */
export type AlsoInTransaction = (tx: Db, moved: { id: string; userId: string; restaurantId: string }) => Promise<void>;

export interface MoveRequest {
  id: string;
  to: ReservationStatus;
  cause: MoveCause;
  /** Checks, on the locked row, that the caller may move this reservation; throws the refusal. */
  authorise: (row: ReservationRow) => void;
  alsoInTransaction?: AlsoInTransaction;
}

/** How a target status reads in a refusal: "…so it cannot be <verb>". */
const verbForTarget: Record<ReservationStatus, string> = {
  HELD: 'held',
  PENDING: 'confirmed',
  CONFIRMED: 'confirmed',
  SEATED: 'seated',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
  NO_SHOW: 'marked as a no-show',
};

function refusalMessage(check: Exclude<TransitionCheck, { allowed: true }>, from: ReservationStatus, to: ReservationStatus): string {
  switch (check.reason) {
    case 'hold_expired':
      return HOLD_EXPIRED;
    case 'too_late_to_cancel':
      return `This reservation is ${from}: an accepted reservation can be cancelled only at least ${DINER_CANCEL_NOTICE_MINUTES / 60} hours ahead. Please call the restaurant.`;
    case 'too_early_for_no_show':
      return `This reservation is ${from}: a no-show can be marked only ${NO_SHOW_GRACE_MINUTES} minutes after the booked time`;
    case 'hold_not_expired':
    case 'not_a_move':
      return `This reservation is ${from}, so it cannot be ${verbForTarget[to]}`;
  }
}

/** Tells live dashboards and /metrics of a reservation now in `status`; a cancel or no-show frees its covers for the line. */
export function announceReservation({ events, metrics }: Pick<AppDeps, 'events' | 'metrics'>, row: ReservationRow, status: ReservationStatus): void {
  metrics?.reservationChanged(status);
  events.publish('reservation.changed', { reservationId: row.id, restaurantId: row.restaurant_id, userId: row.user_id, status });
  if (status === 'CANCELLED' || status === 'NO_SHOW') events.publish('slot.freed', { slotId: row.slot_id, restaurantId: row.restaurant_id });
}

/**
 * The reservation state machine, enforced (docs/architecture.md): every move of a reservation,
 * whoever makes it, locks its row, asks each registered move step what it carries, checks the
 * move, writes it with its history, runs the caller's and the steps' work in the same
 * transaction, and after commit tells the dashboards and runs what the steps left for then.
 */
export function createMoveReservation(deps: AppDeps, strikes: Pick<StrikesService, 'assertMayBook'>) {
  const { db, clock } = deps;
  const steps: MoveStep[] = [];

  /** Checks and writes one move on the locked row; answers the move and the steps' runs for it. */
  async function applyMove(tx: Db, row: ReservationRow, request: MoveRequest): Promise<{ move: ReservationMove; runs: MoveStepRun[] }> {
    const { to, cause } = request;
    // Confirming a hold keeps its covers for good, so it queues on the slot like a new hold does
    // (decision 030); the time is read after the lock.
    const isConfirmingHold = row.status === 'HELD' && to === 'PENDING';
    const slot = isConfirmingHold ? await lockSlotById(tx, row.slot_id) : undefined;
    // A diner's Confirm of any hold (their own, a waitlist offer, a drop win), or the authorisation
    // that completes it, is refused at the strike limit as the hold itself is (decision 206).
    if (isConfirmingHold && (cause.kind === 'diner' || cause.kind === 'depositAuthorised')) await strikes.assertMayBook(tx, row.user_id);
    const now = clock.now();
    const from = effectiveStatus(row.status, row.hold_expires_at, now);
    const { actor, actorId } = actorOf(cause);
    const runs: MoveStepRun[] = [];
    for (const step of steps) {
      const run = await step(tx, { id: row.id, userId: row.user_id, restaurantId: row.restaurant_id, slotId: row.slot_id });
      if (run) runs.push(run);
    }
    const check = checkTransition(from, to, actor, {
      now,
      holdExpiresAt: row.hold_expires_at ? asDate(row.hold_expires_at) : null,
      startsAt: asDate(row.starts_at),
      carriesDeposit: runs.some((run) => run.carriesDeposit),
      releasedFromReminder: cause.kind === 'reminderRelease',
    });
    if (!check.allowed) {
      // Confirming an expired hold names what happened rather than the status it has become.
      if (row.status === 'HELD' && from === 'CANCELLED' && to === 'PENDING') throw conflict(HOLD_EXPIRED, { status: from });
      throw conflict(refusalMessage(check, from, to), { status: from });
    }
    // Another instance, whose clock runs ahead, may already have given these covers away as expired:
    // then the hold has lapsed for the slot, whatever this clock says.
    if (slot && (await countCoversTaken(tx, row.slot_id, now)) > slot.capacity) throw conflict(HOLD_EXPIRED, { status: 'CANCELLED' });
    const cancelReason = cancelReasonOf(cause, to);
    await updateReservationStatus(tx, row.id, { to, cancelReason, now });
    await insertReservationEvent(tx, { reservationId: row.id, from, to, actor, actorId, reason: cancelReason, now });
    return { move: { id: row.id, userId: row.user_id, restaurantId: row.restaurant_id, from, to, actor, cause, now }, runs };
  }

  return {
    /** Moves a reservation, locking it first so two moves cannot interleave. */
    async moveReservation(request: MoveRequest): Promise<DinerReservation> {
      const afterCommit: AfterCommit[] = [];
      const row = await db.transaction(async (tx) => {
        const locked = await findReservation(tx, request.id, { forUpdate: true });
        if (!locked) throw notFound(RESERVATION_NOT_FOUND);
        request.authorise(locked);
        const { move, runs } = await applyMove(tx, locked, request);
        await request.alsoInTransaction?.(tx, { id: move.id, userId: move.userId, restaurantId: move.restaurantId });
        for (const run of runs) {
          const then = await run.afterMove?.(tx, move);
          if (then) afterCommit.push(then);
        }
        return (await findReservation(tx, request.id))!;
      });
      announceReservation(deps, row, request.to);
      for (const then of afterCommit) await then();
      return toDinerReservation(row, clock.now());
    },

    /** Adds a step to every move, run in registration order (server/composition.ts); returns its removal. */
    addMoveStep(step: MoveStep): () => void {
      steps.push(step);
      return () => {
        const index = steps.indexOf(step);
        if (index >= 0) steps.splice(index, 1);
      };
    },
  };
}
