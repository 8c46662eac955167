import type { z } from 'zod';
import type { PaymentIntent, PaymentPurpose } from '#common/contract/payments.ts';
import { postingLines, type PaymentIntentStatus, type PaymentIntentTransition } from '#common/domain/payment-intent.ts';
import { iso, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, notFound } from '#server/errors.ts';
import { findIntent, insertPosting, updateIntent, type IntentChanges, type IntentRow } from './payments.repository.ts';

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

/** Parses a service input with its contract schema; a bad one is the caller's 400. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badInput(result.error.issues.map((issue) => issue.message).join('; '));
  return result.data;
}

export function toIntent(row: IntentRow): PaymentIntent {
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

export function changeOf(row: IntentRow, transition: Pick<PaymentIntentTransition, 'from' | 'to'>): PaymentStatusChange {
  return {
    intentId: row.id,
    purpose: row.purpose,
    reservationId: row.reservation_id,
    datingPlanId: row.dating_plan_id,
    from: transition.from,
    to: transition.to,
  };
}

/**
 * The intent state machine's writes and who hears of them: one transition of a locked intent (its
 * new status, amounts and ledger posting), and the owners' listeners told after commit. Every
 * payments use case moves intents through here.
 */
export function createIntentTransitions({ db, clock, log }: Pick<AppDeps, 'db' | 'clock' | 'log'>) {
  /** Each listener with the purposes it hears (all, when none were named). */
  const listeners = new Map<PaymentStatusListener, readonly PaymentPurpose[] | undefined>();

  return {
    /** Subscribes to committed status changes of intents with one of `purposes` (every intent when omitted); returns the unsubscribe function. */
    onStatusChange(listener: PaymentStatusListener, purposes?: readonly PaymentPurpose[]): () => void {
      listeners.set(listener, purposes);
      return () => listeners.delete(listener);
    },

    /** Tells every listener of a committed move; returns true when one rejected an authorisation. */
    async announce(change: PaymentStatusChange): Promise<boolean> {
      let rejected = false;
      for (const [listener, purposes] of listeners) {
        if (purposes && !purposes.includes(change.purpose)) continue;
        try {
          if ((await listener(change)) === 'reject') rejected = true;
        } catch (error) {
          log.warn({ err: error, intentId: change.intentId }, 'payment status listener failed');
        }
      }
      return rejected;
    },

    /** Applies one transition to a locked intent: new status and amounts, and its posting. */
    async applyTransition(
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
    },

    /** One intent, for a caller that has done its own access check. */
    async readIntent(intentId: string): Promise<PaymentIntent> {
      const row = await findIntent(db, intentId);
      if (!row) throw notFound('Payment not found');
      return toIntent(row);
    },
  };
}

export type IntentTransitions = ReturnType<typeof createIntentTransitions>;
