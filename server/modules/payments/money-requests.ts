import {
  captureInput,
  creditAtTableInput,
  payToMemberInput,
  refundInput,
  releaseInput,
  type CaptureInput,
  type CreditAtTableInput,
  type PaymentIntent,
  type PayToMemberInput,
  type RefundInput,
  type ReleaseInput,
} from '#common/contract/payments.ts';
import { transitionFor, type CapturePurpose, type PaymentIntentEvent } from '#common/domain/payment-intent.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, notFound } from '#server/errors.ts';
import { changeOf, parse, type IntentTransitions } from './intent-transitions.ts';
import { ProviderRefused, ProviderTimeout, type PaymentProviderDriver } from './payment-provider.ts';
import {
  findPayoutOfIntent,
  findProviderCall,
  insertPayoutOnce,
  insertProviderCall,
  listUnansweredCalls,
  lockIntent,
  recordCallOutcome,
  type IntentChanges,
  type IntentRow,
  type ProviderCallKind,
} from './payments.repository.ts';
import { payoutKeyOf, type Payouts, type PayoutSummary } from './payouts.ts';

type MoveKind = Exclude<ProviderCallKind, 'authorise'>;

/** What a capture, release or refund request carries. */
interface MoveRequest {
  intentId: string;
  idempotencyKey: string;
  reason: string;
  amountPaise?: number;
  capturePurpose?: CapturePurpose;
  /** A capture for a member (pay_member): the dating account its payout goes to. */
  payTo?: string;
}

/** How many unanswered requests one sweep sends again. */
const RETRY_BATCH = 200;
/** A request left unanswered is sent again once it has waited this long (one sweep's repeat, not a storm). */
const UNANSWERED_RETRY_AFTER_MS = 60_000;

const requestEvent: Record<MoveKind, PaymentIntentEvent> = {
  capture: 'capture_requested',
  release: 'release_requested',
  refund: 'refund_requested',
};
const verbs: Record<MoveKind, string> = { capture: 'captured', release: 'released', refund: 'refunded' };

/**
 * Money asked of an authorisation: capture (a fee kept, credit at the table, a member's payout),
 * release and refund. Each request is recorded with its idempotency key before it is sent, so the
 * same key repeats the request (and re-sends it after a timeout) instead of making a second one;
 * the provider's webhook then settles it.
 */
export function createMoneyRequests(deps: Pick<AppDeps, 'db' | 'clock' | 'log'>, driver: PaymentProviderDriver, intents: IntentTransitions, payouts: Payouts) {
  const { db, clock, log } = deps;

  /** Sends a recorded request to the provider and writes what came of it. */
  async function sendToProvider(kind: MoveKind, row: IntentRow, idempotencyKey: string, amountPaise: number): Promise<void> {
    try {
      await driver[kind]({
        providerRef: row.provider_ref ?? '',
        paymentRef: row.provider_payment_ref,
        amountPaise,
        authorisedPaise: row.authorised_paise,
        idempotencyKey,
      });
      await recordCallOutcome(db, idempotencyKey, 'accepted', clock.now());
    } catch (error) {
      if (error instanceof ProviderTimeout) {
        // The request may or may not have reached the provider: the intent stays pending until a
        // retry with the same key or the provider's webhook settles it.
        await recordCallOutcome(db, idempotencyKey, 'timed_out', clock.now());
        log.warn({ intentId: row.id, kind }, 'payment provider call timed out');
        return;
      }
      if (error instanceof ProviderRefused) {
        await recordCallOutcome(db, idempotencyKey, 'refused', clock.now());
        await db.transaction(async (tx) => {
          const locked = await lockIntent(tx, row.id);
          const back = locked && transitionFor(locked.status, 'request_refused');
          if (locked && back) await intents.applyTransition(tx, locked, back, {}, idempotencyKey);
        });
        throw conflict(`The payment provider refused: ${error.message}`);
      }
      throw error;
    }
  }

  /**
   * Asks for a capture, release or refund. The same idempotency key repeats the request (and
   * re-sends it when the last attempt timed out) instead of making a second one.
   */
  async function requestMove(kind: MoveKind, request: MoveRequest): Promise<PaymentIntent> {
    const outcome = await db.transaction(async (tx) => {
      const row = await lockIntent(tx, request.intentId);
      if (!row) throw notFound('Payment not found');
      const earlier = await findProviderCall(tx, request.idempotencyKey);
      // A payout already recorded for this intent must be to the same member (a retry, or a capture
      // that the provider refused and that is asked again).
      const payout = request.payTo ? await findPayoutOfIntent(tx, row.id) : undefined;
      if (payout && payout.to_account_id !== request.payTo) throw conflict('This payment is already being paid to another member');
      if (earlier) {
        if (earlier.intent_id !== row.id || earlier.kind !== kind) throw conflict('That idempotency key was used for another payment request');
        if (request.payTo && !payout) throw conflict('That idempotency key was used for another payment request');
        return {
          row,
          resend: earlier.outcome === 'timed_out' || earlier.outcome === 'pending',
          amount: earlier.amount_paise ?? row.authorised_paise,
          change: null,
        };
      }
      const transition = transitionFor(row.status, requestEvent[kind]);
      if (!transition) throw conflict(`This payment is ${row.status.toLowerCase().replace('_', ' ')} and cannot be ${verbs[kind]} now`);
      // Only a date's deposit can become another member's money (decision 184).
      if (request.payTo && row.purpose !== 'dating_deposit') throw conflict('Only a dating deposit can be paid to a member');
      // Money paid out to a member is theirs now: there is nothing of ours left to give back.
      if (kind === 'refund' && row.capture_purpose === 'pay_member') throw conflict('This payment was paid to a member and cannot be refunded');
      const amount = kind === 'release' ? row.authorised_paise : (request.amountPaise ?? row.authorised_paise);
      if (kind === 'capture' && amount > row.authorised_paise) throw badInput('amountPaise: cannot capture more than was authorised');
      if (kind === 'refund' && amount > row.captured_paise) throw badInput('amountPaise: cannot refund more than was captured');
      await insertProviderCall(tx, {
        intentId: row.id,
        kind,
        idempotencyKey: request.idempotencyKey,
        amountPaise: amount,
        reason: request.reason,
        now: clock.now(),
      });
      const changes: Omit<IntentChanges, 'status'> =
        kind === 'capture'
          ? { captureRequestedPaise: amount, capturePurpose: request.capturePurpose ?? 'keep' }
          : kind === 'refund'
            ? { refundRequestedPaise: amount }
            : {};
      const next = await intents.applyTransition(tx, row, transition, changes, request.idempotencyKey);
      if (request.payTo) {
        // Written with the capture request, so the payout exists whatever happens after commit;
        // it is sent once the provider confirms the capture.
        await insertPayoutOnce(tx, {
          sourceIntentId: row.id,
          toAccountId: request.payTo,
          amountPaise: amount,
          provider: driver.name,
          idempotencyKey: payoutKeyOf(row.id),
          now: clock.now(),
        });
      }
      return { row: next, resend: true, amount, change: changeOf(row, transition) };
    });
    if (outcome.change) await intents.announce(outcome.change);
    if (outcome.resend) await sendToProvider(kind, outcome.row, request.idempotencyKey, outcome.amount);
    return intents.readIntent(request.intentId);
  }

  return {
    /** Releases an authorisation nobody wants any more (late, or rejected by its owner); a failure waits for the next webhook or sweep. */
    async releaseUnwanted(intentId: string, why: string): Promise<void> {
      try {
        await requestMove('release', { intentId, idempotencyKey: `auto-release:${intentId}`, reason: why });
      } catch (error) {
        log.warn({ err: error, intentId }, 'automatic release failed; the next webhook or sweep retries');
      }
    },

    /** Captures up to what was authorised (a fee kept, by default); the rest goes back to the diner. */
    async capture(input: CaptureInput): Promise<PaymentIntent> {
      const request = parse(captureInput, input);
      return requestMove('capture', { ...request, capturePurpose: request.purpose });
    },

    /** Lets the whole authorisation go: nothing is taken. */
    async release(input: ReleaseInput): Promise<PaymentIntent> {
      return requestMove('release', parse(releaseInput, input));
    },

    /** Returns up to what was captured (one refund per intent). */
    async refund(input: RefundInput): Promise<PaymentIntent> {
      return requestMove('refund', parse(refundInput, input));
    },

    /** The diner came: the whole deposit is captured as credit on their bill. */
    async creditAtTable(input: CreditAtTableInput): Promise<PaymentIntent> {
      const request = parse(creditAtTableInput, input);
      return requestMove('capture', {
        intentId: request.intentId,
        idempotencyKey: request.idempotencyKey,
        reason: 'credit at table',
        capturePurpose: 'credit_at_table',
      });
    },

    /**
     * A flake's deposit goes to the member who came (decision 184): the whole authorisation is
     * captured for them (capture purpose pay_member) and a PENDING payout is written in the same
     * transaction; once the provider confirms the capture, the payout is sent. The same key answers
     * the same and changes nothing; the calling service has checked who asks and to whom.
     */
    async payToMember(input: PayToMemberInput): Promise<{ intent: PaymentIntent; payout: PayoutSummary }> {
      const request = parse(payToMemberInput, input);
      const intent = await requestMove('capture', {
        intentId: request.intentId,
        idempotencyKey: request.idempotencyKey,
        reason: 'paid to the member who came',
        capturePurpose: 'pay_member',
        payTo: request.toAccountId,
      });
      const payout = await payouts.ofIntent(request.intentId);
      if (!payout) throw new Error('The payout vanished after it was written');
      return { intent, payout };
    },

    /**
     * Sends again, with their own keys, the capture, release and refund requests whose answer never
     * came (a timeout, or a stop between recording and sending) and whose intent still waits: the
     * caller who asked may never ask again, and the money must not stay blocked. The provider treats
     * the repeat as the same request. Answers how many were sent.
     */
    async retryUnansweredCalls(): Promise<number> {
      const calls = await listUnansweredCalls(db, new Date(clock.now().getTime() - UNANSWERED_RETRY_AFTER_MS), RETRY_BATCH);
      for (const call of calls) {
        if (call.kind === 'authorise') continue;
        try {
          await requestMove(call.kind, { intentId: call.intent_id, idempotencyKey: call.idempotency_key, reason: '' });
        } catch (error) {
          log.warn({ err: error, intentId: call.intent_id, kind: call.kind }, 'payment request retry failed; the next sweep tries again');
        }
      }
      return calls.length;
    },
  };
}

export type MoneyRequests = ReturnType<typeof createMoneyRequests>;
