import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { kolkataInstant } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import { TEST_NOW } from '#server/test/app.ts';
import { call, DAY, matchedPair, plansOf, sandbox, setUpDatePlansFixture, sweep, t } from './date-plans.test-support.ts';

/**
 * Row 3 of the money-and-dates attack (docs/security.md; decision 205) as a property: random
 * sequences of payments, declines, cancels, reports, blocks and the date's own time passing, on one
 * matched pair. After every step the ledger sums to zero, and once either member reported or
 * blocked the other while their plan was open, nobody on it is paid the other's deposit and nobody
 * gets a strike for it.
 */
setUpDatePlansFixture();

type Command =
  | { kind: 'pay'; member: 0 | 1 }
  | { kind: 'decline'; member: 0 | 1 }
  | { kind: 'cancel'; member: 0 | 1 }
  | { kind: 'report'; member: 0 | 1 }
  | { kind: 'block'; member: 0 | 1 }
  | { kind: 'dateOver' };

const member = fc.constantFrom(0 as const, 1 as const);
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), member }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decline' as const), member }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), member }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('report' as const), member }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('block' as const), member }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'dateOver' as const }) },
);

async function planStatus(planId: string): Promise<string> {
  const [row] = await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM dating_plans WHERE id = ${planId}`);
  return row!.status;
}

/** Payouts and strikes the plan led to. */
async function consequences(planId: string): Promise<{ payouts: number; strikes: number }> {
  const [row] = await queryRows<{ payouts: number; strikes: number }>(
    t.database.db,
    sql`SELECT (SELECT count(*)::int FROM payouts po JOIN dating_plan_members m ON m.intent_id = po.source_intent_id WHERE m.plan_id = ${planId}) AS payouts,
               (SELECT count(*)::int FROM dating_strikes WHERE plan_id = ${planId}) AS strikes`,
  );
  return row!;
}

describe('3. A report or block against a date partner leaves the plan open (property)', () => {
  it('never pays a member the other reported or blocked while their plan was open, nor strikes either, and the ledger sums to zero after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 2, maxLength: 6 }), async (commands) => {
        t.clock.set(TEST_NOW);
        // Each run on its own evening: earlier runs' plans would take the evenings' share (decision 209).
        for (const table of ['dating_plans', 'dating_users', 'reservations']) await t.database.db.execute(sql`DELETE FROM ${sql.raw(table)}`);
        const pair = await matchedPair();
        const members = [pair.asha, pair.ravi] as const;
        const [plan] = (await plansOf(pair.asha)).plans;
        let turnedAwayWhileOpen = false;
        for (const step of commands) {
          const actor = step.kind === 'dateOver' ? undefined : members[step.member];
          const other = step.kind === 'dateOver' ? undefined : members[1 - step.member];
          if (step.kind === 'pay') {
            const accepted = await call('POST', `/dating/plans/${plan!.id}/accept`, actor!.cookie);
            if (accepted.statusCode === 200) {
              await call('POST', `/api/payments/sandbox/${accepted.json().payment.intentId}/decision`, {}, { decision: 'approve' });
            }
          } else if (step.kind === 'decline' || step.kind === 'cancel') {
            await call('POST', `/dating/plans/${plan!.id}/${step.kind}`, actor!.cookie);
          } else if (step.kind === 'report' || step.kind === 'block') {
            const open = ['PROPOSED', 'BOOKED'].includes(await planStatus(plan!.id));
            const body = step.kind === 'report' ? { reason: 'HARASSMENT', note: '' } : {};
            const answer = await call('POST', `/dating/suggestions/${other!.id}/${step.kind}`, actor!.cookie, body);
            if (answer.statusCode === 204 && open) turnedAwayWhileOpen = true;
          } else {
            // Past the start and its grace, with nobody marked arrived: the sweep settles what is still booked.
            t.clock.set(kolkataInstant(DAY, '19:20').toISOString());
          }
          await sandbox.settle();
          await sweep();
          expect(await unbalancedPostings(t.database.db)).toBe(0);
          if (turnedAwayWhileOpen) expect(await consequences(plan!.id)).toEqual({ payouts: 0, strikes: 0 });
        }
      }),
      { numRuns: 6, endOnFailure: true },
    );
  }, 120_000);
});
