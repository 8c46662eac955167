import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AcceptDatePlanResponse, AdminDatesResponse, DatePlansResponse } from '#common/contract/dating-plans.ts';
import { kolkataInstant } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import type { SandboxGateway } from '#server/modules/payments/sandbox-gateway.ts';
import { DATING_SESSION_COOKIE } from '#server/plugins/sessions.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDatingMember, buildRestaurant, buildSlot, buildStaff, type BuiltAccount } from '#server/test/factories.ts';

/**
 * Date plans' notice, wishes and arrivals on a real database (decisions 250, 252, 253): no plan
 * less than 24 hours ahead without both members' consent, none for a pair whose wishes do not
 * hold, and arrivals only from 30 minutes before the start, undoable for 10 minutes. "Now" is Monday 2026-11-23, 10:00 in Kolkata; the members are free on Monday
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

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) {
  return t.app.inject({ method, url, headers, ...(method === 'GET' ? {} : { payload: payload ?? {} }) });
}

/** Two members free on Monday evenings who both said yes. */
/** A matched pair; both said "tonight is fine" unless told otherwise, so a plan can be the same evening (decision 252). */
async function matchedPair(profile: Parameters<typeof buildDatingMember>[1] = {}, ravisOwn: Parameters<typeof buildDatingMember>[1] = {}) {
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

describe('notice, wishes and arrivals (decisions 250, 252, 253)', () => {
  it('never proposes a plan less than 24 hours ahead unless both chose "tonight is fine" (decision 252)', async () => {
    // Ravi did not: tonight's 19:00 is out, Tuesday's 19:00 (33 hours ahead) is the plan.
    const pair = await matchedPair({ freeEvenings: ['MON_EARLY', 'TUE_EARLY'] }, { tonightIsFine: false });
    const [plan] = (await plansOf(pair.asha)).plans;
    expect(plan).toMatchObject({ date: '2026-11-24', time: '19:00', cancelIsLate: false });
    // The card says before paying what a late cancel costs and from when, and shows the place and why the two.
    expect(plan!.lateCancel).toEqual({ from: kolkataInstant(DAY, '19:00').toISOString(), costPaise: 30_000 });
    expect(plan!.venue).toMatchObject({ budget: 'INR_1000_2500' });
    expect(plan!.shared).toEqual({ cuisines: ['SOUTH_INDIAN'], dateTypes: [], neighbourhoods: ['Indiranagar'], evenings: ['MON_EARLY', 'TUE_EARLY'] });
    // Free only tonight, and one of them not fine with tonight: no plan at all.
    const tonightOnly = await matchedPair({ freeEvenings: ['MON_EARLY'], tonightIsFine: false });
    expect((await plansOf(tonightOnly.asha)).plans).toEqual([]);
  });

  it('never plans for a pair whose wishes no longer hold, whatever they answered (decision 250)', async () => {
    const pair = await matchedPair({ gender: 'WOMAN' }, { gender: 'MAN' });
    await t.database.db.execute(sql`UPDATE dating_users SET wants_to_meet = 'WOMEN' WHERE id = ${pair.asha.id}`);
    expect((await plansOf(pair.asha)).plans).toEqual([]);
  });

  it('refuses arrivals before 30 minutes ahead of the start, and lets staff undo one within 10 minutes (decision 253)', async () => {
    const { plan, asha, ravi } = await bookedPair();
    t.clock.set(kolkataInstant(DAY, '18:29').toISOString());
    const early = await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: asha.id });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: 'Arrivals for this date can be marked from 6:30 PM, 30 minutes before it starts.' });
    expect((await reservationOf(plan.id))!.status).toBe('CONFIRMED');

    t.clock.set(kolkataInstant(DAY, '18:30').toISOString());
    const marked = await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: asha.id });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json<AdminDatesResponse['dates'][number]>().members.find((m) => m.memberId === asha.id)).toMatchObject({
      arrived: true,
      undoUntil: kolkataInstant(DAY, '18:40').toISOString(),
    });
    // Another restaurant cannot undo it; staff of this one can, within 10 minutes.
    expect((await call('DELETE', `/api/admin/dates/${plan.id}/arrivals/${asha.id}`, bearer(far.staff.token))).statusCode).toBe(404);
    t.clock.set(kolkataInstant(DAY, '18:39').toISOString());
    const undone = await call('DELETE', `/api/admin/dates/${plan.id}/arrivals/${asha.id}`, bearer(near.staff.token));
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json<AdminDatesResponse['dates'][number]>().members.every((m) => !m.arrived && m.undoUntil === null)).toBe(true);
    expect((await call('DELETE', `/api/admin/dates/${plan.id}/arrivals/${asha.id}`, bearer(near.staff.token))).statusCode).toBe(409);

    // Marked again at 18:40: by 18:50 the undo is over.
    t.clock.set(kolkataInstant(DAY, '18:40').toISOString());
    await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: asha.id });
    t.clock.set(kolkataInstant(DAY, '18:50').toISOString());
    const late = await call('DELETE', `/api/admin/dates/${plan.id}/arrivals/${asha.id}`, bearer(near.staff.token));
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: "Asha's arrival was marked more than 10 minutes ago and can no longer be undone." });
    // Both in: the table is seated, and no arrival is undone any more.
    await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: ravi.id });
    expect((await call('DELETE', `/api/admin/dates/${plan.id}/arrivals/${ravi.id}`, bearer(near.staff.token))).statusCode).toBe(409);
  });
});
