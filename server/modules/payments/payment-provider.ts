import { createHmac } from 'node:crypto';
import type { PaymentProvider, PaymentPurpose } from '#common/contract/payments.ts';
import { razorpayWebhookBody } from '#common/contract/payments.ts';
import type { PaymentIntentEvent, PayoutEvent } from '#common/domain/payment-intent.ts';
import { sameHex } from '#server/constant-time.ts';

/**
 * The provider port (decision 113): what payments asks of a gateway, and what a gateway tells
 * payments back through signed webhooks. Every call carries the caller's idempotency key.
 */

/** A provider fact from a webhook, in the state machine's words. */
export interface ProviderEvent {
  eventId: string;
  /** The gateway's own name for it (payment.authorized, refund.processed, …), for the inbox. */
  eventType: string;
  type: Extract<PaymentIntentEvent, 'authorised' | 'failed' | 'captured' | 'released' | 'refunded'>;
  /** The order (Razorpay) or sandbox order the intent was created with. */
  providerRef: string;
  paymentRef: string | null;
  amountPaise: number | null;
}

/** A provider fact about a payout of ours (RazorpayX's payout.processed / failed / reversed). */
export interface ProviderPayoutEvent {
  eventId: string;
  eventType: string;
  type: PayoutEvent;
  /** The provider's payout id (pout_…). */
  payoutRef: string;
  /** Our payout's id, as we sent it in reference_id; null when the body has none. */
  payoutId: string | null;
  amountPaise: number;
}

/**
 * What reading a webhook gives: refused (bad signature), a fact about an intent (`event`) or about
 * a payout (`payout`, with `event` null), or a verified event we do not act on.
 */
export type WebhookReading =
  { verified: false } | { verified: true; eventId: string; eventType: string; event: ProviderEvent | null; payout?: ProviderPayoutEvent };

export interface AuthorisationRequest {
  intentId: string;
  amountPaise: number;
  purpose: PaymentPurpose;
  idempotencyKey: string;
  approveBy?: Date;
}

export interface MoneyRequest {
  providerRef: string;
  paymentRef: string | null;
  /** What this call moves: the capture or refund amount; for a release, what was authorised. */
  amountPaise: number;
  authorisedPaise: number;
  idempotencyKey: string;
}

/** Money we send out of our account to a member (decision 184). */
export interface PayoutRequest {
  /** Our payout's id: the provider's reference, so its webhooks name it. */
  payoutId: string;
  amountPaise: number;
  /** The member (dating account) it is for. */
  toAccountId: string;
  /** The same for every attempt of one payout: the provider pays once. */
  idempotencyKey: string;
  /** The member's account at the provider (RazorpayX fund account, fa_…); null while we have none. */
  fundAccountRef: string | null;
}

export interface PaymentProviderDriver {
  readonly name: PaymentProvider;
  /** Asks the gateway for an authorisation the diner approves on their side; the answer comes by webhook. */
  createAuthorisation(request: AuthorisationRequest): Promise<{ providerRef: string; approvalUrl: string | null }>;
  capture(request: MoneyRequest): Promise<void>;
  release(request: MoneyRequest): Promise<void>;
  refund(request: MoneyRequest): Promise<void>;
  /** Sends a payout; the provider's answer (processed or failed) comes by webhook. */
  payout(request: PayoutRequest): Promise<{ providerRef: string }>;
  /** Verifies the signature over the raw body and reads the event. */
  readWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookReading;
}

/** The provider did not answer in time: the request may or may not have been applied. */
export class ProviderTimeout extends Error {
  constructor(what: string) {
    super(`The payment provider did not answer in time (${what})`);
    this.name = 'ProviderTimeout';
  }
}

/** The provider answered with a refusal; the message is the provider's description, never a secret. */
export class ProviderRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderRefused';
  }
}

/** HMAC-SHA-256 of the raw body, hex: how Razorpay (and the sandbox) sign webhooks. */
export function signBody(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

/** Compares a received signature with the expected one in constant time. */
function isValidSignature(rawBody: string, secret: string, signature: string | string[] | undefined): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  return sameHex(signBody(rawBody, secret), signature.toLowerCase());
}

/** A refund the Razorpay driver makes to give back what a partial capture does not keep (decision 114). */
export const CAPTURE_REMAINDER_NOTE = 'capture_remainder';

/** RazorpayX's payout events we act on; the others (queued, initiated, updated, …) change nothing. */
const payoutEvents: Partial<Record<string, PayoutEvent>> = {
  'payout.processed': 'processed',
  'payout.failed': 'failed',
  'payout.reversed': 'reversed',
};

/**
 * Reads a Razorpay-shaped event body (the sandbox speaks the same shape) as a ProviderEvent, or a
 * RazorpayX payout event as a ProviderPayoutEvent. A refund on a payment never captured is the
 * authorisation's release (Razorpay's auto-refund); the remainder refund of a partial capture is
 * part of that capture, so it is skipped.
 */
function readRazorpayStyleEvent(rawBody: string, eventId: string): WebhookReading {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { verified: true, eventId, eventType: 'unreadable', event: null };
  }
  const parsed = razorpayWebhookBody.safeParse(json);
  if (!parsed.success) return { verified: true, eventId, eventType: 'unreadable', event: null };
  const body = parsed.data;
  const payment = body.payload.payment?.entity;
  const refund = body.payload.refund?.entity;
  const base = { eventId, eventType: body.event };
  const payout = body.payload.payout?.entity;
  const payoutEvent = payoutEvents[body.event];
  if (payout && payoutEvent) {
    return {
      verified: true,
      ...base,
      event: null,
      payout: { ...base, type: payoutEvent, payoutRef: payout.id, payoutId: payout.reference_id ?? null, amountPaise: payout.amount },
    };
  }
  if (!payment?.order_id) return { verified: true, ...base, event: null };
  const fact = (type: ProviderEvent['type'], amountPaise: number | null): WebhookReading => ({
    verified: true,
    ...base,
    event: { ...base, type, providerRef: payment.order_id!, paymentRef: payment.id, amountPaise },
  });
  switch (body.event) {
    case 'payment.authorized':
      return fact('authorised', payment.amount);
    case 'payment.failed':
      return fact('failed', null);
    case 'payment.captured':
      return fact('captured', payment.amount);
    case 'refund.processed':
      if (!refund) return { verified: true, ...base, event: null };
      if (refund.notes && !Array.isArray(refund.notes) && refund.notes.tablefair === CAPTURE_REMAINDER_NOTE) return { verified: true, ...base, event: null };
      return payment.captured ? fact('refunded', refund.amount) : fact('released', refund.amount);
    default:
      return { verified: true, ...base, event: null };
  }
}

/** The first value of a header. */
function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** How a provider signs and names the Razorpay-shaped webhooks it sends. */
export interface SignedWebhookFormat {
  secret: string;
  /** The header with the hex HMAC-SHA-256 of the raw body (`signBody`). */
  signatureHeader: string;
  /** The header with the provider's id of the event, the same on every redelivery. */
  eventIdHeader: string;
  /**
   * Without an event id header: true takes the body's own digest as the id, so a redelivery of the
   * same bytes is still known (Razorpay's may lack the header); false refuses the webhook.
   */
  bodyDigestWithoutEventId: boolean;
}

/** A Razorpay-shaped webhook, Razorpay's own or the sandbox's: its signature checked first, then its event read. */
export function readSignedWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>, format: SignedWebhookFormat): WebhookReading {
  if (!isValidSignature(rawBody, format.secret, headerValue(headers, format.signatureHeader))) return { verified: false };
  const eventId = headerValue(headers, format.eventIdHeader) ?? (format.bodyDigestWithoutEventId ? `body:${signBody(rawBody, 'event-id')}` : undefined);
  if (!eventId) return { verified: false };
  return readRazorpayStyleEvent(rawBody, eventId);
}
