import type { AppDeps } from '#server/deps.ts';
import { createIntentTransitions } from './intent-transitions.ts';
import { createMoneyMoves } from './money-moves.ts';
import { createMoneyRequests } from './money-requests.ts';
import type { PaymentProviderDriver } from './payment-provider.ts';
import { createPaymentReads } from './payment-reads.ts';
import { createPayouts, type PayoutListener, type PayoutSummary } from './payouts.ts';
import { createProviderEvents } from './provider-events.ts';
import { RazorpayDriver } from './razorpay-driver.ts';
import { SandboxGateway } from './sandbox-gateway.ts';
import { createStartAuthorisation } from './start-authorisation.ts';

export type { PaymentStatusChange, PaymentStatusListener } from './intent-transitions.ts';
export type { DecidedMoneyMove, MoneyMoveKind } from './money-moves.ts';
export type { WebhookOutcome } from './provider-events.ts';

/** The driver PAYMENTS_DRIVER names (decision 113). */
export function createPaymentDriver(config: AppDeps['config']): PaymentProviderDriver {
  const { payments } = config;
  if (payments.driver === 'razorpay' && payments.razorpay) {
    return new RazorpayDriver({ ...payments.razorpay, timeoutMs: payments.providerTimeoutMs });
  }
  return new SandboxGateway(payments.webhookSecret);
}

/**
 * Payments (docs/payments.md): payment intents moved by the state machine in
 * common/domain/payment-intent.ts, a double-entry ledger that posts only what the provider
 * confirmed, and idempotency on every request and every webhook. Other modules call
 * startAuthorisation / capture / release / refund / creditAtTable / payToMember, or hand a decided
 * money move to settleMoneyMove (their own access checks done), and hear back through
 * onStatusChange and onPayoutChange, wired in server/composition.ts; payments never imports them.
 * Each use case is its own file: start-authorisation.ts, money-requests.ts, money-moves.ts,
 * provider-events.ts (webhooks, expiry), payment-reads.ts, payouts.ts.
 */
export function createPaymentsService(deps: AppDeps, driver: PaymentProviderDriver = createPaymentDriver(deps.config)) {
  const sandbox = driver instanceof SandboxGateway ? driver : undefined;
  const intents = createIntentTransitions(deps);
  const payouts = createPayouts(deps, driver);
  const requests = createMoneyRequests(deps, driver, intents, payouts);
  const events = createProviderEvents(deps, driver, intents, requests, payouts);
  const { settleMoneyMove } = createMoneyMoves(deps, intents, requests);
  const { capture, release, refund, creditAtTable, payToMember, retryUnansweredCalls } = requests;

  return {
    /** The sandbox gateway when PAYMENTS_DRIVER=sandbox (its approval page and test knobs). */
    sandbox,
    driverName: driver.name,

    /** Subscribes to committed status changes (of `purposes` only, when given); returns the unsubscribe function. */
    onStatusChange: intents.onStatusChange,

    /** Subscribes to settled payouts (PAID, FAILED), after commit; returns the unsubscribe function. */
    onPayoutChange(listener: PayoutListener): () => void {
      return payouts.onChange(listener);
    },

    startAuthorisation: createStartAuthorisation(deps, driver),
    capture,
    release,
    refund,
    creditAtTable,
    payToMember,
    settleMoneyMove,

    /** The payout of an intent's capture, for a calling service that has done its own access check. */
    readPayoutOfIntent(intentId: string): Promise<PayoutSummary | undefined> {
      return payouts.ofIntent(intentId);
    },

    /** One intent for a calling service that has done its own access check (the reservation's deposit). */
    readIntent: intents.readIntent,

    ...createPaymentReads(deps, sandbox),
    ...events,

    /** The sweep: requests whose answer never came are sent again with their own keys (money-requests.ts). */
    retryUnansweredCalls,

    /** The sweep: payouts still PENDING are sent again (payouts.ts). */
    sendPendingPayouts(): Promise<number> {
      return payouts.sendPending();
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
