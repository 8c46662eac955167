/**
 * Which money moves with which reservation move (decision 121), written once as data
 * beside the reservation state machine (`reservation-status.ts`). `reservations/deposits.service.ts` executes the move
 * through the payments service; this file only decides it.
 *
 * The moves, as payments performs them:
 * - `release`: the authorisation is let go in full; nothing is taken.
 * - `capture_keep`: the kept share (late-cancel or no-show, see `keep`) is captured, the rest released.
 * - `credit_at_table`: the whole amount is captured and shown as credit on the diner's bill.
 * - `waive`: no fee after all: whatever is still authorised is released and a fee already
 *   captured is refunded.
 * - `none`: no money moves.
 */
import type { DepositRequirement } from './deposit-policy.ts';
import type { ReservationActor, ReservationStatus } from './reservation-status.ts';

export const depositMoveKinds = ['release', 'capture_keep', 'credit_at_table', 'waive', 'none'] as const;
export type DepositMove = (typeof depositMoveKinds)[number];

/**
 * What must also be true for a row to apply:
 * - `always`;
 * - `authorised` / `notAuthorised`: money has (not) been blocked yet (a hold may be cancelled before or after paying);
 * - `withinFreeCancel` / `late`: the move happens before / at or after the policy's free-cancel deadline;
 * - `lateCancel`: the reservation was cancelled late by its diner (a fee was kept).
 */
export type DepositCondition = 'always' | 'authorised' | 'notAuthorised' | 'withinFreeCancel' | 'late' | 'lateCancel';

/**
 * Money events that are not a status change (`from` and `to` are then the same terminal status):
 * the covers of a late cancel resold to another diner who is seated (decision 204), a waiver pressed by staff, a strike's
 * dispute upheld by staff.
 */
export const depositEvents = ['tableResold', 'staffWaiver', 'disputeUpheld'] as const;
export type DepositEvent = (typeof depositEvents)[number];

export interface DepositMoveRule {
  from: ReservationStatus;
  to: ReservationStatus;
  actor: ReservationActor;
  event?: DepositEvent;
  condition: DepositCondition;
  move: DepositMove;
  /** For `capture_keep`: which of the policy's shares is kept. */
  keep?: 'lateCancel' | 'noShow';
  /** Why, in a sentence (shown in docs and test names). */
  why: string;
}

export const depositMoves: readonly DepositMoveRule[] = [
  { from: 'HELD', to: 'PENDING', actor: 'diner', condition: 'always', move: 'none', why: 'the authorisation made the booking; it stays blocked' },
  { from: 'HELD', to: 'CANCELLED', actor: 'diner', condition: 'authorised', move: 'release', why: 'a hold given up after paying is released' },
  { from: 'HELD', to: 'CANCELLED', actor: 'diner', condition: 'notAuthorised', move: 'none', why: 'a hold given up before paying took no money' },
  { from: 'HELD', to: 'CANCELLED', actor: 'system', condition: 'authorised', move: 'release', why: 'a hold that expired after paying is released' },
  { from: 'HELD', to: 'CANCELLED', actor: 'system', condition: 'notAuthorised', move: 'none', why: 'a hold that expired unpaid took no money' },
  { from: 'PENDING', to: 'CONFIRMED', actor: 'staff', condition: 'always', move: 'none', why: 'accepting the booking leaves the deposit blocked' },
  { from: 'PENDING', to: 'CANCELLED', actor: 'diner', condition: 'always', move: 'release', why: 'the restaurant had not accepted yet, so no fee' },
  { from: 'PENDING', to: 'CANCELLED', actor: 'staff', condition: 'always', move: 'release', why: 'the restaurant cancelled, so no fee' },
  { from: 'CONFIRMED', to: 'SEATED', actor: 'staff', condition: 'always', move: 'credit_at_table', why: 'the deposit becomes credit on the bill' },
  { from: 'CONFIRMED', to: 'CANCELLED', actor: 'diner', condition: 'withinFreeCancel', move: 'release', why: 'a cancel in time is released in full' },
  {
    from: 'CONFIRMED',
    to: 'CANCELLED',
    actor: 'diner',
    condition: 'late',
    move: 'capture_keep',
    keep: 'lateCancel',
    why: 'a late cancel keeps the late-cancel share',
  },
  { from: 'CONFIRMED', to: 'CANCELLED', actor: 'staff', condition: 'always', move: 'release', why: 'the restaurant cancelled, so no fee' },
  { from: 'CONFIRMED', to: 'NO_SHOW', actor: 'staff', condition: 'always', move: 'capture_keep', keep: 'noShow', why: 'a no-show keeps the no-show share' },
  { from: 'SEATED', to: 'COMPLETED', actor: 'staff', condition: 'always', move: 'none', why: 'the credit was applied when seated' },
  // A Tablefair date's own moves (decision 184): its two deposits are the date plan's, not a reservation deposit.
  { from: 'HELD', to: 'CONFIRMED', actor: 'system', condition: 'always', move: 'none', why: 'a date is booked by its plan, whose deposits the plan settles' },
  { from: 'CONFIRMED', to: 'SEATED', actor: 'system', condition: 'always', move: 'none', why: 'a date seated after its grace is settled by its plan' },
  { from: 'CONFIRMED', to: 'NO_SHOW', actor: 'system', condition: 'always', move: 'none', why: 'a date nobody came to is settled by its plan' },
  {
    from: 'CANCELLED',
    to: 'CANCELLED',
    actor: 'system',
    event: 'tableResold',
    condition: 'lateCancel',
    move: 'waive',
    why: 'covers of a late cancel resold and seated cost the diner nothing',
  },
  {
    from: 'CANCELLED',
    to: 'CANCELLED',
    actor: 'staff',
    event: 'staffWaiver',
    condition: 'lateCancel',
    move: 'waive',
    why: 'staff may waive a late-cancel fee',
  },
  { from: 'NO_SHOW', to: 'NO_SHOW', actor: 'staff', event: 'staffWaiver', condition: 'always', move: 'waive', why: 'staff may waive a no-show fee' },
  {
    from: 'NO_SHOW',
    to: 'NO_SHOW',
    actor: 'staff',
    event: 'disputeUpheld',
    condition: 'always',
    move: 'waive',
    why: 'an upheld dispute refunds the no-show fee',
  },
];

/** A reservation move, or a money event on a terminal status (`event` set, `from` = `to`). */
export interface DepositTransition {
  from: ReservationStatus;
  to: ReservationStatus;
  actor: ReservationActor;
  event?: DepositEvent;
}

export interface DepositMoveContext {
  now: Date;
  requirement: DepositRequirement;
  /** Money is blocked for this reservation (the payment intent was authorised). */
  authorised: boolean;
  /** The reservation was cancelled late by its diner (for events after the cancel). */
  wasLateCancel?: boolean;
}

export interface DepositMoveDecision {
  move: DepositMove;
  /** Paise to capture for `capture_keep` and `credit_at_table`; 0 otherwise. */
  capturePaise: number;
  /** The row that decided, or null when nothing applies (no deposit, or no matching row). */
  rule: DepositMoveRule | null;
}

const NOTHING: DepositMoveDecision = { move: 'none', capturePaise: 0, rule: null };

function conditionHolds(condition: DepositCondition, context: DepositMoveContext, freeCancelUntil: Date): boolean {
  switch (condition) {
    case 'always':
      return true;
    case 'authorised':
      return context.authorised;
    case 'notAuthorised':
      return !context.authorised;
    case 'withinFreeCancel':
      return context.now.getTime() < freeCancelUntil.getTime();
    case 'late':
      return context.now.getTime() >= freeCancelUntil.getTime();
    case 'lateCancel':
      return context.wasLateCancel === true;
  }
}

/** True for a diner cancel that keeps a fee: after the free-cancel deadline (recorded as a late cancel). */
export function isLateCancel(requirement: DepositRequirement, now: Date): boolean {
  return requirement.kind !== 'none' && now.getTime() >= requirement.freeCancelUntil.getTime();
}

/** The money move for one transition: the first row of `depositMoves` that matches and whose condition holds. */
export function depositMoveFor(transition: DepositTransition, context: DepositMoveContext): DepositMoveDecision {
  const { requirement } = context;
  if (requirement.kind === 'none') return NOTHING;
  const rule = depositMoves.find(
    (row) =>
      row.from === transition.from &&
      row.to === transition.to &&
      row.actor === transition.actor &&
      row.event === transition.event &&
      conditionHolds(row.condition, context, requirement.freeCancelUntil),
  );
  if (!rule) return NOTHING;
  const capturePaise =
    rule.move === 'credit_at_table'
      ? requirement.amountPaise
      : rule.move === 'capture_keep'
        ? rule.keep === 'noShow'
          ? requirement.noShowKeepPaise
          : requirement.lateCancelKeepPaise
        : 0;
  return { move: rule.move, capturePaise, rule };
}
