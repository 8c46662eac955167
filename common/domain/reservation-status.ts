/**
 * The reservation state machine, written once as data (docs/architecture.md).
 * The server enforces it; the web app derives its buttons from it.
 */
export const reservationStatuses = ['HELD', 'PENDING', 'CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const;
export type ReservationStatus = (typeof reservationStatuses)[number];

/** Who asks for a move. `system` is the hold-expiry sweeper, and the date plans' own moves (decision 184). */
export type ReservationActor = 'diner' | 'staff' | 'system';

/** Conditions a move may carry besides its endpoints and actor. */
export type TransitionGuard = 'holdUnexpired' | 'atLeastTwoHoursAhead' | 'noShowWindowOpen' | 'holdExpired';

export interface ReservationTransition {
  from: ReservationStatus;
  to: ReservationStatus;
  actor: ReservationActor;
  /** The button or event a person knows this move by. */
  label: string;
  guard?: TransitionGuard;
}

export const reservationTransitions: readonly ReservationTransition[] = [
  { from: 'HELD', to: 'PENDING', actor: 'diner', label: 'Confirm', guard: 'holdUnexpired' },
  { from: 'HELD', to: 'CANCELLED', actor: 'diner', label: 'Cancel Hold' },
  { from: 'HELD', to: 'CANCELLED', actor: 'system', label: 'Hold expired', guard: 'holdExpired' },
  { from: 'PENDING', to: 'CONFIRMED', actor: 'staff', label: 'Confirm' },
  { from: 'PENDING', to: 'CANCELLED', actor: 'diner', label: 'Cancel' },
  { from: 'PENDING', to: 'CANCELLED', actor: 'staff', label: 'Cancel' },
  { from: 'CONFIRMED', to: 'SEATED', actor: 'staff', label: 'Seat' },
  { from: 'CONFIRMED', to: 'CANCELLED', actor: 'diner', label: 'Cancel', guard: 'atLeastTwoHoursAhead' },
  { from: 'CONFIRMED', to: 'CANCELLED', actor: 'staff', label: 'Cancel' },
  { from: 'CONFIRMED', to: 'NO_SHOW', actor: 'staff', label: 'No-show', guard: 'noShowWindowOpen' },
  { from: 'SEATED', to: 'COMPLETED', actor: 'staff', label: 'Complete' },
  // A Tablefair date (decision 184): the platform's hold for two is booked once both members have
  // paid (the restaurant opted in as a date partner, so it needs no acceptance), and settled by the
  // arrival check once the grace is over: one came (seated) or neither did.
  { from: 'HELD', to: 'CONFIRMED', actor: 'system', label: 'Date booked', guard: 'holdUnexpired' },
  { from: 'CONFIRMED', to: 'SEATED', actor: 'system', label: 'Seated for a date', guard: 'noShowWindowOpen' },
  { from: 'CONFIRMED', to: 'NO_SHOW', actor: 'system', label: 'Nobody came to the date', guard: 'noShowWindowOpen' },
];

/** Statuses whose covers count against a slot's capacity (HELD only until its expiry). */
export const coverHoldingStatuses: readonly ReservationStatus[] = ['HELD', 'PENDING', 'CONFIRMED', 'SEATED'];
export const terminalStatuses: readonly ReservationStatus[] = ['COMPLETED', 'CANCELLED', 'NO_SHOW'];

/** A diner may cancel a CONFIRMED reservation only this far ahead of its start. */
export const DINER_CANCEL_NOTICE_MINUTES = 120;
/** Staff may mark a no-show only this long after the start. */
export const NO_SHOW_GRACE_MINUTES = 15;

/** What the diner sees for each status (the spec shows CONFIRMED as 'Accepted'). */
export const dinerStatusLabels: Record<ReservationStatus, string> = {
  HELD: 'Held',
  PENDING: 'Pending',
  CONFIRMED: 'Accepted',
  SEATED: 'Seated',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
  NO_SHOW: 'No-show',
};

/** The diner's summary buckets, and the portal's live counts (decision 041). */
export const summaryBuckets = {
  pending: ['HELD', 'PENDING'],
  ongoing: ['CONFIRMED', 'SEATED'],
  completed: ['COMPLETED'],
} as const satisfies Record<string, readonly ReservationStatus[]>;

export interface TransitionContext {
  now: Date;
  holdExpiresAt: Date | null;
  startsAt: Date;
  /**
   * The booking carries a deposit (decision 121): the diner may then cancel after the notice
   * rule, up to the start, and the policy's late share is kept. Absent or false: the 2-hour rule.
   */
  carriesDeposit?: boolean;
  /**
   * The diner answers a reminder with "Release my table" (decision 152): the table is
   * given back up to the start, so it reaches the waitlist rather than going unused. The fee, where
   * the booking carries a deposit, is still the policy's.
   */
  releasedFromReminder?: boolean;
}

export type TransitionCheck =
  | { allowed: true; transition: ReservationTransition }
  | { allowed: false; reason: 'not_a_move' | 'hold_expired' | 'too_late_to_cancel' | 'too_early_for_no_show' | 'hold_not_expired' };

function guardHolds(guard: TransitionGuard | undefined, context: TransitionContext): boolean {
  const now = context.now.getTime();
  switch (guard) {
    case undefined:
      return true;
    case 'holdUnexpired':
      return context.holdExpiresAt !== null && now < context.holdExpiresAt.getTime();
    case 'holdExpired':
      return context.holdExpiresAt !== null && now >= context.holdExpiresAt.getTime();
    case 'atLeastTwoHoursAhead':
      if (context.carriesDeposit || context.releasedFromReminder) return now < context.startsAt.getTime();
      return context.startsAt.getTime() - now >= DINER_CANCEL_NOTICE_MINUTES * 60_000;
    case 'noShowWindowOpen':
      return now >= context.startsAt.getTime() + NO_SHOW_GRACE_MINUTES * 60_000;
  }
}

const refusalForGuard: Record<TransitionGuard, Exclude<TransitionCheck, { allowed: true }>['reason']> = {
  holdUnexpired: 'hold_expired',
  holdExpired: 'hold_not_expired',
  atLeastTwoHoursAhead: 'too_late_to_cancel',
  noShowWindowOpen: 'too_early_for_no_show',
};

/** Decides whether `actor` may move a reservation from `from` to `to` now. */
export function checkTransition(from: ReservationStatus, to: ReservationStatus, actor: ReservationActor, context: TransitionContext): TransitionCheck {
  const transition = reservationTransitions.find((t) => t.from === from && t.to === to && t.actor === actor);
  if (!transition) return { allowed: false, reason: 'not_a_move' };
  if (!guardHolds(transition.guard, context)) return { allowed: false, reason: refusalForGuard[transition.guard!] };
  return { allowed: true, transition };
}

/** The moves `actor` could make from `from`, guards not yet applied (for buttons). */
export function movesFrom(from: ReservationStatus, actor: ReservationActor): ReservationTransition[] {
  return reservationTransitions.filter((t) => t.from === from && t.actor === actor);
}

/** True while the reservation's covers count against capacity. */
export function isHoldingCovers(status: ReservationStatus, holdExpiresAt: Date | null, now: Date): boolean {
  if (status === 'HELD') return holdExpiresAt !== null && now < holdExpiresAt;
  return coverHoldingStatuses.includes(status);
}

/**
 * The status a reservation has at `now`: a hold past its expiry is CANCELLED whether or not
 * the sweeper has written it yet. Every read that shows or counts a status goes through this.
 */
export function effectiveStatus(status: ReservationStatus, holdExpiresAt: Date | string | null, now: Date): ReservationStatus {
  if (status === 'HELD' && holdExpiresAt !== null && new Date(holdExpiresAt).getTime() <= now.getTime()) return 'CANCELLED';
  return status;
}

/** True for a hold that is still running at `now` (HELD, not yet expired). */
export function isLiveHold(status: ReservationStatus | null, holdExpiresAt: Date | string | null, now: Date): boolean {
  return status === 'HELD' && holdExpiresAt !== null && new Date(holdExpiresAt).getTime() > now.getTime();
}
