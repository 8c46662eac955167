/**
 * The payment intent's state machine, written once as data (docs/payments.md, decision 110).
 *
 * An intent is money a diner is asked to block (authorise) for a purpose: a reservation's deposit
 * today, a dating deposit later. Our own requests (capture, release, refund) first move it to a
 * `*_PENDING` status; the provider's answer arrives as a webhook and settles it. Provider events
 * that do not fit the current status (a late `authorised` after `captured`, a duplicate) match no
 * row below and change nothing.
 */
export const paymentIntentStatuses = [
  'CREATED',
  'AUTHORISED',
  'CAPTURE_PENDING',
  'RELEASE_PENDING',
  'REFUND_PENDING',
  'CAPTURED',
  'RELEASED',
  'REFUNDED',
  'FAILED',
  'EXPIRED',
] as const;
export type PaymentIntentStatus = (typeof paymentIntentStatuses)[number];

/**
 * What can happen to an intent. `*_requested` and `expire` are ours; the rest are the provider's
 * facts, carried by webhooks.
 */
export const paymentIntentEvents = [
  'authorised',
  'failed',
  'expire',
  'capture_requested',
  'captured',
  'release_requested',
  'released',
  'refund_requested',
  'refunded',
  'request_refused',
] as const;
export type PaymentIntentEvent = (typeof paymentIntentEvents)[number];

/** Who makes a move happen: our service (a request, the expiry sweep) or the provider (a webhook). */
export type PaymentIntentActor = 'service' | 'provider';

/**
 * The ledger posting a move writes (see `ledgerAccounts`); `none` writes nothing. `payout` is no
 * intent move: it is a payout's own posting, written when the provider says the money reached the
 * member (decision 184).
 */
export type PostingKind = 'authorise' | 'capture' | 'release' | 'refund' | 'payout' | 'none';

export interface PaymentIntentTransition {
  from: PaymentIntentStatus;
  event: PaymentIntentEvent;
  to: PaymentIntentStatus;
  actor: PaymentIntentActor;
  posting: PostingKind;
  /** An authorisation that arrives after the intent gave up waiting: payments releases it at once. */
  releaseAtOnce?: true;
}

export const paymentIntentTransitions: readonly PaymentIntentTransition[] = [
  { from: 'CREATED', event: 'authorised', to: 'AUTHORISED', actor: 'provider', posting: 'authorise' },
  { from: 'CREATED', event: 'failed', to: 'FAILED', actor: 'provider', posting: 'none' },
  { from: 'CREATED', event: 'expire', to: 'EXPIRED', actor: 'service', posting: 'none' },
  // The diner may pay again after a decline while the owner still waits (the order stays open).
  { from: 'FAILED', event: 'authorised', to: 'AUTHORISED', actor: 'provider', posting: 'authorise' },
  // A gateway may still authorise after we stopped waiting (late authorisation): the money is
  // blocked, so it is booked and released straight away; it never becomes a booking.
  { from: 'EXPIRED', event: 'authorised', to: 'AUTHORISED', actor: 'provider', posting: 'authorise', releaseAtOnce: true },
  { from: 'AUTHORISED', event: 'capture_requested', to: 'CAPTURE_PENDING', actor: 'service', posting: 'none' },
  { from: 'AUTHORISED', event: 'release_requested', to: 'RELEASE_PENDING', actor: 'service', posting: 'none' },
  // The provider's own moves on an authorisation: a capture made elsewhere, or its automatic release.
  { from: 'AUTHORISED', event: 'captured', to: 'CAPTURED', actor: 'provider', posting: 'capture' },
  { from: 'AUTHORISED', event: 'released', to: 'RELEASED', actor: 'provider', posting: 'release' },
  { from: 'CAPTURE_PENDING', event: 'captured', to: 'CAPTURED', actor: 'provider', posting: 'capture' },
  // The authorisation lapsed at the provider before our capture reached it: the money went back.
  { from: 'CAPTURE_PENDING', event: 'released', to: 'RELEASED', actor: 'provider', posting: 'release' },
  { from: 'RELEASE_PENDING', event: 'released', to: 'RELEASED', actor: 'provider', posting: 'release' },
  { from: 'CAPTURED', event: 'refund_requested', to: 'REFUND_PENDING', actor: 'service', posting: 'none' },
  { from: 'REFUND_PENDING', event: 'refunded', to: 'REFUNDED', actor: 'provider', posting: 'refund' },
  // The provider answered a request of ours with a clear no: the intent is back where it was.
  { from: 'CAPTURE_PENDING', event: 'request_refused', to: 'AUTHORISED', actor: 'service', posting: 'none' },
  { from: 'RELEASE_PENDING', event: 'request_refused', to: 'AUTHORISED', actor: 'service', posting: 'none' },
  { from: 'REFUND_PENDING', event: 'request_refused', to: 'CAPTURED', actor: 'service', posting: 'none' },
];

/** Statuses an intent rests in once nothing is in flight. Every intent ends in exactly one of them. */
export const settledPaymentStatuses: readonly PaymentIntentStatus[] = ['CAPTURED', 'RELEASED', 'REFUNDED', 'FAILED', 'EXPIRED'];
/** Statuses with money blocked on the diner's account and not yet captured or released. */
export const moneyHeldStatuses: readonly PaymentIntentStatus[] = ['AUTHORISED', 'CAPTURE_PENDING', 'RELEASE_PENDING'];
/** Statuses waiting for the provider's answer to a request of ours. */
export const pendingPaymentStatuses: readonly PaymentIntentStatus[] = ['CAPTURE_PENDING', 'RELEASE_PENDING', 'REFUND_PENDING'];

/** The transition `event` makes from `from`, or undefined when the event does not apply there. */
export function transitionFor(from: PaymentIntentStatus, event: PaymentIntentEvent): PaymentIntentTransition | undefined {
  return paymentIntentTransitions.find((transition) => transition.from === from && transition.event === event);
}

/** True when `event` moves an intent out of `from`. */
export function canMove(from: PaymentIntentStatus, event: PaymentIntentEvent): boolean {
  return transitionFor(from, event) !== undefined;
}

/**
 * The ledger's accounts (decision 111). Each posting's lines sum to zero; a positive amount is a
 * debit. `diner_funds` stands for money outside us (the diner's bank, or a member's), so its
 * balance is minus what people have parted with. `member_payable` holds a flake's deposit captured
 * for the member who came, until it is paid out to them (decision 184).
 */
export const ledgerAccounts = ['diner_funds', 'diner_authorised', 'restaurant_receivable', 'restaurant_credit_at_table', 'member_payable'] as const;
export type LedgerAccount = (typeof ledgerAccounts)[number];

/**
 * What a capture is for: a fee the restaurant keeps, the deposit turned into credit on the bill,
 * or a flake's deposit paid out to the member who came (decision 184; never refunded).
 */
export const capturePurposes = ['keep', 'credit_at_table', 'pay_member'] as const;
export type CapturePurpose = (typeof capturePurposes)[number];

/** The account a capture of this purpose credits (and a refund of it debits). */
function captureAccountOf(purpose: CapturePurpose | undefined): LedgerAccount {
  if (purpose === 'credit_at_table') return 'restaurant_credit_at_table';
  if (purpose === 'pay_member') return 'member_payable';
  return 'restaurant_receivable';
}

export interface LedgerLine {
  account: LedgerAccount;
  amountPaise: number;
}

export interface PostingAmounts {
  /** What the provider authorised. */
  authorisedPaise: number;
  /** What this capture takes (≤ authorised); the rest goes back to the diner in the same posting. */
  capturedPaise?: number;
  capturePurpose?: CapturePurpose;
  /** What this refund returns (≤ captured). */
  refundedPaise?: number;
  /** What a payout sent to the member (defaults to what was captured, else authorised). */
  paidOutPaise?: number;
}

/**
 * The lines of one posting, derived from its kind and amounts. Every result sums to zero
 * (asserted by the repository before it writes, and by the tests).
 */
export function postingLines(kind: Exclude<PostingKind, 'none'>, amounts: PostingAmounts): LedgerLine[] {
  const authorised = amounts.authorisedPaise;
  switch (kind) {
    case 'authorise':
      return [
        { account: 'diner_authorised', amountPaise: authorised },
        { account: 'diner_funds', amountPaise: -authorised },
      ];
    case 'release':
      return [
        { account: 'diner_funds', amountPaise: authorised },
        { account: 'diner_authorised', amountPaise: -authorised },
      ];
    case 'capture': {
      const captured = amounts.capturedPaise ?? authorised;
      const account = captureAccountOf(amounts.capturePurpose);
      const lines: LedgerLine[] = [
        { account, amountPaise: captured },
        { account: 'diner_authorised', amountPaise: -authorised },
      ];
      if (authorised - captured > 0) lines.push({ account: 'diner_funds', amountPaise: authorised - captured });
      return lines;
    }
    case 'refund': {
      // A deposit paid out to a member is theirs: it is never refunded (payments refuses to ask).
      if (amounts.capturePurpose === 'pay_member') throw new Error('A capture paid out to a member has no refund');
      const refunded = amounts.refundedPaise ?? 0;
      const account = captureAccountOf(amounts.capturePurpose);
      return [
        { account: 'diner_funds', amountPaise: refunded },
        { account, amountPaise: -refunded },
      ];
    }
    case 'payout': {
      // The captured deposit leaves what we owe the member for money outside us: their bank.
      const paid = amounts.paidOutPaise ?? amounts.capturedPaise ?? authorised;
      return [
        { account: 'diner_funds', amountPaise: paid },
        { account: 'member_payable', amountPaise: -paid },
      ];
    }
  }
}

/**
 * A payout's statuses (decision 184): PENDING from the request until the provider answers, then
 * PAID (the member has the money, posted once) or FAILED (nothing left us; the money stays in
 * member_payable).
 */
export const payoutStatuses = ['PENDING', 'PAID', 'FAILED'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/** What a provider says of a payout: processed, failed, or reversed (the bank sent it back). */
export type PayoutEvent = 'processed' | 'failed' | 'reversed';

/**
 * Where a payout goes on a provider's event, or undefined when the event changes nothing (a
 * duplicate, a late one). A reversal after PAID is not undone here: the payout posting stands and a
 * person must look (no reversal posting kind exists yet).
 */
export function payoutStatusAfter(from: PayoutStatus, event: PayoutEvent): PayoutStatus | undefined {
  if (from !== 'PENDING') return undefined;
  return event === 'processed' ? 'PAID' : 'FAILED';
}
