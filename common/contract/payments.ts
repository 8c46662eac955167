import { z } from 'zod';
import { capturePurposes, paymentIntentStatuses } from '../domain/payment-intent.ts';
import { uuid } from './common.ts';

/**
 * Payments (docs/payments.md). Amounts are integer paise; the client never sends one:
 * the service that starts an authorisation computes it from the deposit policy.
 */

/** A positive whole number of paise, at most ₹1,00,000. */
export const amountPaise = z
  .number({ message: 'amountPaise must be a number of paise' })
  .int({ message: 'amountPaise must be a whole number of paise' })
  .min(1, { message: 'amountPaise must be at least 1 paisa' })
  .max(10_000_000, { message: 'amountPaise must be at most ₹1,00,000' });

/** The caller's key for one request: a retry with the same key repeats it instead of doing it twice. */
export const idempotencyKey = z
  .string({ message: 'idempotencyKey is required' })
  .min(8, { message: 'idempotencyKey must be at least 8 characters' })
  .max(120, { message: 'idempotencyKey must be at most 120 characters' })
  .regex(/^[A-Za-z0-9:_.-]+$/, { message: 'idempotencyKey may use letters, digits and : _ . - only' });

const reason = z.string().max(200, { message: 'reason must be at most 200 characters' });

export const paymentPurposes = ['reservation_deposit', 'reservation_prepayment', 'dating_deposit'] as const;
export const paymentPurpose = z.enum(paymentPurposes);
export type PaymentPurpose = z.infer<typeof paymentPurpose>;

export const paymentProviders = ['sandbox', 'razorpay'] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/** startAuthorisation's input (a service-to-service call: the caller has checked who asks). */
export const startAuthorisationInput = z
  .object({
    accountId: uuid,
    restaurantId: uuid,
    reservationId: uuid.optional(),
    datingPlanId: uuid.optional(),
    amountPaise,
    purpose: paymentPurpose,
    idempotencyKey,
    /** When the owner stops waiting for approval (a hold's expiry); a later authorisation is released. */
    approveBy: z.date().optional(),
  })
  .refine(
    (input) => (input.purpose === 'dating_deposit' ? Boolean(input.datingPlanId) && !input.reservationId : Boolean(input.reservationId) && !input.datingPlanId),
    {
      message: 'A reservation purpose needs reservationId only; dating_deposit needs datingPlanId only',
    },
  );
export type StartAuthorisationInput = z.infer<typeof startAuthorisationInput>;

export const captureInput = z.object({
  intentId: uuid,
  amountPaise,
  reason,
  idempotencyKey,
  /**
   * keep (a fee, the default) or credit_at_table (the deposit becomes credit on the bill). A
   * capture for a member (pay_member) goes through payToMember, which also records the payout.
   */
  purpose: z.enum(['keep', 'credit_at_table']).default('keep'),
});
export type CaptureInput = z.input<typeof captureInput>;

export const releaseInput = z.object({ intentId: uuid, reason, idempotencyKey });
export type ReleaseInput = z.infer<typeof releaseInput>;

export const refundInput = z.object({ intentId: uuid, amountPaise, reason, idempotencyKey });
export type RefundInput = z.infer<typeof refundInput>;

export const creditAtTableInput = z.object({ intentId: uuid, idempotencyKey });
export type CreditAtTableInput = z.infer<typeof creditAtTableInput>;

/**
 * payToMember's input (decision 184): the whole authorisation is captured for `toAccountId` (a
 * dating account) and paid out to them once the capture is confirmed.
 */
export const payToMemberInput = z.object({ intentId: uuid, toAccountId: uuid, idempotencyKey });
export type PayToMemberInput = z.infer<typeof payToMemberInput>;

export const paymentIntentStatus = z.enum(paymentIntentStatuses);

export const paymentIntent = z.object({
  id: z.string(),
  purpose: paymentPurpose,
  restaurantId: z.string(),
  reservationId: z.string().nullable(),
  datingPlanId: z.string().nullable(),
  provider: z.enum(paymentProviders),
  status: paymentIntentStatus,
  amountPaise: z.number().int(),
  authorisedPaise: z.number().int(),
  capturedPaise: z.number().int(),
  refundedPaise: z.number().int(),
  capturePurpose: z.enum(capturePurposes).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PaymentIntent = z.infer<typeof paymentIntent>;

export const paymentIntentList = z.object({ intents: z.array(paymentIntent) });
export type PaymentIntentList = z.infer<typeof paymentIntentList>;

export const startAuthorisationResult = z.object({
  intentId: z.string(),
  status: paymentIntentStatus,
  /** Where the diner approves: the sandbox page, or null for Razorpay (Checkout opens with providerRef). */
  approvalUrl: z.string().nullable(),
  providerRef: z.string().nullable(),
});
export type StartAuthorisationResult = z.infer<typeof startAuthorisationResult>;

/**
 * A payment the diner or member is asked to approve (a deposit at confirm, the extra of a changed
 * booking, a date's deposit): the intent, its amount, and where to approve it.
 */
export const paymentToApprove = z.object({
  intentId: z.string(),
  amountPaise: z.number().int(),
  /** The sandbox page (or null when the gateway's own checkout opens). */
  approvalUrl: z.string().nullable(),
});
export type PaymentToApprove = z.infer<typeof paymentToApprove>;

export const paymentIntentParams = z.object({ id: uuid });
export const webhookParams = z.object({ provider: z.enum(paymentProviders, { message: 'Unknown payment provider' }) });
export const webhookAnswer = z.object({ ok: z.literal(true), outcome: z.enum(['applied', 'ignored', 'unmatched', 'duplicate', 'skipped']) });

/** What the sandbox approval page shows: no account data, only what a gateway's page would. */
export const sandboxPayment = z.object({
  intentId: z.string(),
  merchant: z.string(),
  amountPaise: z.number().int(),
  purpose: paymentPurpose,
  /** open: waiting for the diner; approved / declined: the diner answered; closed: nothing to approve any more. */
  state: z.enum(['open', 'approved', 'declined', 'closed']),
});
export type SandboxPayment = z.infer<typeof sandboxPayment>;
export const sandboxDecision = z.object({ decision: z.enum(['approve', 'decline'], { message: 'decision must be approve or decline' }) });
export type SandboxDecision = z.infer<typeof sandboxDecision>;

/**
 * The webhook body as Razorpay documents it (docs/webhooks/payments, docs/webhooks/refunds,
 * docs/webhooks/payloads/x for RazorpayX payouts), only
 * the fields payments reads; the sandbox sends the same shape. Unknown fields pass.
 */
const razorpayPaymentEntity = z.object({
  id: z.string().max(100),
  order_id: z.string().max(100).nullable().optional(),
  amount: z.number().int().min(0),
  currency: z.string().optional(),
  status: z.string().optional(),
  captured: z.boolean().optional(),
});
const razorpayRefundEntity = z.object({
  id: z.string().max(100),
  payment_id: z.string().max(100),
  amount: z.number().int().min(0),
  notes: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
});
/** RazorpayX's payout entity (docs/api/x/payouts/entity); reference_id is our payout's id. */
const razorpayPayoutEntity = z.object({
  id: z.string().max(100),
  amount: z.number().int().min(0),
  status: z.string().max(40).optional(),
  reference_id: z.string().max(100).nullable().optional(),
});
export const razorpayWebhookBody = z.object({
  event: z.string().max(100),
  payload: z.object({
    payment: z.object({ entity: razorpayPaymentEntity }).optional(),
    refund: z.object({ entity: razorpayRefundEntity }).optional(),
    payout: z.object({ entity: razorpayPayoutEntity }).optional(),
  }),
  created_at: z.number().optional(),
});
export type RazorpayWebhookBody = z.infer<typeof razorpayWebhookBody>;
