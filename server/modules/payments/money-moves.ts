import type { PaymentIntentStatus } from '#common/domain/payment-intent.ts';
import type { AppDeps } from '#server/deps.ts';
import type { IntentTransitions } from './intent-transitions.ts';
import type { MoneyRequests } from './money-requests.ts';

/**
 * What an owner decides its money does (decision 191):
 * - `release`: let go what is still blocked;
 * - `keep`: capture `paise` as a fee (0 keeps nothing: the authorisation is let go);
 * - `credit_at_table`: capture the whole amount as credit on the bill;
 * - `pay_member`: capture the whole amount for another member, paid out to them (decision 184);
 * - `waive`: no fee after all: release what is blocked, refund what was captured.
 */
export type MoneyMoveKind = 'release' | 'keep' | 'credit_at_table' | 'pay_member' | 'waive';

/** A money move its owner decided and recorded (a reservation's deposit, a date member's deposit), for payments to take. */
export interface DecidedMoneyMove {
  intentId: string;
  /** The move's own idempotency key: a retry repeats the request, never doubles it. */
  key: string;
  kind: MoneyMoveKind;
  /** `keep`: the paise kept. */
  paise?: number;
  /** `pay_member`: the dating account the payout goes to. */
  toAccountId?: string;
  /** Why, as the provider call records it. */
  reason: string;
}

/** An intent never approved blocked nothing: whatever its owner decided, there is nothing to move. */
const NEVER_APPROVED: readonly PaymentIntentStatus[] = ['CREATED', 'FAILED', 'EXPIRED'];

/**
 * The one executor of decided money moves (decision 191): the deposits code and the date plans
 * record a move with its key in their own transaction, and hand it here after commit. A move
 * payments cannot take yet is left undone, for its owner's sweep to hand over again.
 */
export function createMoneyMoves({ log }: Pick<AppDeps, 'log'>, intents: IntentTransitions, requests: MoneyRequests) {
  /** Asks payments for the move; 'later' when a fee is still on its way (the sweep comes back). */
  async function take(move: DecidedMoneyMove): Promise<'done' | 'later'> {
    const intent = await intents.readIntent(move.intentId);
    if (NEVER_APPROVED.includes(intent.status)) return 'done';
    const request = { intentId: move.intentId, idempotencyKey: move.key, reason: move.reason };
    switch (move.kind) {
      case 'keep':
        if (move.paise) {
          await requests.capture({ ...request, amountPaise: move.paise, purpose: 'keep' });
          return 'done';
        }
        // A policy that keeps nothing lets the whole authorisation go.
        await requests.release(request);
        return 'done';
      case 'release':
        // Nothing blocked any more (released already, or a release under way that payments' own sweep finishes).
        if (intent.status === 'AUTHORISED') await requests.release(request);
        return 'done';
      case 'credit_at_table':
        await requests.creditAtTable({ intentId: move.intentId, idempotencyKey: move.key });
        return 'done';
      case 'pay_member':
        if (!move.toAccountId) throw new Error('A payout move needs the member it goes to');
        await requests.payToMember({ intentId: move.intentId, toAccountId: move.toAccountId, idempotencyKey: move.key });
        return 'done';
      case 'waive':
        if (intent.status === 'AUTHORISED') await requests.release(request);
        else if (intent.status === 'CAPTURED' && intent.capturedPaise > intent.refundedPaise) {
          await requests.refund({ ...request, amountPaise: intent.capturedPaise - intent.refundedPaise });
        } else if (intent.status.endsWith('_PENDING')) return 'later';
        return 'done';
    }
  }

  return {
    /**
     * Takes a decided move and then lets its owner mark it done (`markDone`); never throws: what
     * payments cannot take yet (a busy or refusing provider) stays undone for the owner's sweep.
     */
    async settleMoneyMove(move: DecidedMoneyMove, markDone: () => Promise<void>): Promise<void> {
      try {
        if ((await take(move)) === 'done') await markDone();
      } catch (error) {
        log.warn({ err: error, intentId: move.intentId, move: move.kind }, 'money move not taken yet; the sweep retries');
      }
    },
  };
}
