import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AcceptDatePlanResponse, AdminDatesResponse, DatePlan, DatePlanShareLink, SharedDatePlan } from '#common/contract/dating-plans.ts';
import { kolkataInstant } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer } from '#server/test/app.ts';
import { buildModerator } from '#server/test/factories.ts';
import { DATE_ACCOUNT_ID } from './date-plans.service.ts';
import {
  acceptAndPay,
  bookedPair,
  call,
  DAY,
  far,
  intent,
  matchedPair,
  near,
  plansOf,
  reservationOf,
  sandbox,
  setUpDatePlansFixture,
  sweep,
  t,
} from './date-plans.test-support.ts';

/**
 * Date plans on a real database, through HTTP and the sandbox gateway (decision 184): the
 * proposal, the platform's hold, paying to accept, the booking, arrivals, flakes and their money. "Now" is Monday 2026-11-23, 10:00 in Kolkata; the members are free on Monday
 * evenings, so tonight's 19:00 is the first table that fits.
 */
setUpDatePlansFixture();

describe('the proposal', () => {
  it('turns a mutual yes into one plan: the nearest partner table in budget on an evening both are free, held for two by the platform', async () => {
    const pair = await matchedPair();
    const { plans } = await plansOf(pair.asha);
    expect(plans).toHaveLength(1);
    const plan = plans[0]!;
    // Tonight 19:00 (Monday, early evening) rather than 13:00 (no evening) or 20:30 (late: Ravi is not free); Koramangala over Whitefield; Gold Leaf is out of budget.
    expect(plan).toMatchObject({
      status: 'PROPOSED',
      restaurant: { id: near.id, name: 'Candle Light Cafe' },
      date: DAY,
      time: '19:00',
      depositPaise: 30_000,
      partner: { firstName: 'Ravi', accepted: false, paid: false },
      me: { answer: null, paid: false, deposit: 'none', approvalUrl: null },
      canAskAgain: true,
      cancelIsLate: true,
    });
    // The deadline: 24 hours at most, and 2 hours before the start (17:00 in Kolkata).
    expect(plan.deadline).toBe(kolkataInstant(DAY, '17:00').toISOString());
    const held = await reservationOf(plan.id);
    expect(held).toMatchObject({ status: 'HELD', user_id: DATE_ACCOUNT_ID, party_size: 2, slot_time: '19:00' });
    expect(new Date(held!.hold_expires_at).toISOString()).toBe(plan.deadline);

    // The other member sees the same plan; listing again proposes nothing new.
    expect((await plansOf(pair.ravi)).plans.map((p) => p.id)).toEqual([plan.id]);
    expect((await plansOf(pair.asha)).plans).toHaveLength(1);
  });

  it('proposes nothing while no partner table fits, and answers the rest of the plan calls 404 for anyone not on the plan', async () => {
    const pair = await matchedPair({ freeEvenings: ['SUN_LATE'] });
    expect((await plansOf(pair.asha)).plans).toEqual([]);

    const other = await matchedPair();
    const [plan] = (await plansOf(other.asha)).plans;
    for (const path of ['accept', 'decline', 'another', 'cancel']) {
      const response = await call('POST', `/dating/plans/${plan!.id}/${path}`, pair.asha.cookie);
      expect(response.statusCode, path).toBe(404);
      expect(response.json<{ error: string }>().error).toBe('Date plan not found');
    }
    expect((await call('POST', `/dating/plans/${plan!.id}/accept`, {})).statusCode).toBe(401);
    expect((await call('POST', `/dating/plans/${plan!.id}/accept`, bearer(near.staff.token))).statusCode).toBe(401);
  });

  it('never plans for a pair where either has blocked the other', async () => {
    const pair = await matchedPair();
    expect((await call('POST', `/dating/suggestions/${pair.asha.id}/block`, pair.ravi.cookie)).statusCode).toBe(204);
    expect((await plansOf(pair.asha)).plans).toEqual([]);
    expect((await plansOf(pair.ravi)).plans).toEqual([]);
  });

  it('asks for another option once: a plan at another restaurant replaces the first, whose hold goes back', async () => {
    const pair = await matchedPair();
    const [first] = (await plansOf(pair.asha)).plans;
    const again = await call('POST', `/dating/plans/${first!.id}/another`, pair.ravi.cookie);
    expect(again.statusCode, again.body).toBe(200);
    const second = again.json<DatePlan>();
    expect(second).toMatchObject({ status: 'PROPOSED', restaurant: { id: far.id }, time: '19:00', canAskAgain: false });
    expect((await reservationOf(first!.id))!.status).toBe('CANCELLED');
    expect((await plansOf(pair.asha)).plans.map((p) => [p.id, p.status])).toEqual([
      [second.id, 'PROPOSED'],
      [first!.id, 'REPLACED'],
    ]);
    const twice = await call('POST', `/dating/plans/${second.id}/another`, pair.asha.cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ error: string }>().error).toBe('You can ask for another option once per match');
  });

  it('keeps the plan and its table when there is no other option to swap it for', async () => {
    // Only Gold Leaf is within one budget band of two members who spend ₹5,000 and more.
    const pair = await matchedPair({ dateBudget: 'INR_5000_PLUS' });
    const [only] = (await plansOf(pair.asha)).plans;
    expect(only).toMatchObject({ restaurant: { name: 'Gold Leaf' }, canAskAgain: true });
    const again = await call('POST', `/dating/plans/${only!.id}/another`, pair.asha.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe('We could not find another table for you both this week. Your current plan stays open.');
    expect((await plansOf(pair.asha)).plans.map((plan) => [plan.id, plan.status])).toEqual([[only!.id, 'PROPOSED']]);
    expect((await reservationOf(only!.id))!.status).toBe('HELD');
  });
});

describe('paying to accept', () => {
  it('books the table once both have paid: CONFIRMED at the restaurant, shown to staff as a Tablefair date with both first names', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const ashaIntent = await acceptAndPay(pair.asha, plan!.id);

    // Pressing again answers the same payment: nobody pays twice.
    const again = await call('POST', `/dating/plans/${plan!.id}/accept`, pair.asha.cookie);
    expect(again.json<AcceptDatePlanResponse>().payment.intentId).toBe(ashaIntent);
    const halfway = (await plansOf(pair.ravi)).plans[0]!;
    expect(halfway).toMatchObject({ status: 'PROPOSED', partner: { firstName: 'Asha', accepted: true, paid: true }, me: { answer: null } });
    expect((await reservationOf(plan!.id))!.status).toBe('HELD');

    await acceptAndPay(pair.ravi, plan!.id);
    expect((await plansOf(pair.asha)).plans[0]).toMatchObject({ status: 'BOOKED', me: { paid: true, deposit: 'held' }, partner: { paid: true } });
    expect((await reservationOf(plan!.id))!.status).toBe('CONFIRMED');

    const dates = await call('GET', `/api/admin/dates?date=${DAY}`, bearer(near.staff.token));
    expect(dates.json<AdminDatesResponse>().dates).toEqual([
      {
        planId: plan!.id,
        reservationId: (await reservationOf(plan!.id))!.id,
        status: 'BOOKED',
        startsAt: kolkataInstant(DAY, '19:00').toISOString(),
        time: '19:00',
        arrivalsOpenAt: kolkataInstant(DAY, '18:30').toISOString(),
        members: expect.arrayContaining([
          expect.objectContaining({ firstName: 'Asha', arrived: false }),
          expect.objectContaining({ firstName: 'Ravi', arrived: false }),
        ]),
      },
    ]);
    // The Deposits tab counts both deposits and shows the booking once, with what to credit on the bill (decision 224).
    const day = (await call('GET', `/api/admin/deposits?date=${DAY}`, bearer(near.staff.token))).json();
    expect(day.bookings).toContainEqual({
      reservationId: (await reservationOf(plan!.id))!.id,
      amountPaise: 60_000,
      state: 'held',
      forDate: true,
      creditPaise: 60_000,
    });
    expect(day.totals.heldPaise).toBeGreaterThanOrEqual(60_000);
    // Another restaurant's staff see none of it.
    expect((await call('GET', `/api/admin/dates?date=${DAY}`, bearer(far.staff.token))).json<AdminDatesResponse>().dates).toEqual([]);
  });

  it('releases a paid deposit when the other member declines, and lets the plan lapse at its deadline', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const ashaIntent = await acceptAndPay(pair.asha, plan!.id);
    const declined = await call('POST', `/dating/plans/${plan!.id}/decline`, pair.ravi.cookie);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json<DatePlan>().status).toBe('DECLINED');
    await sandbox.settle();
    expect((await intent(ashaIntent)).status).toBe('RELEASED');
    expect((await reservationOf(plan!.id))!.status).toBe('CANCELLED');
    expect((await call('POST', `/dating/plans/${plan!.id}/accept`, pair.ravi.cookie)).statusCode).toBe(409);

    // A second pair: one pays, the deadline passes, the plan lapses and the money goes back.
    const late = await matchedPair();
    const [lapsing] = (await plansOf(late.asha)).plans;
    const paid = await acceptAndPay(late.asha, lapsing!.id);
    t.clock.set(lapsing!.deadline);
    await sweep();
    expect((await plansOf(late.asha)).plans[0]).toMatchObject({ status: 'EXPIRED', me: { deposit: 'released' } });
    expect((await intent(paid)).status).toBe('RELEASED');
  });
});

describe('at the table', () => {
  it('seats the table when staff mark both arrived, and turns both deposits into credit on the bill', async () => {
    const { plan, asha, ravi, ashaIntent, raviIntent } = await bookedPair();
    t.clock.set(kolkataInstant(DAY, '18:55').toISOString());
    const first = await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: asha.id });
    expect(first.statusCode, first.body).toBe(200);
    expect((await reservationOf(plan.id))!.status).toBe('CONFIRMED');
    // Another restaurant cannot mark anyone.
    expect((await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(far.staff.token), { memberId: ravi.id })).statusCode).toBe(404);

    const second = await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: ravi.id });
    expect(second.json()).toMatchObject({ status: 'SEATED', members: [{ arrived: true }, { arrived: true }] });
    await sandbox.settle();
    expect((await reservationOf(plan.id))!.status).toBe('SEATED');
    for (const id of [ashaIntent, raviIntent])
      expect(await intent(id)).toMatchObject({ status: 'CAPTURED', capturePurpose: 'credit_at_table', capturedPaise: 30_000 });
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'SEATED', me: { deposit: 'credit_at_table' }, flaked: null });
  });

  it('pays the flake’s deposit to the member who came 15 minutes after the start, with a strike, and never suggests the two again', async () => {
    const { plan, asha, ravi, ashaIntent, raviIntent } = await bookedPair();
    t.clock.set(kolkataInstant(DAY, '19:02').toISOString());
    await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: asha.id });
    // Not yet: the grace runs to 19:15.
    t.clock.set(kolkataInstant(DAY, '19:14').toISOString());
    await sweep();
    expect((await plansOf(asha)).plans[0]!.status).toBe('BOOKED');

    t.clock.set(kolkataInstant(DAY, '19:15').toISOString());
    await sweep();
    expect((await reservationOf(plan.id))!.status).toBe('SEATED');
    expect(await intent(ashaIntent)).toMatchObject({ status: 'CAPTURED', capturePurpose: 'credit_at_table' });
    expect(await intent(raviIntent)).toMatchObject({ status: 'CAPTURED', capturePurpose: 'pay_member', capturedPaise: 30_000 });
    expect((await plansOf(asha)).plans[0]).toMatchObject({
      status: 'FLAKED',
      flaked: 'partner',
      me: { deposit: 'credit_at_table' },
      payoutToMe: { amountPaise: 30_000, status: 'PAID' },
    });
    const ravis = await plansOf(ravi);
    expect(ravis.plans[0]).toMatchObject({ status: 'FLAKED', flaked: 'me', me: { deposit: 'paid_to_partner' }, payoutToMe: null });
    expect(ravis.strikes).toBe(1);
    expect((await plansOf(asha)).strikes).toBe(0);
    const blocks = await queryRows(t.database.db, sql`SELECT 1 FROM dating_blocks WHERE blocker_id = ${ravi.id} AND blocked_id = ${asha.id}`);
    expect(blocks).toHaveLength(1);
  });

  it('follows the restaurant’s no-show policy for both deposits when neither comes, with a strike each', async () => {
    const policy = { defaultCharge: { kind: 'none', perCoverPaise: 0 }, rules: [], freeCancelMinutes: 120, lateCancelKeepPercent: 100, noShowKeepPercent: 50 };
    expect((await call('PUT', '/api/admin/deposit-policy', bearer(near.staff.token), policy)).statusCode).toBe(200);
    const { plan, asha, ravi, ashaIntent, raviIntent } = await bookedPair();
    t.clock.set(kolkataInstant(DAY, '19:15').toISOString());
    await sweep();
    expect((await reservationOf(plan.id))!.status).toBe('NO_SHOW');
    for (const id of [ashaIntent, raviIntent]) expect(await intent(id)).toMatchObject({ status: 'CAPTURED', capturePurpose: 'keep', capturedPaise: 15_000 });
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'NO_SHOW', flaked: 'both', me: { deposit: 'kept' }, payoutToMe: null });
    for (const member of [asha, ravi]) expect((await plansOf(member)).strikes).toBe(1);
    const back = { ...policy, noShowKeepPercent: 100 };
    expect((await call('PUT', '/api/admin/deposit-policy', bearer(near.staff.token), back)).statusCode).toBe(200);
  });

  it('treats a cancel within 24 hours as a flake, and releases both deposits of a cancel in time', async () => {
    const { plan, asha, ravi, ashaIntent, raviIntent } = await bookedPair();
    const cancelled = await call('POST', `/dating/plans/${plan.id}/cancel`, ravi.cookie);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await sweep();
    expect((await reservationOf(plan.id))!.status).toBe('CANCELLED');
    expect(await intent(raviIntent)).toMatchObject({ status: 'CAPTURED', capturePurpose: 'pay_member' });
    expect((await intent(ashaIntent)).status).toBe('RELEASED');
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'FLAKED', flaked: 'partner', payoutToMe: { amountPaise: 30_000, status: 'PAID' } });
    expect((await plansOf(ravi)).strikes).toBe(1);

    // Tomorrow's date, cancelled more than 24 hours ahead: no flake, both deposits back.
    const early = await matchedPair({ freeEvenings: ['TUE_EARLY'] });
    const [tomorrow] = (await plansOf(early.asha)).plans;
    expect(tomorrow).toMatchObject({ date: '2026-11-24', cancelIsLate: false });
    const paidA = await acceptAndPay(early.asha, tomorrow!.id);
    const paidB = await acceptAndPay(early.ravi, tomorrow!.id);
    const inTime = await call('POST', `/dating/plans/${tomorrow!.id}/cancel`, early.asha.cookie);
    expect(inTime.json<DatePlan>()).toMatchObject({ status: 'CANCELLED', flaked: null });
    await sandbox.settle();
    for (const id of [paidA, paidB]) expect((await intent(id)).status).toBe('RELEASED');
    expect((await plansOf(early.asha)).strikes).toBe(0);
  });
});

describe('safety and after the date', () => {
  it('closes a suspended member’s booked date with nobody at fault: the table goes back and both deposits are released', async () => {
    const { plan, asha, ashaIntent, raviIntent, ravi } = await bookedPair();
    const moderator = await buildModerator(t.database.db);
    const suspended = await call('POST', `/api/moderation/members/${ravi.id}/review`, bearer(moderator.token), { decision: 'SUSPEND', note: 'fake photos' });
    expect(suspended.statusCode, suspended.body).toBe(200);
    await sandbox.settle();
    expect((await reservationOf(plan.id))!.status).toBe('CANCELLED');
    for (const id of [ashaIntent, raviIntent]) expect((await intent(id)).status).toBe('RELEASED');
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'CANCELLED', flaked: null, me: { deposit: 'released' } });
    expect((await plansOf(asha)).strikes).toBe(0);
  });

  it('shares a plan with a trusted contact by a link that shows where, when and first names, until the end of the date', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const shared = await call('POST', `/dating/plans/${plan!.id}/share`, pair.asha.cookie);
    expect(shared.statusCode, shared.body).toBe(200);
    const link = shared.json<DatePlanShareLink>();
    expect(link.expiresAt).toBe(kolkataInstant(DAY, '23:00').toISOString());
    const token = link.path.replace('/dating/share/', '');

    const read = await call('GET', `/api/date-share/${token}`, {});
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<SharedDatePlan>()).toEqual({
      restaurant: expect.objectContaining({ name: 'Candle Light Cafe' }),
      startsAt: kolkataInstant(DAY, '19:00').toISOString(),
      date: DAY,
      time: '19:00',
      firstNames: expect.arrayContaining(['Asha', 'Ravi']),
      status: 'PROPOSED',
      expiresAt: link.expiresAt,
    });
    // A changed character, another kind of link, or a stranger's request: refused.
    const tampered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect((await call('GET', `/api/date-share/${tampered}`, {})).json<{ error: string }>().error).toBe(
      'This is not a Tablefair date link. Ask for the link again.',
    );
    const stranger = await matchedPair({ freeEvenings: ['SUN_LATE'] });
    expect((await call('POST', `/dating/plans/${plan!.id}/share`, stranger.asha.cookie)).statusCode).toBe(404);

    t.clock.set(link.expiresAt);
    const expired = await call('GET', `/api/date-share/${token}`, {});
    expect(expired.statusCode).toBe(404);
    expect(expired.json<{ error: string }>().error).toBe('This link has expired: it worked until the end of the date.');
  });

  it('asks both members after a date they both came to, once, and proposes a second date when both would meet again', async () => {
    const { plan, asha, ravi } = await bookedPair();
    const early = await call('PUT', `/dating/plans/${plan.id}/after-date`, asha.cookie, { showedUp: true, meetAgain: true });
    expect(early.statusCode).toBe(409);
    t.clock.set(kolkataInstant(DAY, '19:00').toISOString());
    for (const member of [asha, ravi]) await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: member.id });
    await sandbox.settle();
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'SEATED', afterDate: { showedUp: null, meetAgain: null, canAnswer: true } });

    t.clock.set(kolkataInstant(DAY, '22:00').toISOString());
    const answered = await call('PUT', `/dating/plans/${plan.id}/after-date`, asha.cookie, { showedUp: true, meetAgain: true });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json<DatePlan>().afterDate).toEqual({ showedUp: true, meetAgain: true, canAnswer: false });
    expect((await call('PUT', `/dating/plans/${plan.id}/after-date`, asha.cookie, { showedUp: false, meetAgain: false })).statusCode).toBe(409);
    expect((await call('PUT', `/dating/plans/${plan.id}/after-date`, ravi.cookie, { showedUp: true })).statusCode).toBe(400);
    // One yes alone proposes nothing.
    expect((await plansOf(asha)).plans).toHaveLength(1);

    await call('PUT', `/dating/plans/${plan.id}/after-date`, ravi.cookie, { showedUp: true, meetAgain: true });
    const [second, first] = (await plansOf(ravi)).plans;
    expect(first!.id).toBe(plan.id);
    // Next Monday evening, at another partner than the first date's.
    expect(second).toMatchObject({ status: 'PROPOSED', isSecondDate: true, date: '2026-11-30', time: '19:00', restaurant: { id: far.id } });
  });
});
