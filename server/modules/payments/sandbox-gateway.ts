import { randomUUID } from 'node:crypto';
import { ProviderTimeout, readSignedWebhook, signBody } from './payment-provider.ts';
import type { AuthorisationRequest, MoneyRequest, PaymentProviderDriver, PayoutRequest, WebhookReading } from './payment-provider.ts';

/** Headers the sandbox signs its webhooks with (the names mirror Razorpay's). */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_EVENT_ID_HEADER = 'x-sandbox-event-id';

/** A signed webhook on its way to the app. */
export interface SandboxDelivery {
  rawBody: string;
  headers: Record<string, string>;
  eventType: string;
}

/**
 * The faults a real gateway has, for tests and demos: each webhook sent twice, late, in reverse
 * order, held until the test lets it go, or a call that times out (applied or not).
 */
export interface SandboxFaults {
  /** Send every webhook twice (same event id). */
  duplicate: boolean;
  /** Wait this long before sending. */
  delayMs: number;
  /** Send the webhooks of one burst newest first. */
  reorder: boolean;
  /** Keep webhooks until `releaseHeld()`: the test decides order and timing. */
  hold: boolean;
}

type CallKind = 'authorise' | 'capture' | 'release' | 'refund' | 'payout';

const noFaults = (): SandboxFaults => ({ duplicate: false, delayMs: 0, reorder: false, hold: false });

/**
 * The built-in gateway (PAYMENTS_DRIVER=sandbox, decision 115). It behaves like Razorpay with
 * manual capture: an order is created at once; the diner approves or declines on
 * /pay/sandbox/{id}; every answer, including capture, release, refund and a payout to a member
 * (RazorpayX's shape), comes back later as a Razorpay-shaped webhook signed with HMAC-SHA-256,
 * delivered to the app's own webhook route.
 */
export class SandboxGateway implements PaymentProviderDriver {
  readonly name = 'sandbox' as const;
  faults: SandboxFaults = noFaults();
  private deliver: ((delivery: SandboxDelivery) => Promise<unknown>) | undefined;
  private readonly held: SandboxDelivery[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private reorderBatch: SandboxDelivery[] = [];
  /** Calls of this kind time out next; `applied` says whether the gateway did the work anyway. */
  private readonly timeouts = new Map<CallKind, { count: number; applied: boolean }>();

  constructor(private readonly secret: string) {}

  /** Where webhooks go: the app's own webhook route (set when the routes are registered). */
  connect(deliver: (delivery: SandboxDelivery) => Promise<unknown>): void {
    this.deliver = deliver;
  }

  /** Stops delivering: a webhook whose delay ends after the app began to close goes nowhere. */
  disconnect(): void {
    this.deliver = undefined;
  }

  /** The next `count` calls of `kind` time out; with `applied`, the gateway acted and its webhook still comes. */
  timeOutNext(kind: CallKind, options: { count?: number; applied: boolean }): void {
    this.timeouts.set(kind, { count: options.count ?? 1, applied: options.applied });
  }

  resetFaults(): void {
    this.faults = noFaults();
    this.timeouts.clear();
  }

  async createAuthorisation(request: AuthorisationRequest): Promise<{ providerRef: string; approvalUrl: string }> {
    this.maybeTimeOut('authorise', () => undefined);
    // The order id is derived from the idempotency key, so a retried create names the same order.
    return { providerRef: `sbx_order_${request.idempotencyKey}`, approvalUrl: `/pay/sandbox/${request.intentId}` };
  }

  /** The diner approved on the sandbox page: the bank blocks the money, and says so later. */
  approve(providerRef: string, amountPaise: number): void {
    this.emit('payment.authorized', { id: paymentRefOf(providerRef), order_id: providerRef, amount: amountPaise, status: 'authorized', captured: false });
  }

  decline(providerRef: string, amountPaise: number): void {
    this.emit('payment.failed', { id: paymentRefOf(providerRef), order_id: providerRef, amount: amountPaise, status: 'failed', captured: false });
  }

  async capture(request: MoneyRequest): Promise<void> {
    this.maybeTimeOut('capture', () =>
      this.emit('payment.captured', {
        id: request.paymentRef ?? paymentRefOf(request.providerRef),
        order_id: request.providerRef,
        amount: request.amountPaise,
        status: 'captured',
        captured: true,
      }),
    );
  }

  /** A release is Razorpay's refund of a payment never captured; the sandbox sends it at once. */
  async release(request: MoneyRequest): Promise<void> {
    this.maybeTimeOut('release', () => this.emitRefund(request, false));
  }

  async refund(request: MoneyRequest): Promise<void> {
    this.maybeTimeOut('refund', () => this.emitRefund(request, true));
  }

  /**
   * A payout to a member (RazorpayX's POST /v1/payouts): accepted at once, and reported later as
   * `payout.processed` with our payout id as reference_id. The payout id is derived from ours, so a
   * retried send names the same payout.
   */
  async payout(request: PayoutRequest): Promise<{ providerRef: string }> {
    const providerRef = `sbx_pout_${request.payoutId}`;
    this.maybeTimeOut('payout', () =>
      this.emitEvent('payout.processed', ['payout'], {
        payout: {
          entity: {
            id: providerRef,
            entity: 'payout',
            amount: request.amountPaise,
            currency: 'INR',
            status: 'processed',
            mode: 'UPI',
            purpose: 'payout',
            reference_id: request.payoutId,
          },
        },
      }),
    );
    return { providerRef };
  }

  readWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookReading {
    return readSignedWebhook(rawBody, headers, {
      secret: this.secret,
      signatureHeader: SANDBOX_SIGNATURE_HEADER,
      eventIdHeader: SANDBOX_EVENT_ID_HEADER,
      // The sandbox names every event it sends: one without an id is not its own.
      bodyDigestWithoutEventId: false,
    });
  }

  /** Webhooks kept back by `faults.hold`, oldest first. */
  heldDeliveries(): readonly SandboxDelivery[] {
    return this.held;
  }

  /** Sends the held webhooks in the order given (indexes into heldDeliveries()), or all oldest first. */
  async releaseHeld(order?: number[]): Promise<void> {
    const indexes = order ?? this.held.map((_, index) => index);
    const picked = indexes.map((index) => this.held[index]).filter(Boolean);
    for (const index of [...new Set(indexes)].sort((a, b) => b - a)) this.held.splice(index, 1);
    for (const delivery of picked) await this.send(delivery);
  }

  /** Resolves once every webhook sent so far has been answered (held ones excepted). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0 || this.reorderBatch.length > 0) {
      await Promise.all([...this.inFlight]);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  private maybeTimeOut(kind: CallKind, act: () => void): void {
    const timeout = this.timeouts.get(kind);
    if (timeout && timeout.count > 0) {
      timeout.count -= 1;
      if (timeout.applied) act();
      throw new ProviderTimeout(kind);
    }
    act();
  }

  private emitRefund(request: MoneyRequest, captured: boolean): void {
    const paymentRef = request.paymentRef ?? paymentRefOf(request.providerRef);
    this.emit(
      'refund.processed',
      { id: paymentRef, order_id: request.providerRef, amount: request.authorisedPaise, status: captured ? 'captured' : 'refunded', captured },
      { id: `rfnd_sbx_${randomUUID()}`, payment_id: paymentRef, amount: request.amountPaise, notes: {} },
    );
  }

  private emit(event: string, payment: Record<string, unknown>, refund?: Record<string, unknown>): void {
    this.emitEvent(event, refund ? ['refund', 'payment'] : ['payment'], {
      payment: { entity: { entity: 'payment', currency: 'INR', ...payment } },
      ...(refund ? { refund: { entity: { entity: 'refund', ...refund } } } : {}),
    });
  }

  /** Signs a Razorpay-shaped event and sends it with the faults set (duplicate, delay, reorder, hold). */
  private emitEvent(event: string, contains: string[], payload: Record<string, unknown>): void {
    const body = { entity: 'event', event, contains, payload, created_at: Math.floor(Date.now() / 1000) };
    const rawBody = JSON.stringify(body);
    const delivery: SandboxDelivery = {
      rawBody,
      eventType: event,
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signBody(rawBody, this.secret),
        [SANDBOX_EVENT_ID_HEADER]: `evt_sbx_${randomUUID()}`,
      },
    };
    const copies = this.faults.duplicate ? [delivery, delivery] : [delivery];
    if (this.faults.hold) {
      this.held.push(...copies);
      return;
    }
    if (this.faults.reorder) {
      // Collect this burst and send it newest first once the current call has returned.
      if (this.reorderBatch.length === 0) this.track(new Promise((resolve) => setTimeout(resolve, this.faults.delayMs)).then(() => this.flushReordered()));
      this.reorderBatch.push(...copies);
      return;
    }
    for (const copy of copies) this.track(new Promise((resolve) => setTimeout(resolve, this.faults.delayMs)).then(() => this.send(copy)));
  }

  private async flushReordered(): Promise<void> {
    const batch = this.reorderBatch.reverse();
    this.reorderBatch = [];
    for (const delivery of batch) await this.send(delivery);
  }

  private async send(delivery: SandboxDelivery): Promise<void> {
    if (!this.deliver) return;
    await this.track(this.deliver(delivery));
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return tracked;
  }
}

/** The sandbox's payment id for an order: one payment per order. */
function paymentRefOf(providerRef: string): string {
  return providerRef.replace(/^sbx_order_/, 'sbx_pay_');
}
