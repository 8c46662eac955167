import { createHash } from 'node:crypto';
import { CAPTURE_REMAINDER_NOTE, ProviderRefused, ProviderTimeout, readSignedWebhook } from './payment-provider.ts';
import type { AuthorisationRequest, MoneyRequest, PaymentProviderDriver, PayoutRequest, WebhookReading } from './payment-provider.ts';

export interface RazorpayOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** https://api.razorpay.com, or a local server in tests. */
  apiBase: string;
  timeoutMs: number;
  /**
   * Ask for a UPI one-time mandate (the amount blocked on the diner's bank account) instead of a
   * card-style authorisation: the order carries method upi and a token with the block's limit and expiry.
   */
  upiOneTimeMandate?: { customerId: string; validForSeconds: number };
  /**
   * The RazorpayX business account payouts are paid from (its account_number, not a member's).
   * Without it no payout is sent: each is refused and stays with us.
   */
  payoutAccountNumber?: string;
}

/** Razorpay's order receipts are at most 40 characters. */
const RECEIPT_MAX = 40;
/** RazorpayX: a payout's narration is at most 30 letters, digits and spaces (shown on the member's statement). */
const PAYOUT_NARRATION = 'Tablefair date deposit';
/** RazorpayX's X-Payout-Idempotency: 4 to 36 letters, digits, hyphens, underscores or spaces. */
const PAYOUT_IDEMPOTENCY = /^[A-Za-z0-9_\- ]{4,36}$/;

/**
 * Our idempotency key as RazorpayX accepts it: as it is when it fits, otherwise a UUID-shaped
 * digest of it (ours look like `payout:<uuid>`, 43 characters with a colon). The same key always
 * gives the same header, so a re-sent payout is recognised.
 */
export function payoutIdempotencyHeader(idempotencyKey: string): string {
  if (PAYOUT_IDEMPOTENCY.test(idempotencyKey)) return idempotencyKey;
  const hex = createHash('sha256').update(idempotencyKey, 'utf8').digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The Razorpay driver (decision 114), written against Razorpay's documented REST API with
 * fetch and Basic auth (the official SDK brings axios and adds nothing we need):
 * - authorise: POST /v1/orders with amount in paise, currency INR, a receipt (our idempotency
 *   key) and payment_capture false, so a payment on it stays `authorized` until we capture.
 * - capture: POST /v1/payments/{id}/capture with the authorised amount (Razorpay captures the
 *   whole order amount); a fee smaller than the deposit is kept by refunding the rest at once,
 *   marked with a note so its webhook is not taken for a refund of ours.
 * - release: Razorpay has no call to void an authorisation; it refunds an uncaptured payment
 *   itself when the capture window (Dashboard, 3 days by default) passes. The release is recorded,
 *   nothing is sent, and the auto-refund's `refund.processed` webhook (payment.captured false)
 *   settles the intent as RELEASED.
 * - refund: POST /v1/payments/{id}/refund with amount, speed normal and a receipt.
 * - payout (RazorpayX, decision 184): POST /v1/payouts from our business account to the member's
 *   fund account, mode UPI, purpose payout, queued if our balance is low, reference_id our payout
 *   id, with the X-Payout-Idempotency header (mandatory since March 2025) so a retry pays once.
 * - webhooks: X-Razorpay-Signature is the HMAC-SHA-256 hex of the raw body with the webhook
 *   secret; X-Razorpay-Event-Id names the event, so a redelivery is recognised. RazorpayX's
 *   payout.processed / payout.failed / payout.reversed use the same signature (the RazorpayX
 *   webhook must be set up with the same secret and URL).
 * Keys are only ever put in the Authorization header, never in a log or an error.
 */
export class RazorpayDriver implements PaymentProviderDriver {
  readonly name = 'razorpay' as const;

  constructor(private readonly options: RazorpayOptions) {}

  async createAuthorisation(request: AuthorisationRequest): Promise<{ providerRef: string; approvalUrl: null }> {
    const body: Record<string, unknown> = {
      amount: request.amountPaise,
      currency: 'INR',
      receipt: request.idempotencyKey.slice(0, RECEIPT_MAX),
      payment_capture: false,
      notes: { tablefair_intent: request.intentId, purpose: request.purpose },
    };
    const mandate = this.options.upiOneTimeMandate;
    if (mandate) {
      const expireAt = Math.floor((request.approveBy?.getTime() ?? Date.now()) / 1000) + mandate.validForSeconds;
      Object.assign(body, {
        method: 'upi',
        customer_id: mandate.customerId,
        token: { max_amount: request.amountPaise, expire_at: expireAt, frequency: 'as_presented' },
      });
    }
    const order = await this.call<{ id: string }>('POST', '/v1/orders', body, 'authorise');
    return { providerRef: order.id, approvalUrl: null };
  }

  async capture(request: MoneyRequest): Promise<void> {
    const paymentId = this.paymentIdOf(request);
    try {
      await this.call('POST', `/v1/payments/${encodeURIComponent(paymentId)}/capture`, { amount: request.authorisedPaise, currency: 'INR' }, 'capture');
    } catch (error) {
      // A retried capture of a payment already captured is the same request done: not a failure.
      if (!(error instanceof ProviderRefused && /already been captured/i.test(error.message))) throw error;
    }
    const rest = request.authorisedPaise - request.amountPaise;
    if (rest > 0) {
      await this.call(
        'POST',
        `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
        { amount: rest, speed: 'normal', receipt: `${request.idempotencyKey}:rest`.slice(-RECEIPT_MAX), notes: { tablefair: CAPTURE_REMAINDER_NOTE } },
        'capture',
      );
    }
  }

  async release(): Promise<void> {
    // Nothing to send: Razorpay auto-refunds an authorisation that is never captured (see above).
  }

  async refund(request: MoneyRequest): Promise<void> {
    await this.call(
      'POST',
      `/v1/payments/${encodeURIComponent(this.paymentIdOf(request))}/refund`,
      { amount: request.amountPaise, speed: 'normal', receipt: request.idempotencyKey.slice(0, RECEIPT_MAX) },
      'refund',
    );
  }

  async payout(request: PayoutRequest): Promise<{ providerRef: string }> {
    // The product does not collect members' payout accounts yet: a clear no, not a timeout.
    if (!request.fundAccountRef) throw new ProviderRefused('The member has no payout account yet');
    if (!this.options.payoutAccountNumber) throw new ProviderRefused('No RazorpayX account is configured to pay from');
    const payout = await this.call<{ id: string }>(
      'POST',
      '/v1/payouts',
      {
        account_number: this.options.payoutAccountNumber,
        fund_account_id: request.fundAccountRef,
        amount: request.amountPaise,
        currency: 'INR',
        mode: 'UPI',
        purpose: 'payout',
        queue_if_low_balance: true,
        reference_id: request.payoutId.slice(0, RECEIPT_MAX),
        narration: PAYOUT_NARRATION,
        notes: { tablefair_payout: request.payoutId, to_account: request.toAccountId },
      },
      'payout',
      { 'x-payout-idempotency': payoutIdempotencyHeader(request.idempotencyKey) },
    );
    return { providerRef: payout.id };
  }

  readWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookReading {
    return readSignedWebhook(rawBody, headers, {
      secret: this.options.webhookSecret,
      signatureHeader: 'x-razorpay-signature',
      eventIdHeader: 'x-razorpay-event-id',
      bodyDigestWithoutEventId: true,
    });
  }

  private paymentIdOf(request: MoneyRequest): string {
    if (!request.paymentRef) throw new ProviderRefused('This payment has no Razorpay payment id yet');
    return request.paymentRef;
  }

  private async call<T>(method: 'POST' | 'GET', path: string, body: unknown, what: string, extraHeaders: Record<string, string> = {}): Promise<T> {
    const auth = Buffer.from(`${this.options.keyId}:${this.options.keySecret}`).toString('base64');
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.apiBase), {
        method,
        headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json', ...extraHeaders },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) throw new ProviderTimeout(what);
      throw new ProviderTimeout(`${what}: the connection failed`);
    }
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (response.status >= 500) throw new ProviderTimeout(`${what}: Razorpay answered ${response.status}`);
    if (!response.ok) {
      const description = (json as { error?: { description?: unknown } } | undefined)?.error?.description;
      throw new ProviderRefused(typeof description === 'string' ? description.slice(0, 300) : `Razorpay refused the ${what} (${response.status})`);
    }
    return json as T;
  }
}
