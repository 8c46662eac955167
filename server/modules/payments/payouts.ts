import { payoutStatusAfter, postingLines, type PayoutStatus } from '#common/domain/payment-intent.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { ProviderRefused, ProviderTimeout, type PaymentProviderDriver, type ProviderPayoutEvent } from './payment-provider.ts';
import {
  claimDuePayouts,
  findPayoutOfIntent,
  insertPosting,
  lockPayout,
  lockPayoutForEvent,
  recordPayoutAttempt,
  setEventOutcome,
  setPayoutStatus,
  type PayoutRow,
} from './payments.repository.ts';

/** What payout listeners hear after a payout settled (committed): PAID, or FAILED with nothing sent. */
export interface PayoutChange {
  payoutId: string;
  sourceIntentId: string;
  toAccountId: string;
  status: PayoutStatus;
}

export type PayoutListener = (change: PayoutChange) => void | Promise<void>;

/** A payout as calling services see it (the dating service, for the member who came). */
export interface PayoutSummary {
  id: string;
  amountPaise: number;
  status: PayoutStatus;
  toAccountId: string;
}

/** A payout left PENDING is sent again once its last attempt is this old (decision 184). */
const PAYOUT_RETRY_AFTER_MS = 60_000;
const PAYOUTS_PER_SWEEP = 200;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One payout per intent, so its key is the intent's: a repeated send is the same payout to the provider. */
export const payoutKeyOf = (intentId: string) => `payout:${intentId}`;

function toPayoutSummary(row: PayoutRow): PayoutSummary {
  return { id: row.id, amountPaise: row.amount_paise, status: row.status, toAccountId: row.to_account_id };
}

function payoutChangeOf(row: PayoutRow, status: PayoutStatus): PayoutChange {
  return { payoutId: row.id, sourceIntentId: row.source_intent_id, toAccountId: row.to_account_id, status };
}

/**
 * Money paid out to a member (a `pay_member` capture, decision 184): sending the payout to the
 * provider, the provider's answers about it, and the sweep that sends again what is still
 * PENDING. The payments service writes the payout row with its capture and calls these; only
 * the payments module uses them.
 */
export function createPayouts(deps: Pick<AppDeps, 'db' | 'clock' | 'log'>, driver: PaymentProviderDriver) {
  const { db, clock, log } = deps;
  const listeners = new Set<PayoutListener>();

  /** Tells every payout listener of a settled payout; a failing listener never undoes it. */
  async function announce(change: PayoutChange): Promise<void> {
    for (const listener of listeners) {
      try {
        await listener(change);
      } catch (error) {
        log.warn({ err: error, payoutId: change.payoutId }, 'payout listener failed');
      }
    }
  }

  /**
   * Sends a payout to the provider, after commit and holding no lock: the provider recognises a
   * repeat by the payout's idempotency key. A timeout leaves it PENDING for the sweep; a clear no
   * makes it FAILED (the money stays in member_payable). Never throws: the webhook that confirmed
   * the capture is applied, and the sweep tries again.
   */
  async function send(payout: PayoutRow): Promise<void> {
    try {
      await trySend(payout);
    } catch (error) {
      log.warn({ err: error, payoutId: payout.id }, 'payout could not be sent; the sweep sends it again');
    }
  }

  async function trySend(payout: PayoutRow): Promise<void> {
    try {
      const sent = await driver.payout({
        payoutId: payout.id,
        amountPaise: payout.amount_paise,
        toAccountId: payout.to_account_id,
        idempotencyKey: payout.idempotency_key,
        // Members' payout accounts are not collected yet (docs/payments.md, Payouts).
        fundAccountRef: null,
      });
      await recordPayoutAttempt(db, payout.id, sent.providerRef, clock.now());
    } catch (error) {
      if (error instanceof ProviderTimeout) {
        // It may or may not have reached the provider: the same key next time pays it at most once.
        await recordPayoutAttempt(db, payout.id, null, clock.now());
        log.warn({ payoutId: payout.id }, 'payout timed out; the sweep sends it again');
        return;
      }
      if (!(error instanceof ProviderRefused)) throw error;
      await recordPayoutAttempt(db, payout.id, null, clock.now());
      const change = await db.transaction(async (tx) => {
        const locked = await lockPayout(tx, payout.id);
        const to = locked && payoutStatusAfter(locked.status, 'failed');
        if (!locked || !to) return undefined;
        await setPayoutStatus(tx, locked.id, to, null, clock.now());
        return payoutChangeOf(locked, to);
      });
      log.warn({ payoutId: payout.id, reason: error.message }, 'payout refused by the provider');
      if (change) await announce(change);
    }
  }

  return {
    announce,

    /** Subscribes to settled payouts; returns the unsubscribe function. */
    onChange(listener: PayoutListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** The payout of an intent's capture, if it has one. */
    async ofIntent(intentId: string): Promise<PayoutSummary | undefined> {
      const row = await findPayoutOfIntent(db, intentId);
      return row && toPayoutSummary(row);
    },

    /** Sends the intent's payout when its capture is confirmed and it is still PENDING. */
    async sendOfIntent(intentId: string): Promise<void> {
      const payout = await findPayoutOfIntent(db, intentId);
      if (payout?.status === 'PENDING') await send(payout);
    },

    /**
     * A provider fact about a payout, inside the webhook's transaction: PENDING → PAID writes the
     * payout posting on the source intent (once: UNIQUE (intent_id, kind)); → FAILED posts nothing.
     */
    async applyEvent(tx: Db, inboxId: number, event: ProviderPayoutEvent) {
      const payoutId = event.payoutId && UUID_PATTERN.test(event.payoutId) ? event.payoutId : null;
      const payout = await lockPayoutForEvent(tx, driver.name, payoutId, event.payoutRef);
      if (!payout) return { outcome: 'unmatched' as const };
      const to = payoutStatusAfter(payout.status, event.type);
      // A processed payout of another amount is not the one we sent: it is not booked.
      if (!to || (to === 'PAID' && event.amountPaise !== payout.amount_paise)) {
        if (payout.status === 'PAID' && event.type === 'reversed') {
          log.error({ payoutId: payout.id }, 'a paid payout was reversed by the bank: the money is back with us and needs a person');
        }
        await setEventOutcome(tx, inboxId, payout.source_intent_id, 'ignored');
        return { outcome: 'ignored' as const };
      }
      const now = clock.now();
      await setPayoutStatus(tx, payout.id, to, event.payoutRef, now);
      if (to === 'PAID') {
        const lines = postingLines('payout', { authorisedPaise: payout.amount_paise, paidOutPaise: payout.amount_paise });
        const posted = await insertPosting(tx, { intentId: payout.source_intent_id, kind: 'payout', source: event.eventId, lines, now });
        if (!posted) throw new Error(`Intent ${payout.source_intent_id} already has a payout posting`);
      }
      await setEventOutcome(tx, inboxId, payout.source_intent_id, 'applied');
      return { outcome: 'applied' as const, payoutChange: payoutChangeOf(payout, to) };
    },

    /**
     * The sweep: sends again, under the same idempotency key, the PENDING payouts whose capture is
     * confirmed and whose last attempt is a minute old (a timeout, or a stop between the capture's
     * webhook and the send). Answers how many were sent.
     */
    async sendPending(): Promise<number> {
      const now = clock.now();
      const due = await claimDuePayouts(db, new Date(now.getTime() - PAYOUT_RETRY_AFTER_MS), now, PAYOUTS_PER_SWEEP);
      for (const payout of due) await send(payout);
      return due.length;
    },
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
