import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AcceptDatePlanResponse, DatePlansResponse } from '#common/contract/dating-plans.ts';
import { queryRows } from '#server/db/client.ts';
import type { SandboxGateway } from '#server/modules/payments/sandbox-gateway.ts';
import { DATING_SESSION_COOKIE } from '#server/plugins/sessions.ts';
import { createTestApp, TEST_NOW, type TestApp, TEST_TODAY as DAY } from '#server/test/app.ts';
import { buildDatingMember, buildRestaurant, buildSlot, buildStaff, type BuiltAccount } from '#server/test/factories.ts';

/**
 * The date plans' tests' world (date-plans*.db.test.ts), on a real database, through HTTP and the
 * sandbox gateway (decision 184). Call setUpDatePlansFixture() once per test file; the bindings
 * below are then live. "Now" is Monday 2026-11-23, 10:00 in Kolkata; the members of a
 * matchedPair are free on Monday evenings, so tonight's 19:00 is the first table that fits. Three
 * partners: Candle Light Cafe in Koramangala (6 km from the members' Indiranagar homes), Far Away
 * Grill in Whitefield (14 km) and Gold Leaf (out of the usual budget), each with 13:00, 19:00 and
 * 20:30 today and 19:00 tomorrow, 6 covers each; Far Away Grill also next Monday at 19:00.
 */
export { TEST_TODAY as DAY } from '#server/test/app.ts';
export let t: TestApp;
export let sandbox: SandboxGateway;
export let near: { id: string; staff: BuiltAccount };
export let far: { id: string; staff: BuiltAccount };

type Member = { id: string; cookie: Record<string, string> };
type MemberProfile = Parameters<typeof buildDatingMember>[1];

/** A restaurant that hosts Tablefair dates, with one staff login. */
export async function partner(name: string, neighbourhood: string, budget = 'INR_1000_2500') {
  const restaurant = await buildRestaurant(t.database.db, { name });
  await t.database.db.execute(
    sql`INSERT INTO dating_partners (restaurant_id, budget, neighbourhood, cuisines, date_types, opted_in_at, updated_at)
        VALUES (${restaurant.id}, ${budget}, ${neighbourhood}, '{SOUTH_INDIAN}', '{DINNER}', ${TEST_NOW}, ${TEST_NOW})`,
  );
  return { id: restaurant.id, staff: await buildStaff(t.database.db, restaurant.id) };
}

export function setUpDatePlansFixture(): void {
  beforeAll(async () => {
    t = await createTestApp();
    sandbox = t.app.services.payments.sandbox!;
    far = await partner('Far Away Grill', 'Whitefield');
    near = await partner('Candle Light Cafe', 'Koramangala');
    const pricey = await partner('Gold Leaf', 'Indiranagar', 'INR_5000_PLUS');
    for (const restaurant of [far, near, pricey]) {
      for (const time of ['13:00', '19:00', '20:30']) await buildSlot(t.database.db, restaurant.id, { date: DAY, time, capacity: 6 });
      await buildSlot(t.database.db, restaurant.id, { date: '2026-11-24', time: '19:00', capacity: 6 });
    }
    // Next Monday evening, for a second date.
    await buildSlot(t.database.db, far.id, { date: '2026-11-30', time: '19:00', capacity: 6 });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(TEST_NOW);
    sandbox.resetFaults();
    await t.database.db.execute(sql`DELETE FROM dating_plans`);
    await t.database.db.execute(sql`DELETE FROM dating_users`);
    await t.database.db.execute(sql`DELETE FROM reservations`);
  });
}

export async function cookieOf(memberId: string): Promise<Record<string, string>> {
  const token = await t.app.services.sessions.issueSession('dating', memberId);
  return { cookie: `${DATING_SESSION_COOKIE}=${token}` };
}

export function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) {
  return t.app.inject({ method, url, headers, ...(method === 'GET' ? {} : { payload: payload ?? {} }) });
}

/** Two members who both said yes to each other. */
export async function saidYes(one: string, other: string): Promise<void> {
  const [a, b] = one < other ? [one, other] : [other, one];
  await t.database.db.execute(
    sql`INSERT INTO dating_suggestions (day, member_a, member_b, score, answer_a, answer_b) VALUES (${DAY}, ${a}, ${b}, 20, 'YES', 'YES')`,
  );
}

/** A matched pair free on Monday evenings; both said "tonight is fine" unless told otherwise, so a plan can be the same evening (decision 252). */
export async function matchedPair(profile: MemberProfile = {}, ravisOwn: MemberProfile = {}): Promise<{ asha: Member; ravi: Member }> {
  const asha = await buildDatingMember(t.database.db, {
    name: 'Asha Rao',
    freeEvenings: ['MON_EARLY', 'TUE_EARLY'],
    firstDateTypes: ['DINNER'],
    tonightIsFine: true,
    ...profile,
  });
  const ravi = await buildDatingMember(t.database.db, {
    name: 'Ravi Kumar',
    dob: '1992-02-02',
    freeEvenings: ['MON_EARLY'],
    tonightIsFine: true,
    ...profile,
    ...ravisOwn,
  });
  await saidYes(asha, ravi);
  return { asha: { id: asha, cookie: await cookieOf(asha) }, ravi: { id: ravi, cookie: await cookieOf(ravi) } };
}

export async function plansOf(member: { cookie: Record<string, string> }): Promise<DatePlansResponse> {
  const response = await call('GET', '/dating/plans', member.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DatePlansResponse>();
}

export async function reservationOf(planId: string) {
  const [row] = await queryRows<{ id: string; status: string; user_id: string; party_size: number; hold_expires_at: Date | string; slot_time: string }>(
    t.database.db,
    sql`SELECT r.id, r.status, r.user_id, r.party_size, r.hold_expires_at, s.slot_time FROM dating_plans p JOIN reservations r ON r.id = p.reservation_id
        JOIN slots s ON s.id = r.slot_id WHERE p.id = ${planId}`,
  );
  return row;
}

/** Accepts and approves on the sandbox page, and waits for the webhooks. */
export async function acceptAndPay(member: { cookie: Record<string, string> }, planId: string): Promise<string> {
  const accepted = await call('POST', `/dating/plans/${planId}/accept`, member.cookie);
  expect(accepted.statusCode, accepted.body).toBe(200);
  const { payment } = accepted.json<AcceptDatePlanResponse>();
  expect(payment).toEqual({ intentId: expect.any(String), amountPaise: 30_000, approvalUrl: `/pay/sandbox/${payment.intentId}` });
  const approved = await call('POST', `/api/payments/sandbox/${payment.intentId}/decision`, {}, { decision: 'approve' });
  expect(approved.statusCode, approved.body).toBe(200);
  await sandbox.settle();
  return payment.intentId;
}

/** A matched pair whose plan both have paid for: BOOKED. */
export async function bookedPair() {
  const pair = await matchedPair();
  const [plan] = (await plansOf(pair.asha)).plans;
  const ashaIntent = await acceptAndPay(pair.asha, plan!.id);
  const raviIntent = await acceptAndPay(pair.ravi, plan!.id);
  return { ...pair, plan: plan!, ashaIntent, raviIntent };
}

export async function intent(intentId: string) {
  return t.app.services.payments.readIntent(intentId);
}

/** The date plans' sweep twice, with the webhooks between: what a few ticks of the background jobs do. */
export async function sweep() {
  await t.app.services.datePlans.sweep();
  await sandbox.settle();
  await t.app.services.datePlans.sweep();
  await sandbox.settle();
}
