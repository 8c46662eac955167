import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, type BuiltRestaurant } from '#server/test/factories.ts';
import { ProviderRefused, signBody } from './payment-provider.ts';
import { SANDBOX_EVENT_ID_HEADER, SANDBOX_SIGNATURE_HEADER, SandboxGateway } from './sandbox-gateway.ts';
import { createPaymentsService, type PaymentStatusChange, type PaymentsService } from './payments.service.ts';
import type { PayoutChange } from './payouts.ts';
import { balances, countRows, eventOutcomes, unbalancedPostings } from './payments.test-support.ts';

/**
 * Payouts (decision 184) on the real database with the sandbox gateway: a flake's dating deposit
 * is captured for the member who came and paid out to them, every answer arriving as a signed
 * webhook read by `receiveWebhook` (signature, inbox, state machine).
 *
 * Payments is built alone here, on the test app's database and deps: in the app, the date plans
 * (rightly) release a dating deposit whose plan does not exist, and these intents have random plan
 * ids (payment_intents has no foreign key to dating_plans). The HTTP webhook route in front of
 * receiveWebhook is covered by payments.db.test.ts.
 */
const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
/** ₹300, the dating deposit. */
const DATE_DEPOSIT_PAISE = 30_000;

let t: TestApp;
let payments: PaymentsService;
let sandbox: SandboxGateway;
let restaurant: BuiltRestaurant;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRET } });
  sandbox = new SandboxGateway(WEBHOOK_SECRET);
  payments = createPaymentsService(t.app.deps, sandbox);
  sandbox.connect((delivery) => payments.receiveWebhook('sandbox', delivery.rawBody, delivery.headers));
  restaurant = await buildRestaurant(t.database.db);
});
afterAll(async () => {
  sandbox.disconnect();
  await t.close();
});
beforeEach(() => {
  t.clock.set(TEST_NOW);
  sandbox.resetFaults();
  vi.restoreAllMocks();
});

/** A member's dating deposit (payment_intents has no foreign key to dating_plans or to the account). */
async function startDateDeposit() {
  const flake = randomUUID();
  const started = await payments.startAuthorisation({
    accountId: flake,
    restaurantId: restaurant.id,
    datingPlanId: randomUUID(),
    amountPaise: DATE_DEPOSIT_PAISE,
    purpose: 'dating_deposit',
    idempotencyKey: `dating-deposit:${randomUUID()}`,
  });
  return started.intentId;
}

/** The member approves on the sandbox page; the bank's answer comes back as a signed webhook. */
async function approve(intentId: string) {
  expect((await payments.sandboxDecide(intentId, { decision: 'approve' })).state).toBe('approved');
  await sandbox.settle();
}

async function authorisedDateDeposit() {
  const intentId = await startDateDeposit();
  await approve(intentId);
  return intentId;
}

const intentOf = async (intentId: string) =>
  (
    await queryRows<{ status: string; capture_purpose: string | null; captured_paise: number }>(
      t.database.db,
      sql`SELECT status, capture_purpose, captured_paise FROM payment_intents WHERE id = ${intentId}`,
    )
  )[0];

const payoutsOf = (intentId: string) =>
  queryRows<{
    id: string;
    to_account_id: string;
    amount_paise: number;
    status: string;
    idempotency_key: string;
    attempts: number;
    provider_ref: string | null;
  }>(
    t.database.db,
    sql`SELECT id, to_account_id, amount_paise, status, idempotency_key, attempts, provider_ref FROM payouts WHERE source_intent_id = ${intentId}`,
  );

const postingsOf = (intentId: string) =>
  queryRows<{ kind: string; account: string; amount_paise: number }>(
    t.database.db,
    sql`SELECT p.kind, l.account, l.amount_paise FROM ledger_postings p JOIN ledger_lines l ON l.posting_id = p.id
        WHERE p.intent_id = ${intentId} ORDER BY p.id, l.account`,
  );

const payoutPostings = async (intentId: string) =>
  (
    await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM ledger_postings WHERE intent_id = ${intentId} AND kind = 'payout'`)
  )[0].count;

describe('paying a flake’s deposit to the member who came', () => {
  it('captures the authorisation for the member, pays it out once, and the ledger nets to nothing for the intent', async () => {
    const heardPayouts: PayoutChange[] = [];
    const heardIntents: PaymentStatusChange[] = [];
    const stopPayouts = payments.onPayoutChange((change) => void heardPayouts.push(change));
    const stopIntents = payments.onStatusChange((change) => void heardIntents.push(change));
    try {
      const intentId = await authorisedDateDeposit();
      const member = randomUUID();
      const answered = await payments.payToMember({ intentId, toAccountId: member, idempotencyKey: `date-settle:${intentId}` });
      expect(answered.intent).toMatchObject({ status: 'CAPTURE_PENDING', capturePurpose: 'pay_member' });
      expect(answered.payout).toMatchObject({ status: 'PENDING', toAccountId: member, amountPaise: DATE_DEPOSIT_PAISE });
      await sandbox.settle();

      expect(await intentOf(intentId)).toEqual({ status: 'CAPTURED', capture_purpose: 'pay_member', captured_paise: DATE_DEPOSIT_PAISE });
      const [payout, ...others] = await payoutsOf(intentId);
      expect(others).toEqual([]);
      expect(payout).toMatchObject({
        to_account_id: member,
        amount_paise: DATE_DEPOSIT_PAISE,
        status: 'PAID',
        idempotency_key: `payout:${intentId}`,
        attempts: 1,
        provider_ref: `sbx_pout_${payout.id}`,
      });
      expect(await payments.readPayoutOfIntent(intentId)).toEqual({ id: payout.id, amountPaise: DATE_DEPOSIT_PAISE, status: 'PAID', toAccountId: member });

      // Each posting, with its signs (positive = debit, decision 111):
      // - authorise: the flake's ₹300 is blocked for us (diner_authorised +) and leaves their side
      //   of the world outside us (diner_funds −);
      // - capture for the member: the block becomes what we owe the member who came (member_payable +);
      // - payout: what we owe them leaves us (member_payable −) for the world outside us again, now
      //   on the other member's bank (diner_funds +).
      expect(await postingsOf(intentId)).toEqual([
        { kind: 'authorise', account: 'diner_authorised', amount_paise: DATE_DEPOSIT_PAISE },
        { kind: 'authorise', account: 'diner_funds', amount_paise: -DATE_DEPOSIT_PAISE },
        { kind: 'capture', account: 'diner_authorised', amount_paise: -DATE_DEPOSIT_PAISE },
        { kind: 'capture', account: 'member_payable', amount_paise: DATE_DEPOSIT_PAISE },
        { kind: 'payout', account: 'diner_funds', amount_paise: DATE_DEPOSIT_PAISE },
        { kind: 'payout', account: 'member_payable', amount_paise: -DATE_DEPOSIT_PAISE },
      ]);
      // Over the whole flow every account nets to 0: member_payable because we no longer owe the
      // member anything, diner_funds because the money outside us only changed hands (−₹300 on
      // the flake's side, +₹300 on the other member's), and nothing stays blocked. `balances`
      // leaves out accounts at 0, so an empty object is all of them at 0.
      expect(await balances(t.database.db, intentId)).toEqual({});
      expect(await unbalancedPostings(t.database.db)).toBe(0);

      expect(heardPayouts).toEqual([{ payoutId: payout.id, sourceIntentId: intentId, toAccountId: member, status: 'PAID' }]);
      // The intent's listeners hear the capture as before, and nothing about the payout.
      expect(heardIntents.filter((change) => change.intentId === intentId).map((change) => `${change.from}>${change.to}`)).toEqual([
        'CREATED>AUTHORISED',
        'AUTHORISED>CAPTURE_PENDING',
        'CAPTURE_PENDING>CAPTURED',
      ]);
    } finally {
      stopPayouts();
      stopIntents();
    }
  });

  it('is done once: the same key answers the same, a duplicated webhook changes nothing, another member or key is refused', async () => {
    const intentId = await authorisedDateDeposit();
    const member = randomUUID();
    const request = { intentId, toAccountId: member, idempotencyKey: `date-settle:${intentId}` };
    // Every webhook from here on arrives twice with the same event id (the capture's and the payout's).
    sandbox.faults.duplicate = true;
    const first = await payments.payToMember(request);
    const again = await payments.payToMember(request);
    expect(again.payout.id).toBe(first.payout.id);
    await sandbox.settle();
    const afterSettle = await payments.payToMember(request);
    await sandbox.settle();
    expect(afterSettle.payout).toEqual({ id: first.payout.id, amountPaise: DATE_DEPOSIT_PAISE, status: 'PAID', toAccountId: member });
    expect(afterSettle.intent.status).toBe('CAPTURED');

    expect(await payoutsOf(intentId)).toHaveLength(1);
    expect(await countRows(t.database.db, 'provider_calls', intentId)).toBe(2); // the authorisation and one capture
    expect(await countRows(t.database.db, 'ledger_postings', intentId)).toBe(3); // authorise, capture, payout
    expect(await payoutPostings(intentId)).toBe(1);
    const outcomes = await eventOutcomes(t.database.db, intentId);
    // The copies never reach the intent: each is recognised in the inbox and answered `duplicate`.
    expect(outcomes).toEqual([
      { event_type: 'payment.authorized', outcome: 'applied' },
      { event_type: 'payment.captured', outcome: 'applied' },
      { event_type: 'payout.processed', outcome: 'applied' },
    ]);
    expect(await balances(t.database.db, intentId)).toEqual({});

    await expect(payments.payToMember({ ...request, toAccountId: randomUUID() })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(payments.payToMember({ ...request, idempotencyKey: `date-settle:${intentId}:again` })).rejects.toMatchObject({ code: 'CONFLICT' });
    // Money paid to a member is theirs: it is not refunded.
    await expect(
      payments.refund({ intentId, amountPaise: DATE_DEPOSIT_PAISE, reason: 'changed our mind', idempotencyKey: `ref:${intentId}` }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await payoutPostings(intentId)).toBe(1);
  });

  it('sends a payout whose first send timed out again from the sweep, with the same key, and pays it once', async () => {
    const intentId = await authorisedDateDeposit();
    const sent = vi.spyOn(sandbox, 'payout');
    sandbox.timeOutNext('payout', { applied: false });
    await payments.payToMember({ intentId, toAccountId: randomUUID(), idempotencyKey: `date-settle:${intentId}` });
    await sandbox.settle();
    expect((await intentOf(intentId)).status).toBe('CAPTURED');
    expect(await payoutsOf(intentId)).toMatchObject([{ status: 'PENDING', attempts: 1, provider_ref: null }]);
    expect(await payoutPostings(intentId)).toBe(0);

    // Not at once: the first send may still be on its way.
    expect(await payments.sendPendingPayouts()).toBe(0);
    t.clock.advance(61_000);
    expect(await payments.sendPendingPayouts()).toBe(1);
    await sandbox.settle();

    expect(sent.mock.calls.map(([request]) => request.idempotencyKey)).toEqual([`payout:${intentId}`, `payout:${intentId}`]);
    const [payout] = await payoutsOf(intentId);
    expect(payout).toMatchObject({ status: 'PAID', attempts: 2 });
    expect(sent.mock.calls.map(([request]) => request.payoutId)).toEqual([payout.id, payout.id]);
    expect(await payoutPostings(intentId)).toBe(1);
    expect(await balances(t.database.db, intentId)).toEqual({});

    // A paid payout is never sent again.
    t.clock.advance(61_000);
    expect(await payments.sendPendingPayouts()).toBe(0);
    expect(sent).toHaveBeenCalledTimes(2);
  });

  it('marks a payout the provider failed FAILED, posts nothing, and keeps the money owed to the member', async () => {
    const intentId = await authorisedDateDeposit();
    const member = randomUUID();
    const heard: PayoutChange[] = [];
    const stop = payments.onPayoutChange((change) => void heard.push(change));
    try {
      sandbox.timeOutNext('payout', { applied: false });
      await payments.payToMember({ intentId, toAccountId: member, idempotencyKey: `date-settle:${intentId}` });
      await sandbox.settle();
      const [payout] = await payoutsOf(intentId);
      // RazorpayX's payout.failed for it, signed as the gateway signs, naming our payout in reference_id.
      const rawBody = JSON.stringify({
        entity: 'event',
        event: 'payout.failed',
        contains: ['payout'],
        payload: { payout: { entity: { id: 'pout_failed_1', entity: 'payout', amount: DATE_DEPOSIT_PAISE, status: 'failed', reference_id: payout.id } } },
        created_at: 1_795_000_000,
      });
      const headers = {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signBody(rawBody, WEBHOOK_SECRET),
        [SANDBOX_EVENT_ID_HEADER]: `evt_${randomUUID()}`,
      };
      const send = () => payments.receiveWebhook('sandbox', rawBody, headers);
      expect(await send()).toBe('applied');
      expect(await send()).toBe('duplicate');
      // A forged one is refused before anything is read.
      await expect(payments.receiveWebhook('sandbox', rawBody, { ...headers, [SANDBOX_SIGNATURE_HEADER]: 'f'.repeat(64) })).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });

      expect(await payments.readPayoutOfIntent(intentId)).toMatchObject({ status: 'FAILED', toAccountId: member });
      expect(await payoutPostings(intentId)).toBe(0);
      expect(await balances(t.database.db, intentId)).toEqual({ member_payable: DATE_DEPOSIT_PAISE, diner_funds: -DATE_DEPOSIT_PAISE });
      expect(heard).toEqual([{ payoutId: payout.id, sourceIntentId: intentId, toAccountId: member, status: 'FAILED' }]);
      // The sweep sends only PENDING payouts.
      t.clock.advance(61_000);
      expect(await payments.sendPendingPayouts()).toBe(0);
    } finally {
      stop();
    }
  });

  it('marks a payout the provider refuses (Razorpay without the member’s payout account) FAILED at once, and never re-sends it', async () => {
    const intentId = await authorisedDateDeposit();
    const sent = vi.spyOn(sandbox, 'payout').mockRejectedValue(new ProviderRefused('The member has no payout account yet'));
    const answered = await payments.payToMember({ intentId, toAccountId: randomUUID(), idempotencyKey: `date-settle:${intentId}` });
    await sandbox.settle();
    expect((await intentOf(intentId)).status).toBe('CAPTURED');
    expect(await payoutsOf(intentId)).toMatchObject([{ id: answered.payout.id, status: 'FAILED', attempts: 1 }]);
    expect(await balances(t.database.db, intentId)).toEqual({ member_payable: DATE_DEPOSIT_PAISE, diner_funds: -DATE_DEPOSIT_PAISE });
    t.clock.advance(61_000);
    expect(await payments.sendPendingPayouts()).toBe(0);
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('refuses with a conflict an intent that is not AUTHORISED, or not a dating deposit, and writes no payout', async () => {
    const created = await startDateDeposit();
    await expect(payments.payToMember({ intentId: created, toAccountId: randomUUID(), idempotencyKey: `date-settle:${created}` })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await intentOf(created)).status).toBe('CREATED');
    expect(await payoutsOf(created)).toEqual([]);

    const released = await authorisedDateDeposit();
    await payments.release({ intentId: released, reason: 'both came', idempotencyKey: `rel:${released}` });
    await sandbox.settle();
    await expect(payments.payToMember({ intentId: released, toAccountId: randomUUID(), idempotencyKey: `date-settle:${released}` })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await intentOf(released)).status).toBe('RELEASED');
    expect(await payoutsOf(released)).toEqual([]);

    const { intentId: reservationDeposit } = await payments.startAuthorisation({
      accountId: randomUUID(),
      restaurantId: restaurant.id,
      reservationId: randomUUID(),
      amountPaise: DATE_DEPOSIT_PAISE,
      purpose: 'reservation_deposit',
      idempotencyKey: `hold:${randomUUID()}`,
    });
    await approve(reservationDeposit);
    await expect(
      payments.payToMember({ intentId: reservationDeposit, toAccountId: randomUUID(), idempotencyKey: `date-settle:${reservationDeposit}` }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await intentOf(reservationDeposit)).status).toBe('AUTHORISED');
    expect(await payoutsOf(reservationDeposit)).toEqual([]);

    await expect(payments.payToMember({ intentId: randomUUID(), toAccountId: randomUUID(), idempotencyKey: 'date-settle:nobody' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(payments.payToMember({ intentId: created, toAccountId: 'not-a-uuid', idempotencyKey: 'date-settle:bad' })).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
  });
});
