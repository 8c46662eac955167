import type { z } from 'zod';
import {
  captureInput,
  creditAtTableInput,
  payToMemberInput,
  refundInput,
  releaseInput,
  startAuthorisationInput,
  type CaptureInput,
  type CreditAtTableInput,
  type PaymentIntent,
  type PaymentIntentList,
  type PaymentPurpose,
  type PayToMemberInput,
  type RefundInput,
  type ReleaseInput,
  type SandboxDecision,
  type SandboxPayment,
  type StartAuthorisationInput,
  type StartAuthorisationResult,
} from '#common/contract/payments.ts';
import {
  postingLines,
  transitionFor,
  type CapturePurpose,
  type PaymentIntentEvent,
  type PaymentIntentStatus,
  type PaymentIntentTransition,
} from '#common/domain/payment-intent.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict, notFound } from '#server/errors.ts';
import { csvLine } from '#common/domain/csv.ts';
import { kolkataInstant } from '#common/domain/time.ts';
import { requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { ProviderRefused, ProviderTimeout, type PaymentProviderDriver, type ProviderEvent } from './payment-provider.ts';
import {
  findIntent,
  findIntentByKey,
  findPayoutOfIntent,
  findProviderCall,
  insertEventOnce,
  insertIntent,
  insertPayoutOnce,
  insertPosting,
  insertProviderCall,
  listIntentsOfAccount,
  listIntentsOfRestaurant,
  listLedgerLinesOfRestaurant,
  listUnansweredCalls,
  lockIntent,
  lockIntentByProviderRef,
  lockOverdueIntents,
  recordCallOutcome,
  setEventOutcome,
  setProviderRef,
  updateIntent,
  type IntentChanges,
  type IntentRow,
  type ProviderCallKind,
} from './payments.repository.ts';
import { createPayouts, payoutKeyOf, type PayoutListener, type PayoutSummary } from './payouts.ts';
import { RazorpayDriver } from './razorpay-driver.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

/** What listeners hear after an intent moved (committed). */
export interface PaymentStatusChange {
  intentId: string;
  purpose: PaymentPurpose;
  reservationId: string | null;
  datingPlanId: string | null;
  from: PaymentIntentStatus;
  to: PaymentIntentStatus;
}

/**
 * A listener may answer 'reject' to an authorisation (the hold it was for has expired, say):
 * payments then releases the money and the intent never becomes a booking.
 */
export type PaymentStatusListener = (change: PaymentStatusChange) => void | 'reject' | Promise<void | 'reject'>;

/** What a webhook did. */
export type WebhookOutcome = 'applied' | 'ignored' | 'unmatched' | 'duplicate' | 'skipped';

const LIST_LIMIT = 100;
const EXPIRY_BATCH = 200;
/** A request left unanswered is sent again once it has waited this long (one sweep's repeat, not a storm). */
const UNANSWERED_RETRY_AFTER_MS = 60_000;

const requestEvent: Record<Exclude<ProviderCallKind, 'authorise'>, PaymentIntentEvent> = {
  capture: 'capture_requested',
  release: 'release_requested',
  refund: 'refund_requested',
};
const verbs: Record<Exclude<ProviderCallKind, 'authorise'>, string> = { capture: 'captured', release: 'released', refund: 'refunded' };

/** Parses a service input with its contract schema; a bad one is the caller's 400. */
function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badInput(result.error.issues.map((issue) => issue.message).join('; '));
  return result.data;
}

const iso = (value: Date | string) => asDate(value).toISOString();

function toIntent(row: IntentRow): PaymentIntent {
  return {
    id: row.id,
    purpose: row.purpose,
    restaurantId: row.restaurant_id,
    reservationId: row.reservation_id,
    datingPlanId: row.dating_plan_id,
    provider: row.provider,
    status: row.status,
    amountPaise: row.amount_paise,
    authorisedPaise: row.authorised_paise,
    capturedPaise: row.captured_paise,
    refundedPaise: row.refunded_paise,
    capturePurpose: row.capture_purpose,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function changeOf(row: IntentRow, transition: PaymentIntentTransition): PaymentStatusChange {
  return {
    intentId: row.id,
    purpose: row.purpose,
    reservationId: row.reservation_id,
    datingPlanId: row.dating_plan_id,
    from: transition.from,
    to: transition.to,
  };
}

/** The driver PAYMENTS_DRIVER names (decision 113). */
export function createPaymentDriver(config: AppDeps['config']): PaymentProviderDriver {
  const { payments } = config;
  if (payments.driver === 'razorpay' && payments.razorpay) {
    return new RazorpayDriver({ ...payments.razorpay, timeoutMs: payments.providerTimeoutMs });
  }
  return new SandboxGateway(payments.webhookSecret);
}

/**
 * Payments (issue 14, docs/payments.md): payment intents moved by the state machine in
 * common/domain/payment-intent.ts, a double-entry ledger that posts only what the provider
 * confirmed, and idempotency on every request and every webhook. Other modules call
 * startAuthorisation / capture / release / refund / creditAtTable / payToMember (their own access
 * checks done) and hear back through onStatusChange and onPayoutChange; payments never imports them.
 */
export function createPaymentsService(deps: AppDeps, driver: PaymentProviderDriver = createPaymentDriver(deps.config)) {
  const { db, clock, log } = deps;
  const listeners = new Set<PaymentStatusListener>();
  const payouts = createPayouts(deps, driver);
  const sandbox = driver instanceof SandboxGateway ? driver : undefined;

  /** Tells every listener of a committed move; returns true when one rejected an authorisation. */
  async function announce(change: PaymentStatusChange): Promise<boolean> {
    let rejected = false;
    for (const listener of listeners) {
      try {
        if ((await listener(change)) === 'reject') rejected = true;
      } catch (error) {
        log.warn({ err: error, intentId: change.intentId }, 'payment status listener failed');
      }
    }
    return rejected;
  }

  /** Applies one transition to a locked intent: new status and amounts, and its posting. */
  async function applyTransition(
    tx: Db,
    row: IntentRow,
    transition: PaymentIntentTransition,
    changes: Omit<IntentChanges, 'status'>,
    source: string,
  ): Promise<IntentRow> {
    const now = clock.now();
    const next: IntentRow = {
      ...row,
      status: transition.to,
      authorised_paise: changes.authorisedPaise ?? row.authorised_paise,
      captured_paise: changes.capturedPaise ?? row.captured_paise,
      refunded_paise: changes.refundedPaise ?? row.refunded_paise,
      capture_purpose: changes.capturePurpose ?? row.capture_purpose,
      capture_requested_paise: changes.captureRequestedPaise ?? row.capture_requested_paise,
      refund_requested_paise: changes.refundRequestedPaise ?? row.refund_requested_paise,
      provider_payment_ref: changes.providerPaymentRef ?? row.provider_payment_ref,
    };
    await updateIntent(tx, row.id, { status: transition.to, ...changes }, now);
    if (transition.posting !== 'none') {
      const lines = postingLines(transition.posting, {
        authorisedPaise: next.authorised_paise,
        capturedPaise: next.captured_paise,
        capturePurpose: next.capture_purpose ?? 'keep',
        refundedPaise: next.refunded_paise,
      });
      const posted = await insertPosting(tx, { intentId: row.id, kind: transition.posting, source, lines, now });
      // The state machine lets each kind happen once per intent; a second posting would be a bug.
      if (!posted) throw new Error(`Intent ${row.id} already has a ${transition.posting} posting`);
    }
    return next;
  }

  /** Sends a recorded request to the provider and writes what came of it. */
  async function sendToProvider(kind: Exclude<ProviderCallKind, 'authorise'>, row: IntentRow, idempotencyKey: string, amountPaise: number): Promise<void> {
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
          if (locked && back) await applyTransition(tx, locked, back, {}, idempotencyKey);
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
  async function requestMove(
    kind: Exclude<ProviderCallKind, 'authorise'>,
    request: {
      intentId: string;
      idempotencyKey: string;
      reason: string;
      amountPaise?: number;
      capturePurpose?: CapturePurpose;
      /** A capture for a member (pay_member): the dating account its payout goes to. */
      payTo?: string;
    },
  ): Promise<PaymentIntent> {
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
      const next = await applyTransition(tx, row, transition, changes, request.idempotencyKey);
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
    if (outcome.change) await announce(outcome.change);
    if (outcome.resend) await sendToProvider(kind, outcome.row, request.idempotencyKey, outcome.amount);
    return getIntentUnchecked(request.intentId);
  }

  async function getIntentUnchecked(intentId: string): Promise<PaymentIntent> {
    const row = await findIntent(db, intentId);
    if (!row) throw notFound('Payment not found');
    return toIntent(row);
  }

  /** Releases an authorisation nobody wants any more (late, or rejected by its owner). */
  async function releaseUnwanted(intentId: string, why: string): Promise<void> {
    try {
      await requestMove('release', { intentId, idempotencyKey: `auto-release:${intentId}`, reason: why });
    } catch (error) {
      log.warn({ err: error, intentId }, 'automatic release failed; the next webhook or sweep retries');
    }
  }

  function isOwner(principal: Principal, row: IntentRow): boolean {
    if (principal.kind === 'diner') return principal.userId === row.account_id;
    if (principal.kind === 'dating') return principal.datingUserId === row.account_id;
    if (principal.kind === 'staff') return principal.restaurantId === row.restaurant_id;
    return false;
  }

  return {
    /** The sandbox gateway when PAYMENTS_DRIVER=sandbox (its approval page and test knobs). */
    sandbox,
    driverName: driver.name,

    /** Subscribes to committed status changes; returns the unsubscribe function. */
    onStatusChange(listener: PaymentStatusListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Subscribes to settled payouts (PAID, FAILED), after commit; returns the unsubscribe function. */
    onPayoutChange(listener: PayoutListener): () => void {
      return payouts.onChange(listener);
    },

    /**
     * Starts an authorisation for money the calling service computed (never the client). The
     * same idempotency key returns the same intent (and finishes its provider call if that timed out).
     */
    async startAuthorisation(input: StartAuthorisationInput): Promise<StartAuthorisationResult> {
      const request = parse(startAuthorisationInput, input);
      let row = await findIntentByKey(db, request.idempotencyKey);
      if (row && (row.account_id !== request.accountId || row.amount_paise !== request.amountPaise || row.purpose !== request.purpose)) {
        throw conflict('That idempotency key was used for another payment');
      }
      if (!row) {
        const id = await db
          .transaction(async (tx) => {
            const intentId = await insertIntent(tx, {
              accountId: request.accountId,
              restaurantId: request.restaurantId,
              purpose: request.purpose,
              reservationId: request.reservationId ?? null,
              datingPlanId: request.datingPlanId ?? null,
              amountPaise: request.amountPaise,
              provider: driver.name,
              idempotencyKey: request.idempotencyKey,
              approveBy: request.approveBy ?? null,
              now: clock.now(),
            });
            if (intentId) {
              await insertProviderCall(tx, {
                intentId,
                kind: 'authorise',
                idempotencyKey: request.idempotencyKey,
                amountPaise: request.amountPaise,
                reason: '',
                now: clock.now(),
              });
            }
            return intentId;
          })
          .catch((error: unknown) => {
            const code = ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;
            if (code === '23503') throw badInput('restaurantId: no such restaurant');
            throw error;
          });
        row = await (id ? findIntent(db, id) : findIntentByKey(db, request.idempotencyKey));
        if (!row) throw new Error('The payment intent vanished after it was written');
      }
      let approvalUrl: string | null = row.provider === 'sandbox' ? `/pay/sandbox/${row.id}` : null;
      if (!row.provider_ref) {
        try {
          const created = await driver.createAuthorisation({
            intentId: row.id,
            amountPaise: row.amount_paise,
            purpose: row.purpose,
            idempotencyKey: row.idempotency_key,
            approveBy: row.approve_by ? asDate(row.approve_by) : undefined,
          });
          await setProviderRef(db, row.id, created.providerRef, clock.now());
          await recordCallOutcome(db, row.idempotency_key, 'accepted', clock.now());
          row = { ...row, provider_ref: created.providerRef };
          approvalUrl = created.approvalUrl;
        } catch (error) {
          if (error instanceof ProviderTimeout) {
            await recordCallOutcome(db, row.idempotency_key, 'timed_out', clock.now());
            throw new AppError('UNAVAILABLE', 'The payment provider did not answer. Please try again.');
          }
          if (error instanceof ProviderRefused) {
            await recordCallOutcome(db, row.idempotency_key, 'refused', clock.now());
            throw new AppError('UNAVAILABLE', 'The payment provider could not start this payment. Please try again later.');
          }
          throw error;
        }
      }
      return { intentId: row.id, status: row.status, approvalUrl, providerRef: row.provider_ref };
    },

    /** Captures up to what was authorised (a fee kept, by default); the rest goes back to the diner. */
    async capture(input: CaptureInput): Promise<PaymentIntent> {
      const request = parse(captureInput, input);
      return requestMove('capture', { ...request, capturePurpose: request.purpose });
    },

    /** Lets the whole authorisation go: nothing is taken. */
    async release(input: ReleaseInput): Promise<PaymentIntent> {
      const request = parse(releaseInput, input);
      return requestMove('release', request);
    },

    /** Returns up to what was captured (one refund per intent). */
    async refund(input: RefundInput): Promise<PaymentIntent> {
      const request = parse(refundInput, input);
      return requestMove('refund', request);
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

    /** The payout of an intent's capture, for a calling service that has done its own access check. */
    readPayoutOfIntent(intentId: string): Promise<PayoutSummary | undefined> {
      return payouts.ofIntent(intentId);
    },

    /** The sweep (run with the app's other sweeps): payouts still PENDING are sent again (payouts.ts). */
    sendPendingPayouts(): Promise<number> {
      return payouts.sendPending();
    },

    /** One intent for a calling service that has done its own access check (the reservation's deposit). */
    readIntent(intentId: string): Promise<PaymentIntent> {
      return getIntentUnchecked(intentId);
    },

    /** One intent, for its diner (or dating account) or the restaurant's staff. */
    async getIntent(intentId: string, principal: Principal): Promise<PaymentIntent> {
      // A moderator pays nothing and owns nothing here: like no sign-in at all (decision 185).
      if (principal.kind === 'anonymous' || principal.kind === 'moderator') requireDiner(principal);
      const row = await findIntent(db, intentId);
      // Someone else's payment answers as if it did not exist.
      if (!row || !isOwner(principal, row)) throw notFound('Payment not found');
      return toIntent(row);
    },

    /** The staff's restaurant's ledger lines posted in `month` (YYYY-MM, Kolkata), as CSV with formula-safe cells. */
    async ledgerCsv(principal: Principal, month: string): Promise<string> {
      requireStaff(principal);
      const [year, monthNumber] = month.split('-').map(Number) as [number, number];
      const next = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}`;
      const rows = await listLedgerLinesOfRestaurant(db, principal.restaurantId, kolkataInstant(`${month}-01`, '00:00'), kolkataInstant(`${next}-01`, '00:00'));
      const header = csvLine(['posted_at', 'posting_id', 'intent_id', 'reservation_id', 'purpose', 'posting', 'account', 'amount_paise']);
      return (
        header +
        rows
          .map((row) => csvLine([iso(row.posted_at), row.posting_id, row.intent_id, row.reservation_id, row.purpose, row.kind, row.account, row.amount_paise]))
          .join('')
      );
    },

    /** The caller's intents: a diner's or dating account's own, or the staff's restaurant's. */
    async listForAccount(principal: Principal): Promise<PaymentIntentList> {
      if (principal.kind === 'anonymous' || principal.kind === 'moderator') requireDiner(principal);
      const rows =
        principal.kind === 'staff'
          ? await listIntentsOfRestaurant(db, principal.restaurantId, LIST_LIMIT)
          : await listIntentsOfAccount(
              db,
              principal.kind === 'diner' ? principal.userId : principal.kind === 'dating' ? principal.datingUserId : '',
              LIST_LIMIT,
            );
      return { intents: rows.map(toIntent) };
    },

    /**
     * A webhook from `provider`: the signature over the raw body is checked first (a bad one is
     * a 400 and changes nothing), then the event is taken once (a duplicate changes nothing) and
     * applied only where the state machine allows it (a late or reordered event changes nothing).
     */
    async receiveWebhook(provider: string, rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<WebhookOutcome> {
      if (provider !== driver.name) throw notFound('Unknown payment provider');
      const reading = driver.readWebhook(rawBody, headers);
      if (!reading.verified) throw badInput('The webhook signature is not valid');
      const result = await db.transaction(async (tx) => {
        const now = clock.now();
        const inboxId = await insertEventOnce(tx, { provider: driver.name, eventId: reading.eventId, eventType: reading.eventType, now });
        if (inboxId === undefined) return { outcome: 'duplicate' as const };
        if (reading.payout) return payouts.applyEvent(tx, inboxId, reading.payout);
        const event = reading.event;
        if (!event) {
          await setEventOutcome(tx, inboxId, null, 'ignored');
          return { outcome: 'skipped' as const };
        }
        const row = await lockIntentByProviderRef(tx, driver.name, event.providerRef);
        if (!row) return { outcome: 'unmatched' as const };
        const transition = transitionFor(row.status, event.type);
        const changes = transition && changesFor(row, event);
        if (!transition || !changes) {
          await setEventOutcome(tx, inboxId, row.id, 'ignored');
          return { outcome: 'ignored' as const };
        }
        const next = await applyTransition(tx, row, transition, changes, event.eventId);
        await setEventOutcome(tx, inboxId, row.id, 'applied');
        return { outcome: 'applied' as const, row: next, transition, change: changeOf(row, transition) };
      });
      if ('payoutChange' in result && result.payoutChange) {
        await payouts.announce(result.payoutChange);
      } else if (result.outcome === 'applied') {
        const { row, transition, change } = result;
        const rejected = await announce(change);
        if (transition.to === 'AUTHORISED') {
          const late = transition.releaseAtOnce || (row.approve_by !== null && clock.now() > asDate(row.approve_by));
          if (late || rejected) await releaseUnwanted(row.id, late ? 'authorised after its owner stopped waiting' : 'rejected by its owner');
        }
        // A capture for a member is confirmed: now the money can go out to them.
        if (transition.to === 'CAPTURED' && row.capture_purpose === 'pay_member') {
          await payouts.sendOfIntent(row.id);
        }
      }
      return result.outcome;
    },

    /**
     * Sends again, with their own keys, the capture, release and refund requests whose answer never
     * came (a timeout, or a stop between recording and sending) and whose intent still waits: the
     * caller who asked may never ask again, and the money must not stay blocked. The provider treats
     * the repeat as the same request. Answers how many were sent.
     */
    async retryUnansweredCalls(): Promise<number> {
      const calls = await listUnansweredCalls(db, new Date(clock.now().getTime() - UNANSWERED_RETRY_AFTER_MS), EXPIRY_BATCH);
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

    /** Intents whose owner stopped waiting for approval become EXPIRED (a later approval is released). */
    async expireOverdue(): Promise<number> {
      const changes = await db.transaction(async (tx) => {
        const overdue = await lockOverdueIntents(tx, clock.now(), EXPIRY_BATCH);
        const moved: PaymentStatusChange[] = [];
        for (const { id } of overdue) {
          const row = await lockIntent(tx, id);
          const transition = row && transitionFor(row.status, 'expire');
          if (!row || !transition) continue;
          await applyTransition(tx, row, transition, {}, 'expiry');
          moved.push(changeOf(row, transition));
        }
        return moved;
      });
      for (const change of changes) await announce(change);
      return changes.length;
    },

    /** The sandbox approval page's view: what a gateway's page shows, nothing about the account. */
    async sandboxPayment(intentId: string): Promise<SandboxPayment> {
      const row = sandbox ? await findIntent(db, intentId) : undefined;
      if (!row || row.provider !== 'sandbox') throw notFound('Payment not found');
      return { intentId: row.id, merchant: row.restaurant_name, amountPaise: row.amount_paise, purpose: row.purpose, state: sandboxState(row.status) };
    },

    /** The diner's answer on the sandbox page: the gateway will say so by webhook. */
    async sandboxDecide(intentId: string, body: SandboxDecision): Promise<SandboxPayment> {
      const row = sandbox ? await findIntent(db, intentId) : undefined;
      if (!sandbox || !row || row.provider !== 'sandbox') throw notFound('Payment not found');
      const open = row.status === 'CREATED' || (row.status === 'FAILED' && body.decision === 'approve');
      if (!open || !row.provider_ref) throw conflict('This payment request is closed');
      if (body.decision === 'approve') sandbox.approve(row.provider_ref, row.amount_paise);
      else sandbox.decline(row.provider_ref, row.amount_paise);
      return {
        intentId: row.id,
        merchant: row.restaurant_name,
        amountPaise: row.amount_paise,
        purpose: row.purpose,
        state: body.decision === 'approve' ? 'approved' : 'declined',
      };
    },
  };
}

/** The columns a provider event sets, or undefined when its amounts do not fit the intent. */
function changesFor(row: IntentRow, event: ProviderEvent): Omit<IntentChanges, 'status'> | undefined {
  switch (event.type) {
    case 'authorised':
      // A gateway authorising another amount than asked is not our payment: it is not booked.
      if (event.amountPaise !== null && event.amountPaise !== row.amount_paise) return undefined;
      return { authorisedPaise: row.amount_paise, providerPaymentRef: event.paymentRef };
    case 'captured': {
      const captured = row.capture_requested_paise ?? event.amountPaise ?? row.authorised_paise;
      if (captured > row.authorised_paise || captured <= 0) return undefined;
      return { capturedPaise: captured };
    }
    case 'refunded': {
      const refunded = row.refund_requested_paise ?? event.amountPaise ?? 0;
      if (refunded > row.captured_paise || refunded <= 0) return undefined;
      return { refundedPaise: refunded };
    }
    case 'failed':
    case 'released':
      return {};
  }
}

function sandboxState(status: PaymentIntentStatus): SandboxPayment['state'] {
  if (status === 'CREATED') return 'open';
  if (status === 'FAILED') return 'declined';
  if (status === 'EXPIRED') return 'closed';
  return status === 'RELEASED' || status === 'REFUNDED' ? 'closed' : 'approved';
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
