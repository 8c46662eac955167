import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AcceptDatePlanResponse, DatePlanShareLink, DatePlansResponse } from '#common/contract/dating-plans.ts';
import { queryRows } from '#server/db/client.ts';
import type { SandboxGateway } from '#server/modules/payments/sandbox-gateway.ts';
import { DATING_SESSION_COOKIE } from '#server/plugins/sessions.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDatingMember, buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltAccount } from '#server/test/factories.ts';

/**
 * Date plans closing before their date, on a real database, through HTTP and the sandbox gateway
 * (decisions 205, 207, 208; docs/security.md, rows 3, 6 and 10 of the money-and-dates attack). "Now" is Monday 2026-11-23, 10:00 in Kolkata; the members are free on Monday
 * evenings, so tonight's 19:00 is the first table that fits.
 */
const DAY = '2026-11-23';
let t: TestApp;
let sandbox: SandboxGateway;
let near: { id: string; staff: BuiltAccount };
let far: { id: string; staff: BuiltAccount };

async function partner(name: string, neighbourhood: string, budget = 'INR_1000_2500') {
  const restaurant = await buildRestaurant(t.database.db, { name });
  await t.database.db.execute(
    sql`INSERT INTO dating_partners (restaurant_id, budget, neighbourhood, cuisines, date_types, opted_in_at, updated_at)
        VALUES (${restaurant.id}, ${budget}, ${neighbourhood}, '{SOUTH_INDIAN}', '{DINNER}', ${TEST_NOW}, ${TEST_NOW})`,
  );
  return { id: restaurant.id, staff: await buildStaff(t.database.db, restaurant.id) };
}

beforeAll(async () => {
  t = await createTestApp();
  sandbox = t.app.services.payments.sandbox!;
  // Whitefield is 14 km from both members' Indiranagar homes; Koramangala 6.
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

async function cookieOf(memberId: string): Promise<Record<string, string>> {
  const token = await t.app.services.sessions.issueSession('dating', memberId);
  return { cookie: `${DATING_SESSION_COOKIE}=${token}` };
}

function call(method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) {
  return t.app.inject({ method, url, headers, ...(method === 'GET' ? {} : { payload: payload ?? {} }) });
}

/** Two members free on Monday evenings who both said yes, and both said "tonight is fine" so a plan can be the same evening (decision 252). */
async function matchedPair(profile: Parameters<typeof buildDatingMember>[1] = {}) {
  const asha = await buildDatingMember(t.database.db, {
    name: 'Asha Rao',
    freeEvenings: ['MON_EARLY', 'TUE_EARLY'],
    firstDateTypes: ['DINNER'],
    tonightIsFine: true,
    ...profile,
  });
  const ravi = await buildDatingMember(t.database.db, { name: 'Ravi Kumar', dob: '1992-02-02', freeEvenings: ['MON_EARLY'], tonightIsFine: true, ...profile });
  const [a, b] = asha < ravi ? [asha, ravi] : [ravi, asha];
  await t.database.db.execute(
    sql`INSERT INTO dating_suggestions (day, member_a, member_b, score, answer_a, answer_b) VALUES (${DAY}, ${a}, ${b}, 20, 'YES', 'YES')`,
  );
  return { asha: { id: asha, cookie: await cookieOf(asha) }, ravi: { id: ravi, cookie: await cookieOf(ravi) } };
}

async function plansOf(member: { cookie: Record<string, string> }): Promise<DatePlansResponse> {
  const response = await call('GET', '/dating/plans', member.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DatePlansResponse>();
}

async function reservationOf(planId: string) {
  const [row] = await queryRows<{ id: string; status: string; user_id: string; party_size: number; hold_expires_at: Date | string; slot_time: string }>(
    t.database.db,
    sql`SELECT r.id, r.status, r.user_id, r.party_size, r.hold_expires_at, s.slot_time FROM dating_plans p JOIN reservations r ON r.id = p.reservation_id
        JOIN slots s ON s.id = r.slot_id WHERE p.id = ${planId}`,
  );
  return row;
}

/** Accepts and approves on the sandbox page, and waits for the webhooks. */
async function acceptAndPay(member: { cookie: Record<string, string> }, planId: string): Promise<string> {
  const accepted = await call('POST', `/dating/plans/${planId}/accept`, member.cookie);
  expect(accepted.statusCode, accepted.body).toBe(200);
  const { payment } = accepted.json<AcceptDatePlanResponse>();
  expect(payment).toEqual({ intentId: expect.any(String), amountPaise: 30_000, approvalUrl: `/pay/sandbox/${payment.intentId}` });
  const approved = await call('POST', `/api/payments/sandbox/${payment.intentId}/decision`, {}, { decision: 'approve' });
  expect(approved.statusCode, approved.body).toBe(200);
  await sandbox.settle();
  return payment.intentId;
}

async function bookedPair() {
  const pair = await matchedPair();
  const [plan] = (await plansOf(pair.asha)).plans;
  const ashaIntent = await acceptAndPay(pair.asha, plan!.id);
  const raviIntent = await acceptAndPay(pair.ravi, plan!.id);
  return { ...pair, plan: plan!, ashaIntent, raviIntent };
}

async function intent(intentId: string) {
  return t.app.services.payments.readIntent(intentId);
}

async function sweep() {
  await t.app.services.datePlans.sweep();
  await sandbox.settle();
  await t.app.services.datePlans.sweep();
  await sandbox.settle();
}

describe('3. A report or block against a date partner leaves the plan open', () => {
  async function strikesOf(member: { cookie: Record<string, string> }) {
    return (await plansOf(member)).strikes;
  }

  it('a report closes a booked plan with nobody at fault: both deposits released, no strike, no payout, the table back on sale', async () => {
    const { plan, asha, ravi, ashaIntent, raviIntent } = await bookedPair();
    // Within 24 hours of the start: a cancel now would be a flake.
    const reported = await call('POST', `/dating/suggestions/${ravi.id}/report`, asha.cookie, { reason: 'HARASSMENT', note: '' });
    expect(reported.statusCode, reported.body).toBe(204);
    await sandbox.settle();

    expect((await reservationOf(plan.id))!.status).toBe('CANCELLED');
    for (const id of [ashaIntent, raviIntent]) expect(await intent(id)).toMatchObject({ status: 'RELEASED', capturedPaise: 0 });
    const cancel = await call('POST', `/dating/plans/${plan.id}/cancel`, asha.cookie);
    expect(cancel.statusCode).toBe(409);
    await sandbox.settle();
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'CANCELLED', flaked: null, payoutToMe: null });
    expect((await plansOf(ravi)).plans[0]).toMatchObject({ status: 'CANCELLED', flaked: null, payoutToMe: null });
    expect(await strikesOf(asha)).toBe(0);
    expect(await strikesOf(ravi)).toBe(0);
    const [payouts] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM payouts WHERE source_intent_id IN (${ashaIntent}, ${raviIntent})`,
    );
    expect(payouts!.count).toBe(0);
  });

  it('a block closes a proposed plan, the paid deposit is released, and the blocked member can no longer accept or pay', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const raviIntent = await acceptAndPay(pair.ravi, plan!.id);
    const blocked = await call('POST', `/dating/suggestions/${pair.ravi.id}/block`, pair.asha.cookie);
    expect(blocked.statusCode, blocked.body).toBe(204);
    await sandbox.settle();

    expect((await reservationOf(plan!.id))!.status).toBe('CANCELLED');
    expect(await intent(raviIntent)).toMatchObject({ status: 'RELEASED' });
    for (const member of [pair.asha, pair.ravi]) {
      const accept = await call('POST', `/dating/plans/${plan!.id}/accept`, member.cookie);
      expect(accept.statusCode).toBe(409);
      expect(await strikesOf(member)).toBe(0);
    }
    expect((await plansOf(pair.ravi)).plans.map((p) => p.status)).toEqual(['DECLINED']);
  });

  it('the sweep closes a plan between a blocked pair that a block left open (a listener that never ran)', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    await t.database.db.execute(sql`INSERT INTO dating_blocks (blocker_id, blocked_id) VALUES (${pair.ravi.id}, ${pair.asha.id})`);
    await sweep();
    expect((await reservationOf(plan!.id))!.status).toBe('CANCELLED');
    expect((await plansOf(pair.asha)).plans.map((p) => p.status)).toEqual(['DECLINED']);
  });
});

describe('6. The platform’s hold for a proposed date cancelled by its bare id', () => {
  it('does not let anyone but the plan move or read the platform’s date hold by its id, with or without a diner token', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const held = await reservationOf(plan!.id);
    const diner = await buildDiner(t.database.db);
    for (const headers of [{}, bearer(diner.token)]) {
      for (const action of ['cancel', 'confirm']) {
        const moved = await call('POST', `/api/reservations/${held!.id}/${action}`, headers);
        expect(moved.statusCode, `${action} ${moved.body}`).toBe(404);
      }
      expect((await call('GET', `/api/reservations/${held!.id}`, headers)).statusCode).toBe(404);
    }
    expect((await reservationOf(plan!.id))!.status).toBe('HELD');
    expect((await plansOf(pair.asha)).plans[0]!.status).toBe('PROPOSED');
  });

  it('closes a proposed plan whose hold goes any other way, releasing the deposit already paid', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const ashaIntent = await acceptAndPay(pair.asha, plan!.id);
    const held = await reservationOf(plan!.id);
    // Any code path that cancels the hold without its plan (as the bare-id cancel once did).
    await t.app.services.reservations.moveReservation({ id: held!.id, to: 'CANCELLED', cause: { kind: 'diner', userId: null }, authorise: () => {} });
    await sandbox.settle();
    expect(await intent(ashaIntent)).toMatchObject({ status: 'RELEASED' });
    expect((await plansOf(pair.ravi)).plans[0]!.status).toBe('DECLINED');
    expect((await call('POST', `/dating/plans/${plan!.id}/accept`, pair.ravi.cookie)).statusCode).toBe(409);
    expect((await plansOf(pair.ravi)).strikes).toBe(0);
  });
});

describe('10. A declined plan’s share link still answers', () => {
  it('ends a share link when its plan is declined, and when a booked plan is cancelled', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const token = (await call('POST', `/dating/plans/${plan!.id}/share`, pair.asha.cookie)).json<DatePlanShareLink>().path.replace('/dating/share/', '');
    expect((await call('GET', `/api/date-share/${token}`, {})).statusCode).toBe(200);
    expect((await call('POST', `/dating/plans/${plan!.id}/decline`, pair.ravi.cookie)).statusCode).toBe(200);
    const ended = await call('GET', `/api/date-share/${token}`, {});
    expect(ended.statusCode).toBe(404);
    expect(ended.json<{ error: string }>().error).toBe('This date plan has ended, so this link no longer works.');

    await t.database.db.execute(sql`DELETE FROM dating_plans`);
    await t.database.db.execute(sql`DELETE FROM dating_users`);
    const booked = await bookedPair();
    const bookedToken = (await call('POST', `/dating/plans/${booked.plan.id}/share`, booked.ravi.cookie))
      .json<DatePlanShareLink>()
      .path.replace('/dating/share/', '');
    // A booked plan closed (here by a block, nobody at fault): its link ends too.
    expect((await call('GET', `/api/date-share/${bookedToken}`, {})).statusCode).toBe(200);
    await t.app.services.datePlans.onPairBlocked(booked.asha.id, booked.ravi.id);
    expect((await call('GET', `/api/date-share/${bookedToken}`, {})).statusCode).toBe(404);
  });
});
