import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, postRawJson, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import type { SandboxGateway } from './sandbox-gateway.ts';
import type { PaymentStatusChange, PaymentsService } from './payments.service.ts';
import { balances, countRows, DEPOSIT_PAISE, eventOutcomes, startDeposit, unbalancedPostings } from './payments.test-support.ts';

/**
 * Payments through the real app and database with the sandbox gateway: its webhooks go through
 * the signed webhook route, duplicated, held back and reordered on request.
 */
let t: TestApp;
let payments: PaymentsService;
let sandbox: SandboxGateway;
let restaurant: BuiltRestaurant;
let diner: BuiltAccount;
let otherDiner: BuiltAccount;
let staff: BuiltAccount;
let otherStaff: BuiltAccount;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENTS_WEBHOOK_SECRET: 'test-webhook-secret-0123456789' } });
  payments = t.app.services.payments;
  sandbox = payments.sandbox!;
  const db = t.database.db;
  restaurant = await buildRestaurant(db);
  diner = await buildDiner(db);
  otherDiner = await buildDiner(db);
  staff = await buildStaff(db, restaurant.id);
  otherStaff = await buildStaff(db, (await buildRestaurant(db)).id);
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  sandbox.resetFaults();
});

const start = (options: Parameters<typeof startDeposit>[3] = {}) => startDeposit(payments, diner.id, restaurant.id, options);

async function approve(intentId: string) {
  const answer = await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/${intentId}/decision`, payload: { decision: 'approve' } });
  expect(answer.statusCode, answer.body).toBe(200);
  await sandbox.settle();
}

async function authorised() {
  const { intentId } = await start();
  await approve(intentId);
  return intentId;
}

const statusOf = async (intentId: string) =>
  (await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM payment_intents WHERE id = ${intentId}`))[0].status;

describe('authorising through the sandbox', () => {
  it('creates an intent, the diner approves on the sandbox page, and the signed webhook authorises it', async () => {
    const started = await start();
    expect(started).toMatchObject({ status: 'CREATED', approvalUrl: `/pay/sandbox/${started.intentId}` });
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${started.intentId}` });
    expect(page.json()).toEqual({
      intentId: started.intentId,
      merchant: restaurant.name,
      amountPaise: DEPOSIT_PAISE,
      purpose: 'reservation_deposit',
      state: 'open',
    });

    await approve(started.intentId);
    expect(await statusOf(started.intentId)).toBe('AUTHORISED');
    expect(await balances(t.database.db, started.intentId)).toEqual({ diner_authorised: DEPOSIT_PAISE, diner_funds: -DEPOSIT_PAISE });
    expect((await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${started.intentId}` })).json().state).toBe('approved');
  });

  it('returns the same intent for the same idempotency key, and refuses the key for another amount', async () => {
    const first = await start({ key: 'hold:same-key-1' });
    const again = await start({ key: 'hold:same-key-1' });
    expect(again.intentId).toBe(first.intentId);
    await expect(start({ key: 'hold:same-key-1', amountPaise: 1 })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses amounts that are not whole positive paise, and an unknown restaurant', async () => {
    await expect(start({ amountPaise: 0 })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(start({ amountPaise: 10.5 })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(startDeposit(payments, diner.id, diner.id)).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('a decline fails the intent, and the diner may still pay on the same request', async () => {
    const { intentId } = await start();
    await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/${intentId}/decision`, payload: { decision: 'decline' } });
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('FAILED');
    await approve(intentId);
    expect(await statusOf(intentId)).toBe('AUTHORISED');
  });

  it('a provider that times out on create answers 503, and the retry with the same key completes it', async () => {
    sandbox.timeOutNext('authorise', { applied: false });
    await expect(start({ key: 'hold:timeout-create' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const retried = await start({ key: 'hold:timeout-create' });
    expect(retried.approvalUrl).toBe(`/pay/sandbox/${retried.intentId}`);
    await approve(retried.intentId);
    expect(await statusOf(retried.intentId)).toBe('AUTHORISED');
  });
});

describe('who sees a payment', () => {
  it('its diner and the restaurant’s staff; anyone else gets 404, and no token 401', async () => {
    const intentId = await authorised();
    const get = (token?: string) => t.app.inject({ method: 'GET', url: `/api/payments/intents/${intentId}`, headers: token ? bearer(token) : {} });
    expect((await get(diner.token)).json()).toMatchObject({ id: intentId, status: 'AUTHORISED', amountPaise: DEPOSIT_PAISE });
    expect((await get(staff.token)).statusCode).toBe(200);
    expect((await get(otherDiner.token)).statusCode).toBe(404);
    expect((await get(otherStaff.token)).statusCode).toBe(404);
    expect((await get()).statusCode).toBe(401);
    const mine = await t.app.inject({ method: 'GET', url: '/api/payments/intents', headers: bearer(diner.token) });
    expect(mine.json().intents.map((intent: { id: string }) => intent.id)).toContain(intentId);
    const theirs = await t.app.inject({ method: 'GET', url: '/api/payments/intents', headers: bearer(otherDiner.token) });
    expect(theirs.json().intents).toEqual([]);
  });
});

describe('webhooks', () => {
  it('refuses a bad signature with 400 and changes nothing', async () => {
    const { intentId } = await start();
    sandbox.faults.hold = true;
    await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/${intentId}/decision`, payload: { decision: 'approve' } });
    const [delivery] = sandbox.heldDeliveries();
    const eventsBefore = await countRows(t.database.db, 'payment_events');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/sandbox',
      headers: { ...delivery.headers, 'x-sandbox-signature': 'f'.repeat(64) },
      payload: delivery.rawBody,
    });
    expect(forged.statusCode).toBe(400);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/sandbox',
      headers: delivery.headers,
      payload: delivery.rawBody.replace(String(DEPOSIT_PAISE), '1'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(await countRows(t.database.db, 'payment_events')).toBe(eventsBefore);
    expect(await statusOf(intentId)).toBe('CREATED');
    // The genuine one still works.
    await sandbox.releaseHeld();
    expect(await statusOf(intentId)).toBe('AUTHORISED');
  });

  it('takes a duplicated webhook once: the copy answers 200 and changes nothing', async () => {
    const { intentId } = await start();
    sandbox.faults.hold = true;
    sandbox.faults.duplicate = true;
    await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/${intentId}/decision`, payload: { decision: 'approve' } });
    const [first, copy] = sandbox.heldDeliveries();
    expect(copy.rawBody).toBe(first.rawBody);
    const send = (delivery: typeof first) =>
      t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: delivery.headers, payload: delivery.rawBody });
    expect((await send(first)).json()).toEqual({ ok: true, outcome: 'applied' });
    expect((await send(copy)).json()).toEqual({ ok: true, outcome: 'duplicate' });
    expect(await countRows(t.database.db, 'ledger_postings', intentId)).toBe(1);
  });

  it('resolves reordered webhooks by the state machine: a late authorised after captured changes nothing', async () => {
    const intentId = await authorised();
    sandbox.faults.hold = true;
    await payments.capture({ intentId, amountPaise: DEPOSIT_PAISE, reason: 'no-show', idempotencyKey: `cap:${intentId}` });
    // The bank's authorisation is announced again, after the capture (another event id).
    const row = (await queryRows<{ provider_ref: string }>(t.database.db, sql`SELECT provider_ref FROM payment_intents WHERE id = ${intentId}`))[0];
    sandbox.approve(row.provider_ref, DEPOSIT_PAISE);
    await sandbox.releaseHeld();
    expect(await statusOf(intentId)).toBe('CAPTURED');
    const outcomes = await eventOutcomes(t.database.db, intentId);
    expect(outcomes).toEqual([
      { event_type: 'payment.authorized', outcome: 'applied' },
      { event_type: 'payment.captured', outcome: 'applied' },
      { event_type: 'payment.authorized', outcome: 'ignored' },
    ]);
    expect(await balances(t.database.db, intentId)).toEqual({ restaurant_receivable: DEPOSIT_PAISE, diner_funds: -DEPOSIT_PAISE });
  });

  it('answers 404 for a provider that is not the one configured', async () => {
    const answer = await postRawJson(t.app, '/api/payments/webhooks/razorpay', '{}');
    expect(answer.statusCode).toBe(404);
  });
});

describe('capture, release, refund, credit at table', () => {
  it('a partial capture keeps the fee and gives the rest back in the same posting', async () => {
    const intentId = await authorised();
    const pending = await payments.capture({ intentId, amountPaise: 20_000, reason: 'late cancel', idempotencyKey: `cap:${intentId}` });
    expect(pending.status).toBe('CAPTURE_PENDING');
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('CAPTURED');
    expect(await balances(t.database.db, intentId)).toEqual({ restaurant_receivable: 20_000, diner_funds: -20_000 });
  });

  it('refuses to capture more than was authorised', async () => {
    const intentId = await authorised();
    await expect(payments.capture({ intentId, amountPaise: DEPOSIT_PAISE + 1, reason: '', idempotencyKey: `cap:${intentId}` })).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    expect(await statusOf(intentId)).toBe('AUTHORISED');
  });

  it('a release gives everything back; a refund returns part of a capture', async () => {
    const released = await authorised();
    await payments.release({ intentId: released, reason: 'cancelled in time', idempotencyKey: `rel:${released}` });
    await sandbox.settle();
    expect(await statusOf(released)).toBe('RELEASED');
    expect(await balances(t.database.db, released)).toEqual({});

    const refunded = await authorised();
    await payments.capture({ intentId: refunded, amountPaise: DEPOSIT_PAISE, reason: 'no-show', idempotencyKey: `cap:${refunded}` });
    await sandbox.settle();
    await payments.refund({ intentId: refunded, amountPaise: 10_000, reason: 'dispute upheld', idempotencyKey: `ref:${refunded}` });
    await sandbox.settle();
    expect(await statusOf(refunded)).toBe('REFUNDED');
    expect(await balances(t.database.db, refunded)).toEqual({ restaurant_receivable: 40_000, diner_funds: -40_000 });
    await expect(payments.refund({ intentId: refunded, amountPaise: 1, reason: '', idempotencyKey: `ref2:${refunded}` })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('credit at table captures the whole deposit onto the bill', async () => {
    const intentId = await authorised();
    await payments.creditAtTable({ intentId, idempotencyKey: `seat:${intentId}` });
    await sandbox.settle();
    const intent = await payments.getIntent(intentId, { kind: 'diner', userId: diner.id });
    expect(intent).toMatchObject({ status: 'CAPTURED', capturePurpose: 'credit_at_table', capturedPaise: DEPOSIT_PAISE });
    expect(await balances(t.database.db, intentId)).toEqual({ restaurant_credit_at_table: DEPOSIT_PAISE, diner_funds: -DEPOSIT_PAISE });
  });

  it('the same idempotency key captures once', async () => {
    const intentId = await authorised();
    const request = { intentId, amountPaise: DEPOSIT_PAISE, reason: 'no-show', idempotencyKey: `cap:${intentId}` };
    await payments.capture(request);
    await payments.capture(request);
    await sandbox.settle();
    await payments.capture(request);
    await sandbox.settle();
    expect(await countRows(t.database.db, 'provider_calls', intentId)).toBe(2); // the authorisation and one capture
    expect(await countRows(t.database.db, 'ledger_postings', intentId)).toBe(2);
    await expect(payments.release({ intentId, reason: '', idempotencyKey: `cap:${intentId}` })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('concurrent capture and release: exactly one wins', async () => {
    const intentId = await authorised();
    const results = await Promise.allSettled([
      payments.capture({ intentId, amountPaise: DEPOSIT_PAISE, reason: 'no-show', idempotencyKey: `cap:${intentId}` }),
      payments.release({ intentId, reason: 'seated', idempotencyKey: `rel:${intentId}` }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
    await sandbox.settle();
    expect(['CAPTURED', 'RELEASED']).toContain(await statusOf(intentId));
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});

describe('a provider that times out', () => {
  it('leaves the capture pending; the retry with the same key settles it', async () => {
    const intentId = await authorised();
    sandbox.timeOutNext('capture', { applied: false });
    const request = { intentId, amountPaise: DEPOSIT_PAISE, reason: 'no-show', idempotencyKey: `cap:${intentId}` };
    expect((await payments.capture(request)).status).toBe('CAPTURE_PENDING');
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('CAPTURE_PENDING');
    const [call] = await queryRows<{ outcome: string }>(
      t.database.db,
      sql`SELECT outcome FROM provider_calls WHERE idempotency_key = ${request.idempotencyKey}`,
    );
    expect(call.outcome).toBe('timed_out');
    await payments.capture(request);
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('CAPTURED');
    expect(await balances(t.database.db, intentId)).toEqual({ restaurant_receivable: DEPOSIT_PAISE, diner_funds: -DEPOSIT_PAISE });
  });

  it('sends a request whose caller never asks again once more, with its own key, from the sweep', async () => {
    const intentId = await authorised();
    sandbox.timeOutNext('capture', { applied: false });
    // A key nobody will repeat: the caller that asked is gone.
    await payments.capture({ intentId, amountPaise: DEPOSIT_PAISE, reason: 'no-show', idempotencyKey: `cap:${intentId}:once` });
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('CAPTURE_PENDING');
    // Not at once: a request may still be on its way in another instance.
    await payments.retryUnansweredCalls();
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('CAPTURE_PENDING');
    t.clock.advance(61_000);
    await payments.retryUnansweredCalls();
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('CAPTURED');
    expect(await balances(t.database.db, intentId)).toEqual({ restaurant_receivable: DEPOSIT_PAISE, diner_funds: -DEPOSIT_PAISE });
    const calls = await queryRows<{ outcome: string; attempts: number }>(
      t.database.db,
      sql`SELECT outcome, attempts FROM provider_calls WHERE intent_id = ${intentId} AND kind = 'capture'`,
    );
    expect(calls).toEqual([{ outcome: 'accepted', attempts: 2 }]);
  });

  it('leaves the release pending; the provider’s webhook settles it without a retry', async () => {
    const intentId = await authorised();
    sandbox.timeOutNext('release', { applied: true });
    expect((await payments.release({ intentId, reason: 'cancelled', idempotencyKey: `rel:${intentId}` })).status).toBe('RELEASE_PENDING');
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('RELEASED');
  });
});

describe('an approval that comes too late', () => {
  it('is released at once when it arrives after approveBy, and never reaches AUTHORISED for good', async () => {
    const { intentId } = await start({ approveBy: new Date(Date.parse(TEST_NOW) + 10 * 60_000) });
    t.clock.advance(11 * 60_000);
    await approve(intentId);
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('RELEASED');
    expect(await balances(t.database.db, intentId)).toEqual({});
  });

  it('is released when the owner rejects it (the hold expired), and the owner hears each move', async () => {
    const heard: PaymentStatusChange[] = [];
    const stop = payments.onStatusChange((change) => {
      heard.push(change);
      return change.to === 'AUTHORISED' ? 'reject' : undefined;
    });
    try {
      const { intentId } = await start();
      await approve(intentId);
      await sandbox.settle();
      expect(await statusOf(intentId)).toBe('RELEASED');
      expect(heard.filter((change) => change.intentId === intentId).map((change) => `${change.from}>${change.to}`)).toEqual([
        'CREATED>AUTHORISED',
        'AUTHORISED>RELEASE_PENDING',
        'RELEASE_PENDING>RELEASED',
      ]);
      expect(heard[0].reservationId).toEqual(expect.any(String));
    } finally {
      stop();
    }
  });

  it('expires an intent nobody approved in time, and releases an authorisation that still arrives', async () => {
    const { intentId } = await start({ approveBy: new Date(Date.parse(TEST_NOW) + 60_000) });
    t.clock.advance(2 * 60_000);
    expect(await payments.expireOverdue()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(intentId)).toBe('EXPIRED');
    expect((await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/${intentId}/decision`, payload: { decision: 'approve' } })).statusCode).toBe(409);
    const [row] = await queryRows<{ provider_ref: string }>(t.database.db, sql`SELECT provider_ref FROM payment_intents WHERE id = ${intentId}`);
    sandbox.approve(row.provider_ref, DEPOSIT_PAISE);
    await sandbox.settle();
    await sandbox.settle();
    expect(await statusOf(intentId)).toBe('RELEASED');
  });
});

describe('the ledger', () => {
  it('refuses an unbalanced posting at commit (the deferred trigger)', async () => {
    const intentId = await authorised();
    await expect(
      t.database.db.transaction(async (tx) => {
        const [posting] = await queryRows<{ id: number }>(
          tx,
          sql`INSERT INTO ledger_postings (intent_id, kind, source, created_at) VALUES (${intentId}, 'refund', 'test', now()) RETURNING id`,
        );
        await tx.execute(sql`INSERT INTO ledger_lines (posting_id, account, amount_paise) VALUES (${posting.id}, 'diner_funds', 100)`);
      }),
    ).rejects.toThrow();
    expect(await countRows(t.database.db, 'ledger_postings', intentId)).toBe(1);
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});
