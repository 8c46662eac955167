import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { moneyHeldStatuses, settledPaymentStatuses, type PaymentIntentStatus } from '#common/domain/payment-intent.ts';
import { queryRows } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant } from '#server/test/factories.ts';
import type { SandboxDelivery, SandboxGateway } from './sandbox-gateway.ts';
import type { PaymentsService } from './payments.service.ts';
import { startDeposit, unbalancedPostings } from './payments.test-support.ts';

/**
 * For any sequence of approvals, declines, captures, releases, refunds, credits at table,
 * concurrent capture-and-release, provider timeouts, expiry, and webhooks delivered late, in any
 * order, twice or replayed long after: every posting sums to zero; each intent's ledger agrees
 * with its columns (nothing captured beyond what was authorised); once everything is delivered
 * and retried, each intent rests in exactly one settled status; and a replayed webhook changes
 * nothing.
 */
let t: TestApp;
let payments: PaymentsService;
let sandbox: SandboxGateway;
let dinerId: string;
let restaurantId: string;

beforeAll(async () => {
  t = await createTestApp();
  payments = t.app.services.payments;
  sandbox = payments.sandbox!;
  sandbox.faults.hold = true;
  restaurantId = (await buildRestaurant(t.database.db)).id;
  dinerId = (await buildDiner(t.database.db)).id;
});
afterAll(() => t.close());

const INTENTS = 3;
const AMOUNT = 50_000;

type Command =
  | { kind: 'approve' | 'decline'; intent: number }
  | { kind: 'capture'; intent: number; share: number; freshKey: boolean }
  | { kind: 'release' | 'refund' | 'credit'; intent: number; freshKey: boolean }
  | { kind: 'race'; intent: number }
  | { kind: 'deliver'; pick: number; twice: boolean }
  | { kind: 'replay'; pick: number }
  | { kind: 'timeout'; call: 'capture' | 'release' | 'refund'; applied: boolean }
  | { kind: 'expire' };

const intent = fc.nat(INTENTS - 1);
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'approve' as const, 'decline' as const), intent }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('capture' as const), intent, share: fc.integer({ min: 1, max: 100 }), freshKey: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('release' as const, 'refund' as const, 'credit' as const), intent, freshKey: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('race' as const), intent }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat(), twice: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('timeout' as const),
      call: fc.constantFrom('capture' as const, 'release' as const, 'refund' as const),
      applied: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
);

interface IntentState {
  id: string;
  status: PaymentIntentStatus;
  authorised_paise: number;
  captured_paise: number;
  refunded_paise: number;
  diner_authorised: number;
  restaurant: number;
  diner_funds: number;
  postings: number;
}

async function snapshot(ids: string[]): Promise<IntentState[]> {
  return queryRows<IntentState>(
    t.database.db,
    sql`SELECT p.id, p.status, p.authorised_paise, p.captured_paise, p.refunded_paise,
          coalesce(sum(l.amount_paise) FILTER (WHERE l.account = 'diner_authorised'), 0)::int AS diner_authorised,
          coalesce(sum(l.amount_paise) FILTER (WHERE l.account IN ('restaurant_receivable', 'restaurant_credit_at_table')), 0)::int AS restaurant,
          coalesce(sum(l.amount_paise) FILTER (WHERE l.account = 'diner_funds'), 0)::int AS diner_funds,
          count(DISTINCT g.id)::int AS postings
        FROM payment_intents p LEFT JOIN ledger_postings g ON g.intent_id = p.id LEFT JOIN ledger_lines l ON l.posting_id = g.id
        WHERE p.id = ANY(${`{${ids.join(',')}}`}::uuid[]) GROUP BY p.id ORDER BY p.id`,
  );
}

/** The ledger of each intent says what its columns say, and no posting is unbalanced. */
async function checkInvariants(ids: string[]): Promise<IntentState[]> {
  expect(await unbalancedPostings(t.database.db)).toBe(0);
  const states = await snapshot(ids);
  for (const state of states) {
    const held = moneyHeldStatuses.includes(state.status) ? state.authorised_paise : 0;
    expect(state.captured_paise).toBeLessThanOrEqual(state.authorised_paise);
    expect(state.refunded_paise).toBeLessThanOrEqual(state.captured_paise);
    expect(state.diner_authorised, `${state.status} holds ${held}`).toBe(held);
    expect(state.restaurant).toBe(state.captured_paise - state.refunded_paise);
    // What left the diner's bank is what is held plus what was kept.
    expect(state.diner_funds + held + state.captured_paise - state.refunded_paise).toBe(0);
  }
  return states;
}

/** A refusal the rules allow (wrong status, too much); anything else fails the property. */
async function allowRefusal(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof AppError) || !['CONFLICT', 'BAD_INPUT'].includes(error.code)) throw error;
  }
}

function send(delivery: SandboxDelivery) {
  return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: delivery.headers, payload: delivery.rawBody });
}

describe('payments under any sequence of events', () => {
  it('keeps the ledger balanced, never over-captures, ends every intent in one settled status, and ignores replays', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 30 }), async (commands) => {
        run += 1;
        t.clock.set(TEST_NOW);
        sandbox.resetFaults();
        sandbox.faults.hold = true;
        await sandbox.releaseHeld(); // nothing left over from the last run
        const ids: string[] = [];
        const refs: string[] = [];
        for (let i = 0; i < INTENTS; i++) {
          const started = await startDeposit(payments, dinerId, restaurantId, {
            key: `prop:${run}:${i}:${Date.now()}`,
            amountPaise: AMOUNT,
            approveBy: new Date(Date.parse(TEST_NOW) + 10 * 60_000),
          });
          ids.push(started.intentId);
          refs.push(started.providerRef!);
        }
        const delivered: SandboxDelivery[] = [];
        const keyOf = (kind: string, index: number, fresh: boolean) => `${kind}:${ids[index]}${fresh ? `:${Math.random()}` : ''}`;

        for (const step of commands) {
          switch (step.kind) {
            case 'approve':
              sandbox.approve(refs[step.intent], AMOUNT);
              break;
            case 'decline':
              sandbox.decline(refs[step.intent], AMOUNT);
              break;
            case 'capture':
              await allowRefusal(
                payments.capture({
                  intentId: ids[step.intent],
                  amountPaise: Math.max(1, Math.floor((AMOUNT * step.share) / 100)),
                  reason: 'no-show',
                  idempotencyKey: keyOf('cap', step.intent, step.freshKey),
                }),
              );
              break;
            case 'release':
              await allowRefusal(
                payments.release({ intentId: ids[step.intent], reason: 'cancelled', idempotencyKey: keyOf('rel', step.intent, step.freshKey) }),
              );
              break;
            case 'refund':
              await allowRefusal(
                payments.refund({
                  intentId: ids[step.intent],
                  amountPaise: AMOUNT / 5,
                  reason: 'dispute',
                  idempotencyKey: keyOf('ref', step.intent, step.freshKey),
                }),
              );
              break;
            case 'credit':
              await allowRefusal(payments.creditAtTable({ intentId: ids[step.intent], idempotencyKey: keyOf('cap', step.intent, step.freshKey) }));
              break;
            case 'race': {
              const results = await Promise.allSettled([
                payments.capture({ intentId: ids[step.intent], amountPaise: AMOUNT, reason: 'no-show', idempotencyKey: keyOf('cap', step.intent, true) }),
                payments.release({ intentId: ids[step.intent], reason: 'seated', idempotencyKey: keyOf('rel', step.intent, true) }),
              ]);
              // At most one of two competing requests is accepted.
              expect(results.filter((result) => result.status === 'fulfilled').length).toBeLessThanOrEqual(1);
              for (const result of results) if (result.status === 'rejected') await allowRefusal(Promise.reject(result.reason));
              break;
            }
            case 'deliver': {
              const held = sandbox.heldDeliveries();
              if (held.length === 0) break;
              const index = step.pick % held.length;
              const delivery = held[index];
              await sandbox.releaseHeld([index]);
              delivered.push(delivery);
              if (step.twice) expect((await send(delivery)).json().outcome).toBe('duplicate');
              break;
            }
            case 'replay': {
              if (delivered.length === 0) break;
              const before = await snapshot(ids);
              const answer = await send(delivered[step.pick % delivered.length]);
              expect(answer.statusCode).toBe(200);
              expect(answer.json().outcome).toBe('duplicate');
              expect(await snapshot(ids)).toEqual(before);
              break;
            }
            case 'timeout':
              sandbox.timeOutNext(step.call, { applied: step.applied });
              break;
            case 'expire':
              t.clock.advance(11 * 60_000);
              await payments.expireOverdue();
              break;
          }
          await checkInvariants(ids);
        }

        // Drain: every webhook delivered, every timed-out request retried with its key, every
        // authorisation still open let go, every unanswered request expired.
        sandbox.resetFaults();
        sandbox.faults.hold = true;
        for (let round = 0; round < 6; round++) {
          while (sandbox.heldDeliveries().length > 0) {
            delivered.push(...sandbox.heldDeliveries());
            await sandbox.releaseHeld();
          }
          const states = await snapshot(ids);
          for (const [index, state] of states.entries()) {
            const i = ids.indexOf(state.id);
            if (state.status === 'CAPTURE_PENDING')
              await allowRefusal(payments.capture({ intentId: ids[i], amountPaise: AMOUNT, reason: '', idempotencyKey: keyOf('cap', i, false) }));
            if (state.status === 'RELEASE_PENDING') {
              // Whichever key asked for it: the automatic release's, or the test's.
              await allowRefusal(payments.release({ intentId: ids[i], reason: '', idempotencyKey: `auto-release:${ids[i]}` }));
              await allowRefusal(payments.release({ intentId: ids[i], reason: '', idempotencyKey: keyOf('rel', i, false) }));
            }
            if (state.status === 'REFUND_PENDING')
              await allowRefusal(payments.refund({ intentId: ids[i], amountPaise: AMOUNT / 5, reason: '', idempotencyKey: keyOf('ref', i, false) }));
            if (state.status === 'AUTHORISED')
              await allowRefusal(payments.release({ intentId: ids[i], reason: 'drain', idempotencyKey: `drain:${ids[i]}:${round}:${index}` }));
          }
          t.clock.advance(11 * 60_000);
          await payments.expireOverdue();
          // Requests asked under keys the test cannot name again (a race's): the app's own sweep sends them.
          await payments.retryUnansweredCalls();
        }
        const final = await checkInvariants(ids);
        for (const state of final) expect(settledPaymentStatuses, `intent ended ${state.status}`).toContain(state.status);

        // Replaying every webhook ever delivered changes nothing.
        for (const delivery of delivered) expect((await send(delivery)).json().outcome).toBe('duplicate');
        expect(await snapshot(ids)).toEqual(final);
      }),
      { numRuns: Number(process.env.PAYMENTS_PROPERTY_RUNS ?? 40) },
    );
  }, 600_000);
});
