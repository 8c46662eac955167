import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import type { SandboxGateway } from '#server/modules/payments/sandbox-gateway.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, TEST_TOMORROW, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The deposits' tests' world (deposits.db.test.ts, money-sentences.db.test.ts,
 * server/security-money-dates.db.test.ts, deposits-red-team.db.test.ts,
 * deposits-waivers-strikes.property.db.test.ts): a fresh app on a real database with the sandbox
 * gateway's signed webhooks, one restaurant asking a deposit a guest under the policy given, and
 * its staff. Call setUpDepositsFixture() once per test file; the bindings below are then live.
 * Each test starts at TEST_NOW (10:00 in Kolkata on the 23rd) with the sandbox's faults cleared.
 */
export let t: TestApp;
export let sandbox: SandboxGateway;
/** The restaurant that asks the deposit. */
export let place: BuiltRestaurant;
/** Its staff. */
export let staff: BuiltAccount;

export function setUpDepositsFixture(options: {
  restaurantName: string;
  perCoverPaise: number;
  lateCancelKeepPercent: number;
  noShowKeepPercent: number;
  env?: Record<string, string>;
}): void {
  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENTS_WEBHOOK_SECRET: 'test-webhook-secret-0123456789', ...options.env } });
    sandbox = t.app.services.payments.sandbox!;
    place = await buildRestaurant(t.database.db, { name: options.restaurantName });
    staff = await buildStaff(t.database.db, place.id);
    const policy = {
      defaultCharge: { kind: 'deposit', perCoverPaise: options.perCoverPaise },
      rules: [],
      freeCancelMinutes: 120,
      lateCancelKeepPercent: options.lateCancelKeepPercent,
      noShowKeepPercent: options.noShowKeepPercent,
    };
    const saved = await call('PUT', '/api/admin/deposit-policy', staff.token, policy);
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.set(TEST_NOW);
    sandbox.resetFaults();
  });
}

export function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

/** Held at the restaurant tomorrow and Pay pressed: the hold and its payment, not yet decided. */
export async function heldAndPayPressed(time: string, diner: BuiltAccount, partySize = 2) {
  const held = await requestHold(t.app, diner.token, { restaurantSlug: place.slug, date: TEST_TOMORROW, time, partySize });
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json<{ id: string }>().id;
  const confirm = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { id, intentId: confirm.json().payment.intentId as string };
}

/** Held at the restaurant tomorrow, Pay pressed and approved on the sandbox page: the booking is PENDING. */
export async function paidBooking(time: string, diner: BuiltAccount, partySize = 2) {
  const { id, intentId } = await heldAndPayPressed(time, diner, partySize);
  const approved = await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' });
  expect(approved.statusCode, approved.body).toBe(200);
  await sandbox.settle();
  expect(await statusOf(id)).toBe('PENDING');
  return { id, intentId };
}

/** A move by the restaurant's staff, which must be accepted. */
export async function staffMove(id: string, status: string) {
  const answer = await call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status });
  expect(answer.statusCode, answer.body).toBe(200);
  await sandbox.settle();
}

/** The diner's own cancel, which must be accepted. */
export async function dinerCancel(id: string, diner: BuiltAccount) {
  const cancelled = await call('POST', `/api/reservations/${id}/cancel`, diner.token, {});
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  await sandbox.settle();
}

export const statusOf = async (id: string) =>
  (await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`))[0]!.status;

export const intentOf = async (intentId: string) =>
  (
    await queryRows<{ status: string; captured_paise: number; refunded_paise: number }>(
      t.database.db,
      sql`SELECT status, captured_paise, refunded_paise FROM payment_intents WHERE id = ${intentId}`,
    )
  )[0];

/** Everything money or a booking is made of: the ledger, every intent, deposit, reservation and its history. */
export async function moneyAndBookings(): Promise<string> {
  const [ledger] = await queryRows(
    t.database.db,
    sql`SELECT (SELECT count(*)::int FROM ledger_postings) AS postings, (SELECT count(*)::int FROM ledger_lines) AS lines,
               (SELECT count(*)::int FROM provider_calls) AS calls, (SELECT count(*)::int FROM reservation_events) AS events`,
  );
  const intents = await queryRows(t.database.db, sql`SELECT id, status, authorised_paise, captured_paise, refunded_paise FROM payment_intents ORDER BY id`);
  const deposits = await queryRows(
    t.database.db,
    sql`SELECT reservation_id, authorised_at, late_cancel, move, move_key, move_done_at FROM reservation_deposits ORDER BY reservation_id`,
  );
  const reservations = await queryRows(t.database.db, sql`SELECT id, status, party_size, slot_id, starts_at FROM reservations ORDER BY id`);
  return JSON.stringify({ ledger, intents, deposits, reservations });
}

/** Runs `attack`, which must be refused as `status` with `error`; nothing of money or bookings may change. */
export async function expectRefused(attack: () => Promise<{ statusCode: number; body: string; json(): unknown }>, status: number, error: string | RegExp) {
  const before = await moneyAndBookings();
  const answer = await attack();
  await sandbox.settle();
  expect(answer.statusCode, answer.body).toBe(status);
  const body = answer.json() as { error: string };
  if (typeof error === 'string') expect(body.error).toBe(error);
  else expect(body.error).toMatch(error);
  expect(await moneyAndBookings()).toBe(before);
  expect(await unbalancedPostings(t.database.db)).toBe(0);
}

/** The kinds of the ledger postings of one payment, oldest first. */
export const ledgerPostingsOf = async (intentId: string) =>
  (await queryRows<{ kind: string }>(t.database.db, sql`SELECT kind FROM ledger_postings WHERE intent_id = ${intentId} ORDER BY id`)).map((row) => row.kind);
