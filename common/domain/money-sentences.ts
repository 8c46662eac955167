/**
 * Every sentence a diner reads about a deposit's money, on screen and in email (decision 220):
 * pure functions from the deposit's figures (what was asked, blocked, kept, released, credited,
 * refunded) as payments' ledger records them. The receipts on /me, the cancel dialog and its
 * toast, the deposit emails and the staff statement all read their words from here, so a screen
 * and an email can never tell two stories about the same ₹400.
 */
import { depositMoveFor } from './deposit-moves.ts';
import { formatRupees, type DepositTerms } from './deposit-policy.ts';
import type { ReservationStatus } from './reservation-status.ts';
import type { CapturePurpose, PaymentIntentStatus } from './payment-intent.ts';

export const depositStates = ['awaiting_payment', 'not_paid', 'held', 'releasing', 'keeping', 'credit_at_table', 'kept', 'released', 'refunded'] as const;
export type DepositState = (typeof depositStates)[number];

export const depositStateLabels: Record<DepositState, string> = {
  awaiting_payment: 'Awaiting payment',
  not_paid: 'Not paid',
  held: 'Held',
  releasing: 'Being released',
  keeping: 'Fee being taken',
  credit_at_table: 'Credit at the table',
  kept: 'Kept as a fee',
  released: 'Released',
  refunded: 'Waived and refunded',
};

/** Why a fee was kept: the deposit row knows (a late cancel), the booking's status says a no-show. */
export type FeeReason = 'late_cancel' | 'no_show' | null;

/** A payment intent's own figures (payments' ledger moves them; see docs/payments.md). */
export interface IntentFigures {
  status: PaymentIntentStatus;
  authorisedPaise: number;
  capturedPaise: number;
  refundedPaise: number;
  capturePurpose: CapturePurpose | null;
}

/** A decided money move not yet settled by the provider (the row's move, recorded with the booking's move). */
export interface DecidedMove {
  move: 'release' | 'capture_keep' | 'credit_at_table' | 'waive';
  paise: number;
}

/** Where a deposit's money stands, in paise; each figure is one the ledger posts. */
export interface DepositFigures {
  state: DepositState;
  /** What the booking asked. */
  amountPaise: number;
  /** Still blocked on the diner's card or UPI. */
  blockedPaise: number;
  /** Kept by the restaurant as a fee (after any refund). */
  keptPaise: number;
  /** Captured as credit on the bill. */
  creditedPaise: number;
  /** Given back without being taken. */
  releasedPaise: number;
  /** Taken as a fee, then waived and paid back. */
  refundedPaise: number;
  feeReason: FeeReason;
}

const pendingStatuses: readonly PaymentIntentStatus[] = ['AUTHORISED', 'CAPTURE_PENDING', 'RELEASE_PENDING'];

/**
 * The figures of a deposit of `amountPaise` from its intent. A move decided with the booking's own
 * move (a cancel, a no-show) but not yet confirmed by the provider reads as under way, so the
 * screen changes the moment the diner cancels, not when the provider's answer arrives.
 */
export function depositFigures(
  intent: IntentFigures & { amountPaise: number },
  options: { feeReason?: FeeReason; decided?: DecidedMove | null } = {},
): DepositFigures {
  const base = { amountPaise: intent.amountPaise, feeReason: options.feeReason ?? null };
  const zero = { blockedPaise: 0, keptPaise: 0, creditedPaise: 0, releasedPaise: 0, refundedPaise: 0 };
  const authorised = intent.authorisedPaise;
  switch (intent.status) {
    case 'CREATED':
      return { ...base, ...zero, state: 'awaiting_payment' };
    case 'FAILED':
    case 'EXPIRED':
      return { ...base, ...zero, state: 'not_paid' };
    case 'RELEASED':
      return { ...base, ...zero, state: 'released', releasedPaise: authorised };
    case 'CAPTURED':
    case 'REFUND_PENDING':
    case 'REFUNDED': {
      const released = authorised - intent.capturedPaise;
      if (intent.capturePurpose === 'credit_at_table')
        return { ...base, ...zero, state: 'credit_at_table', creditedPaise: intent.capturedPaise, releasedPaise: released };
      const kept = intent.capturedPaise - intent.refundedPaise;
      const state = intent.status === 'REFUNDED' ? 'refunded' : 'kept';
      return { ...base, ...zero, state, keptPaise: kept, releasedPaise: released, refundedPaise: intent.refundedPaise };
    }
    default: {
      const decided = options.decided;
      if (decided && pendingStatuses.includes(intent.status)) {
        if (decided.move === 'release') return { ...base, ...zero, state: 'releasing', releasedPaise: authorised };
        if (decided.move === 'capture_keep') return { ...base, ...zero, state: 'keeping', keptPaise: decided.paise, releasedPaise: authorised - decided.paise };
      }
      return { ...base, ...zero, state: 'held', blockedPaise: authorised };
    }
  }
}

function feeWords(reason: FeeReason): string {
  if (reason === 'late_cancel') return 'a late-cancel fee';
  if (reason === 'no_show') return 'a no-show fee';
  return 'a fee';
}

/** The receipt's sentence a diner reads on screen (/me, the receipt, the statement's note). */
export function moneySentence(figures: DepositFigures): string {
  const rest = (paise: number, verb: string) => (paise > 0 ? `; ${formatRupees(paise)} ${verb}` : '');
  switch (figures.state) {
    case 'awaiting_payment':
      return `${formatRupees(figures.amountPaise)} asked; not approved yet.`;
    case 'not_paid':
      return 'Nothing was blocked.';
    case 'held':
      return `${formatRupees(figures.blockedPaise)} blocked on your account until your visit; nothing taken.`;
    case 'releasing':
      return `${formatRupees(figures.releasedPaise)} being released in full; nothing taken.`;
    case 'keeping':
      return `${formatRupees(figures.keptPaise)} being kept as ${feeWords(figures.feeReason)}${rest(figures.releasedPaise, 'being released')}.`;
    case 'released':
      return `${formatRupees(figures.releasedPaise)} released in full; nothing taken.`;
    case 'credit_at_table':
      return `${formatRupees(figures.creditedPaise)} credited on your bill${rest(figures.releasedPaise, 'released')}.`;
    case 'kept':
      return `${formatRupees(figures.keptPaise)} kept as ${feeWords(figures.feeReason)}${rest(figures.releasedPaise, 'released')}.`;
    case 'refunded':
      return `Fee of ${formatRupees(figures.refundedPaise)} waived and refunded${rest(figures.releasedPaise, 'released')}${figures.keptPaise > 0 ? `; ${formatRupees(figures.keptPaise)} kept` : ''}.`;
  }
}

/**
 * A deposit email's subject and opening sentence for a settled (or just blocked) deposit, or
 * null for a state no email tells. Only the "blocked" email repeats the agreed terms: once money
 * moved, the email says what happened and nothing about what might.
 */
export function moneyEmail(figures: DepositFigures, restaurantName: string): { subject: string; sentence: string; withTerms: boolean } | null {
  switch (figures.state) {
    case 'held':
      return {
        subject: `${formatRupees(figures.blockedPaise)} blocked: your booking request is sent`,
        sentence: `We blocked ${formatRupees(figures.blockedPaise)} as your deposit and sent your request to ${restaurantName}. Nothing is taken yet.`,
        withTerms: true,
      };
    case 'released':
      return {
        subject: `${formatRupees(figures.releasedPaise)} released`,
        sentence: `The ${formatRupees(figures.releasedPaise)} we blocked is released in full; nothing was taken.`,
        withTerms: false,
      };
    case 'credit_at_table':
      return {
        subject: `${formatRupees(figures.creditedPaise)} credited on your bill`,
        sentence: `Your deposit of ${formatRupees(figures.creditedPaise)} is credit on your bill at ${restaurantName}${figures.releasedPaise > 0 ? `; the other ${formatRupees(figures.releasedPaise)} is released` : ''}. Nothing more is blocked.`,
        withTerms: false,
      };
    case 'kept':
      return {
        subject: `${formatRupees(figures.keptPaise)} kept as ${feeWords(figures.feeReason)}`,
        sentence: `${restaurantName} kept ${formatRupees(figures.keptPaise)} as ${feeWords(figures.feeReason)}${figures.releasedPaise > 0 ? `; the other ${formatRupees(figures.releasedPaise)} is released` : ''}. Nothing more is blocked.`,
        withTerms: false,
      };
    case 'refunded':
      return {
        subject: `${formatRupees(figures.refundedPaise)} refunded`,
        sentence: `The fee of ${formatRupees(figures.refundedPaise)} is waived and refunded to you. Nothing more is blocked or kept.`,
        withTerms: false,
      };
    default:
      return null;
  }
}

/** What a change of a booking moved (decisions 281-283), as `changeTermsFor` decided it. */
export interface ChangeMoney {
  kind: 'free' | 'pay_extra' | 'release';
  /** The booking's deposit after the change (0 without one). */
  depositPaise: number;
  extraPaise: number;
  releasedPaise: number;
}

/**
 * The money sentence of an applied change, for its email: the extra blocked, or the difference
 * released, then what stays blocked, in the receipt's own words (`moneySentence` of a held
 * deposit). Null for a booking that carries no deposit.
 */
export function changeMoneySentence(change: ChangeMoney): string | null {
  if (change.depositPaise === 0 && change.releasedPaise === 0) return null;
  const held = (paise: number) => moneySentence({ ...heldFigures, amountPaise: paise, blockedPaise: paise });
  if (change.kind === 'pay_extra') return `${held(change.extraPaise)} Your deposit is now ${formatRupees(change.depositPaise)}.`;
  const stays = change.depositPaise > 0 ? ` ${held(change.depositPaise)}` : '';
  if (change.kind === 'release') return `${formatRupees(change.releasedPaise)} of your deposit released.${stays}`;
  return `No money moved.${stays}`;
}

const heldFigures: DepositFigures = {
  state: 'held',
  amountPaise: 0,
  blockedPaise: 0,
  keptPaise: 0,
  creditedPaise: 0,
  releasedPaise: 0,
  refundedPaise: 0,
  feeReason: null,
};

/**
 * What a cancel by the diner does to a blocked deposit if pressed at `now`, before and after:
 * decided by the same table the server runs (`depositMoveFor`), so the dialog cannot promise a
 * release the server then turns into a fee. Null when there is no blocked money to speak of.
 */
export function cancelMoneySentences(
  status: ReservationStatus,
  /** What the deposit agreed when it was paid. */
  terms: DepositTerms,
  figures: DepositFigures,
  now: Date,
): { before: string; after: string } | null {
  if (figures.state !== 'held') return null;
  const requirement = { ...terms, plainWords: '' };
  const decision = depositMoveFor({ from: status, to: 'CANCELLED', actor: 'diner' }, { now, requirement, authorised: true, wasLateCancel: false });
  const blocked = figures.blockedPaise;
  if (decision.move === 'capture_keep' && decision.capturePaise > 0) {
    const kept = decision.capturePaise;
    const back = blocked - kept;
    return {
      before: `${formatRupees(kept)} of your ${formatRupees(blocked)} deposit will be kept as a late-cancel fee${back > 0 ? `; ${formatRupees(back)} will be released` : ''}.`,
      after: `${formatRupees(kept)} is being kept as a late-cancel fee${back > 0 ? `; ${formatRupees(back)} is being released` : ''}.`,
    };
  }
  return {
    before: `Your ${formatRupees(blocked)} deposit will be released in full; nothing is kept.`,
    after: `Your ${formatRupees(blocked)} deposit is being released in full.`,
  };
}

/** How a deposit was paid, as a receipt says it. */
export function paymentMethodLabel(provider: 'sandbox' | 'razorpay'): string {
  return provider === 'razorpay' ? 'Card or UPI, through Razorpay' : 'Card or UPI, through the Tablefair sandbox (no real money)';
}

/** The reason a kept fee was kept, from the deposit's late-cancel mark and the booking's status. */
export function feeReasonOf(lateCancel: boolean, reservationStatus: ReservationStatus): FeeReason {
  if (lateCancel) return 'late_cancel';
  if (reservationStatus === 'NO_SHOW') return 'no_show';
  return null;
}

/** A time's deposit as its chip says it: 'Deposit ₹200 a guest', 'Prepaid ₹1,500 a guest'. */
export function slotDepositWords(deposit: { kind: 'deposit' | 'prepayment'; perCoverPaise: number }): string {
  return `${deposit.kind === 'deposit' ? 'Deposit' : 'Prepaid'} ${formatRupees(deposit.perCoverPaise)} a guest`;
}
