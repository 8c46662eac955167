/**
 * Where a booking's deposit stands, in the words a diner and the portal show (docs/payments.md),
 * read from its payment intent. Pure: both the server and the web use it.
 */
import { formatRupees } from './deposit-policy.ts';
import type { CapturePurpose, PaymentIntentStatus } from './payment-intent.ts';

export const depositStates = ['awaiting_payment', 'not_paid', 'held', 'credit_at_table', 'kept', 'released', 'refunded'] as const;
export type DepositState = (typeof depositStates)[number];

export interface IntentFigures {
  status: PaymentIntentStatus;
  authorisedPaise: number;
  capturedPaise: number;
  refundedPaise: number;
  capturePurpose: CapturePurpose | null;
}

export function depositStateOf(intent: IntentFigures): DepositState {
  switch (intent.status) {
    case 'CREATED':
      return 'awaiting_payment';
    case 'FAILED':
    case 'EXPIRED':
      return 'not_paid';
    case 'RELEASED':
      return 'released';
    case 'REFUNDED':
      return 'refunded';
    case 'CAPTURED':
      return intent.capturePurpose === 'credit_at_table' ? 'credit_at_table' : 'kept';
    default:
      // Authorised, or a request of ours the provider has not settled yet: the money is still blocked.
      return 'held';
  }
}

export const depositStateLabels: Record<DepositState, string> = {
  awaiting_payment: 'Awaiting payment',
  not_paid: 'Not paid',
  held: 'Held',
  credit_at_table: 'Credit at the table',
  kept: 'Kept as a fee',
  released: 'Released',
  refunded: 'Waived and refunded',
};

/** The receipt's sentence for a deposit of `amountPaise`. */
export function depositReceipt(intent: IntentFigures & { amountPaise: number }): string {
  const state = depositStateOf(intent);
  switch (state) {
    case 'awaiting_payment':
      return `${formatRupees(intent.amountPaise)} asked; not approved yet.`;
    case 'not_paid':
      return 'Nothing was blocked.';
    case 'held':
      return `${formatRupees(intent.authorisedPaise)} blocked on your account until your visit.`;
    case 'credit_at_table':
      return `${formatRupees(intent.capturedPaise)} credited on your bill.`;
    case 'kept': {
      const back = intent.authorisedPaise - intent.capturedPaise;
      return `${formatRupees(intent.capturedPaise)} kept as a fee${back > 0 ? `; ${formatRupees(back)} released` : ''}.`;
    }
    case 'released':
      return `${formatRupees(intent.amountPaise)} released in full; nothing taken.`;
    case 'refunded':
      return `Fee of ${formatRupees(intent.refundedPaise)} waived and refunded.`;
  }
}
