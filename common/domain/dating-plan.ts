/**
 * Date plans (decision 184): the life of a plan, written once as data. The
 * server enforces it; the web app derives what a member or staff can press from it.
 */
import { HOUR_MS } from './time.ts';

/** The platform account that holds every date's table (migration 0015, decision 184): no diner can act on its holds (decision 207). */
export const DATE_ACCOUNT_ID = '00000000-0000-4000-8000-00000000da7e';

export const datePlanStatuses = ['PROPOSED', 'BOOKED', 'SEATED', 'FLAKED', 'NO_SHOW', 'DECLINED', 'EXPIRED', 'REPLACED', 'CANCELLED'] as const;
export type DatePlanStatus = (typeof datePlanStatuses)[number];

/** What moves a plan. */
export type DatePlanEvent =
  /** The second member's deposit is authorised: the table is booked. */
  | 'bothPaid'
  /** A member says no to the plan. */
  | 'declined'
  /** The deadline passed before both had paid. */
  | 'deadlinePassed'
  /** A member asks once for another option: a new plan replaces this one. */
  | 'askedAgain'
  /** A member cancels a booked date at least 24 hours ahead, or the restaurant cancels it. */
  | 'cancelledInTime'
  /** Staff mark the second member arrived (or seat the table). */
  | 'bothArrived'
  /** One member has not arrived 15 minutes after the start, or cancelled within 24 hours. */
  | 'oneFlaked'
  /** Neither came. */
  | 'bothFlaked';

export interface DatePlanTransition {
  from: DatePlanStatus;
  event: DatePlanEvent;
  to: DatePlanStatus;
}

export const datePlanTransitions: readonly DatePlanTransition[] = [
  { from: 'PROPOSED', event: 'bothPaid', to: 'BOOKED' },
  { from: 'PROPOSED', event: 'declined', to: 'DECLINED' },
  { from: 'PROPOSED', event: 'deadlinePassed', to: 'EXPIRED' },
  { from: 'PROPOSED', event: 'askedAgain', to: 'REPLACED' },
  { from: 'BOOKED', event: 'cancelledInTime', to: 'CANCELLED' },
  { from: 'BOOKED', event: 'bothArrived', to: 'SEATED' },
  { from: 'BOOKED', event: 'oneFlaked', to: 'FLAKED' },
  { from: 'BOOKED', event: 'bothFlaked', to: 'NO_SHOW' },
];

/** The status `event` moves a plan in `from` to, or undefined when it does not apply there. */
export function datePlanMove(from: DatePlanStatus, event: DatePlanEvent): DatePlanStatus | undefined {
  return datePlanTransitions.find((transition) => transition.from === from && transition.event === event)?.to;
}

/** Plans still in play: a pair has at most one. */
export const openDatePlanStatuses: readonly DatePlanStatus[] = ['PROPOSED', 'BOOKED'];

/** The deposit each member pays on accepting, unless DATING_DEPOSIT_PAISE says otherwise. */
export const DEFAULT_DATE_DEPOSIT_PAISE = 30_000;
/** A plan is open for answers at most this long. */
export const PLAN_ANSWER_HOURS = 24;
/** …and closes at the latest this long before the start, so the restaurant knows by then. */
export const PLAN_CLOSES_BEFORE_START_HOURS = 2;
/** A plan is proposed only for a start at least this far away, so both have time to answer. */
export const PLAN_MIN_LEAD_HOURS = 4;
/**
 * A plan is never proposed less than this far ahead unless both members chose "tonight is fine"
 * (decision 252); with both, PLAN_MIN_LEAD_HOURS is the floor.
 */
export const PLAN_MIN_LEAD_HOURS_WITHOUT_CONSENT = 24;
/** Plans are looked for this many days ahead. */
export const PLAN_HORIZON_DAYS = 7;
/**
 * Bounds on unpaid date holds (decision 209). A proposed plan holds a table for two and nobody has
 * paid for it yet: a member is on at most one proposed plan at a time, and one restaurant's
 * evening (its slots of one Kolkata day) gives proposed plans at most a quarter of its seats (its
 * largest slot's covers), and plans with a member who has never been at the table of a date through
 * us an eighth; either way always room for one plan of two.
 */
export const UNPAID_DATE_SEATS_DIVISOR = 4;
export const NEW_MEMBERS_UNPAID_DATE_SEATS_DIVISOR = 8;
/** A date is a table for two. */
export const DATE_PARTY_SIZE = 2;

/** A member who has not arrived this long after the start has flaked. */
export const DATE_ARRIVAL_GRACE_MINUTES = 15;
/** A member who cancels a booked date closer to its start than this has flaked. */
export const DATE_LATE_CANCEL_HOURS = 24;

/** A plan shared with a trusted contact can be opened until this long after the start (the end of the date). */
export const DATE_SHARE_HOURS_AFTER_START = 4;

/** When a share link of a date starting at `startsAt` stops working. */
export function shareLinkExpiry(startsAt: Date): Date {
  return new Date(startsAt.getTime() + DATE_SHARE_HOURS_AFTER_START * HOUR_MS);
}

/** Plans that closed before their date: their share links end with them (decision 208). */
export const datePlanStatusesEndingShares: ReadonlySet<DatePlanStatus> = new Set(['DECLINED', 'EXPIRED', 'REPLACED', 'CANCELLED']);

/** Whether a (not revoked) share link of a plan in `status` starting at `startsAt` still answers at `now` (decision 208). */
export function shareLinkWorks(status: DatePlanStatus, startsAt: Date, now: Date): boolean {
  return !datePlanStatusesEndingShares.has(status) && now.getTime() < shareLinkExpiry(startsAt).getTime();
}

/** Two members who both came, both said the other showed up and both would meet again are offered a second date. */
export function wantSecondDate(answers: readonly { showedUp: boolean | null; meetAgain: boolean | null }[]): boolean {
  return answers.length === 2 && answers.every((answer) => answer.showedUp === true && answer.meetAgain === true);
}

/** When a plan proposed at `now` for `startsAt` stops waiting for answers. */
export function planDeadline(now: Date, startsAt: Date): Date {
  return new Date(Math.min(now.getTime() + PLAN_ANSWER_HOURS * HOUR_MS, startsAt.getTime() - PLAN_CLOSES_BEFORE_START_HOURS * HOUR_MS));
}

/** From when cancelling a booked date is late: 24 hours before its start. */
export function lateCancelFrom(startsAt: Date): Date {
  return new Date(startsAt.getTime() - DATE_LATE_CANCEL_HOURS * HOUR_MS);
}

/** Whether a member cancelling a booked date at `now` flakes (within 24 hours of the start). */
export function isLateDateCancel(startsAt: Date, now: Date): boolean {
  return startsAt.getTime() - now.getTime() < DATE_LATE_CANCEL_HOURS * HOUR_MS;
}

/** Staff can mark a member arrived from this long before the start (decision 253). */
export const DATE_ARRIVAL_OPENS_MINUTES = 30;
/** Staff can undo an arrival this long after marking it, while the other has not arrived yet (decision 253). */
export const DATE_ARRIVAL_UNDO_MINUTES = 10;

/** From when staff can mark arrivals. */
export function arrivalsOpenAt(startsAt: Date): Date {
  return new Date(startsAt.getTime() - DATE_ARRIVAL_OPENS_MINUTES * 60_000);
}

/** Whether staff can mark an arrival at `now`. */
export function canMarkArrivalAt(startsAt: Date, now: Date): boolean {
  return now.getTime() >= arrivalsOpenAt(startsAt).getTime();
}

/** Whether an arrival marked at `arrivedAt` can still be undone at `now`. */
export function canUndoArrivalAt(arrivedAt: Date, now: Date): boolean {
  return now.getTime() - arrivedAt.getTime() < DATE_ARRIVAL_UNDO_MINUTES * 60_000;
}

/** Whether the arrival grace is over at `now`: whoever has not arrived has flaked. */
export function isArrivalGraceOver(startsAt: Date, now: Date): boolean {
  return now.getTime() >= startsAt.getTime() + DATE_ARRIVAL_GRACE_MINUTES * 60_000;
}

/** What one member's deposit becomes when a plan settles (decision 184). */
export type DateDepositMove =
  | { move: 'release' }
  | { move: 'credit_at_table' }
  /** Captured and paid out to the member who came. */
  | { move: 'pay_member'; toMemberId: string }
  /** Both flaked: the restaurant's no-show policy keeps this much (0 keeps nothing). */
  | { move: 'keep'; paise: number };

export interface DateSettlement {
  status: DatePlanStatus;
  /** Per member id. */
  moves: Record<string, DateDepositMove>;
  /** Members who flaked (a strike each, and the pair never suggested again)… */
  flaked: string[];
  /** …and how: not at the table after the grace, or a cancel within 24 hours. */
  flakeReason?: 'NOT_ARRIVED' | 'LATE_CANCEL';
}

/**
 * How a booked plan settles, from who arrived or who cancelled (decision 184):
 * - both arrived: SEATED, each deposit credit on the bill;
 * - one flaked (not arrived after the grace, or a late cancel): FLAKED, the flake's deposit paid to
 *   the one who came (or who was still coming), whose own deposit is credit at the table when they
 *   came, released when the other cancelled before the date;
 * - both flaked: NO_SHOW, both deposits follow the restaurant's no-show share (`noShowKeepPaise`);
 * - a cancel 24 hours ahead or more, or the restaurant's cancel: CANCELLED, both released.
 */
export function settleDatePlan(
  members: readonly [string, string],
  outcome:
    | { kind: 'arrivals'; arrived: ReadonlySet<string>; noShowKeepPaise: number }
    | { kind: 'memberCancel'; by: string; late: boolean }
    | { kind: 'restaurantCancel' },
): DateSettlement {
  const [a, b] = members;
  const other = (id: string) => (id === a ? b : a);
  if (outcome.kind === 'restaurantCancel' || (outcome.kind === 'memberCancel' && !outcome.late)) {
    return { status: 'CANCELLED', moves: { [a]: { move: 'release' }, [b]: { move: 'release' } }, flaked: [] };
  }
  if (outcome.kind === 'memberCancel') {
    const stayer = other(outcome.by);
    return {
      status: 'FLAKED',
      moves: { [outcome.by]: { move: 'pay_member', toMemberId: stayer }, [stayer]: { move: 'release' } },
      flaked: [outcome.by],
      flakeReason: 'LATE_CANCEL',
    };
  }
  const came = members.filter((id) => outcome.arrived.has(id));
  if (came.length === 2) return { status: 'SEATED', moves: { [a]: { move: 'credit_at_table' }, [b]: { move: 'credit_at_table' } }, flaked: [] };
  if (came.length === 0) {
    const keep: DateDepositMove = outcome.noShowKeepPaise > 0 ? { move: 'keep', paise: outcome.noShowKeepPaise } : { move: 'release' };
    return { status: 'NO_SHOW', moves: { [a]: keep, [b]: keep }, flaked: [a, b], flakeReason: 'NOT_ARRIVED' };
  }
  const [stayer] = came as [string];
  const flake = other(stayer);
  return {
    status: 'FLAKED',
    moves: { [stayer]: { move: 'credit_at_table' }, [flake]: { move: 'pay_member', toMemberId: stayer } },
    flaked: [flake],
    flakeReason: 'NOT_ARRIVED',
  };
}
