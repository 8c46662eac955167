import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AdminDatesResponse } from '#common/contract/dating-plans.ts';
import { kolkataInstant } from '#common/domain/time.ts';
import { bearer } from '#server/test/app.ts';
import { bookedPair, call, DAY, far, matchedPair, near, plansOf, reservationOf, setUpDatePlansFixture, t } from './date-plans.test-support.ts';

/**
 * Date plans' notice, wishes and arrivals on a real database (decisions 250, 252, 253): no plan
 * less than 24 hours ahead without both members' consent, none for a pair whose wishes do not
 * hold, and arrivals only from 30 minutes before the start, undoable for 10 minutes. "Now" is Monday 2026-11-23, 10:00 in Kolkata; the members are free on Monday
 * evenings, so tonight's 19:00 is the first table that fits.
 */
setUpDatePlansFixture();

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
