import { transitionFor } from '#common/domain/payment-intent.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, notFound } from '#server/errors.ts';
import { changeOf, type IntentTransitions, type PaymentStatusChange } from './intent-transitions.ts';
import type { MoneyRequests } from './money-requests.ts';
import type { PaymentProviderDriver, ProviderEvent } from './payment-provider.ts';
import {
  findIntent,
  insertEventOnce,
  lockIntent,
  lockIntentByProviderRef,
  lockOverdueIntents,
  setEventOutcome,
  type IntentChanges,
  type IntentRow,
} from './payments.repository.ts';
import type { Payouts } from './payouts.ts';

/** What a webhook did. */
export type WebhookOutcome = 'applied' | 'ignored' | 'unmatched' | 'duplicate' | 'skipped';

const EXPIRY_BATCH = 200;

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

/**
 * What the provider says and what time says: signed webhooks that settle an intent (or a payout),
 * intents whose owner stopped waiting for approval, and an authorisation told again to an owner
 * whose listener never ran. The owners hear each committed move through `onStatusChange`.
 */
export function createProviderEvents(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  driver: PaymentProviderDriver,
  intents: IntentTransitions,
  requests: MoneyRequests,
  payouts: Payouts,
) {
  return {
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
        const next = await intents.applyTransition(tx, row, transition, changes, event.eventId);
        await setEventOutcome(tx, inboxId, row.id, 'applied');
        return { outcome: 'applied' as const, row: next, transition, change: changeOf(row, transition) };
      });
      if ('payoutChange' in result && result.payoutChange) {
        await payouts.announce(result.payoutChange);
      } else if (result.outcome === 'applied') {
        const { row, transition, change } = result;
        const rejected = await intents.announce(change);
        if (transition.to === 'AUTHORISED') {
          const late = transition.releaseAtOnce || (row.approve_by !== null && clock.now() > asDate(row.approve_by));
          if (late || rejected) await requests.releaseUnwanted(row.id, late ? 'authorised after its owner stopped waiting' : 'rejected by its owner');
        }
        // A capture for a member is confirmed: now the money can go out to them.
        if (transition.to === 'CAPTURED' && row.capture_purpose === 'pay_member') {
          await payouts.sendOfIntent(row.id);
        }
      }
      return result.outcome;
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
          await intents.applyTransition(tx, row, transition, {}, 'expiry');
          moved.push(changeOf(row, transition));
        }
        return moved;
      });
      for (const change of changes) await intents.announce(change);
      return changes.length;
    },

    /**
     * Tells the owner again of an authorisation it may never have heard (a process that died after
     * payments committed it): an AUTHORISED intent is announced once more, and released when its
     * owner rejects it. Answers false, changing nothing, when the intent is not AUTHORISED.
     */
    async redeliverAuthorisation(intentId: string, why: string): Promise<boolean> {
      const row = await findIntent(db, intentId);
      if (row?.status !== 'AUTHORISED') return false;
      if (await intents.announce(changeOf(row, { from: 'CREATED', to: 'AUTHORISED' }))) await requests.releaseUnwanted(row.id, why);
      return true;
    },
  };
}
