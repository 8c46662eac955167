import { describe, expect, it } from 'vitest';
import type { DepositPolicyBody } from '#common/contract/deposits.ts';
import { buildDiner, buildSlot } from '#server/test/factories.ts';
import { call, hold, setUpStaffFixture, staffX, staffY, t, TODAY, TOMORROW, wrongKinds, x, y } from '#server/test/staff-fixture.ts';

/**
 * The deposit policy through HTTP (decision 120): staff read and replace their own
 * restaurant's; diners see each slot's ask on the availability answer and the whole requirement
 * on the hold view. TODAY (2026-11-23) is a Monday; "now" is 10:00 in Kolkata.
 */
setUpStaffFixture();

const policy: DepositPolicyBody = {
  defaultCharge: { kind: 'deposit', perCoverPaise: 25_000 },
  rules: [{ days: [1], fromTime: '20:30', untilTime: '22:00', kind: 'prepayment', perCoverPaise: 150_000 }],
  freeCancelMinutes: 180,
  lateCancelKeepPercent: 50,
  noShowKeepPercent: 100,
};

async function availabilityOf(slug: string, date: string) {
  const response = await call('GET', `/api/restaurants/${slug}/availability?date=${date}&partySize=2`);
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries((response.json() as { time: string; deposit?: unknown }[]).map((entry) => [entry.time, entry.deposit ?? null]));
}

describe('GET/PUT /api/admin/deposit-policy', () => {
  it('reads as no deposit until staff save one', async () => {
    const response = await call('GET', '/api/admin/deposit-policy', staffX.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      defaultCharge: { kind: 'none', perCoverPaise: 0 },
      rules: [],
      freeCancelMinutes: 120,
      lateCancelKeepPercent: 100,
      noShowKeepPercent: 100,
      updatedAt: null,
    });
  });

  it("replaces the staff's own restaurant's policy, rules in order, and leaves the other's alone", async () => {
    const saved = await call('PUT', '/api/admin/deposit-policy', staffX.token, policy);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject(policy);
    const read = (await call('GET', '/api/admin/deposit-policy', staffX.token)).json();
    expect(read).toMatchObject(policy);
    expect(typeof read.updatedAt).toBe('string');
    expect((await call('GET', '/api/admin/deposit-policy', staffY.token)).json()).toMatchObject({ defaultCharge: { kind: 'none' }, updatedAt: null });

    // A second save replaces every rule (none left behind).
    const twoRules = { ...policy, rules: [policy.rules[0], { days: [0, 6], fromTime: '12:00', untilTime: '15:00', kind: 'none', perCoverPaise: 0 }] };
    expect((await call('PUT', '/api/admin/deposit-policy', staffX.token, twoRules)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/deposit-policy', staffX.token)).json().rules).toEqual(twoRules.rules);
    expect((await call('PUT', '/api/admin/deposit-policy', staffX.token, policy)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/deposit-policy', staffX.token)).json().rules).toEqual(policy.rules);
  });

  it('refuses every other kind of caller with 401 and changes nothing', async () => {
    for (const caller of wrongKinds()) {
      expect((await call('GET', '/api/admin/deposit-policy', caller.token)).statusCode, caller.name).toBe(401);
      const put = await call('PUT', '/api/admin/deposit-policy', caller.token, { ...policy, defaultCharge: { kind: 'deposit', perCoverPaise: 1 } });
      expect(put.statusCode, caller.name).toBe(401);
    }
    expect((await call('GET', '/api/admin/deposit-policy', staffX.token)).json().defaultCharge).toEqual(policy.defaultCharge);
  });

  it('refuses each invalid field with a 400 naming it, and changes nothing', async () => {
    const rule = policy.rules[0];
    const cases: [object, RegExp][] = [
      [{ ...policy, defaultCharge: { kind: 'card_hold', perCoverPaise: 100 } }, /kind must be one of none, deposit, prepayment/],
      [{ ...policy, defaultCharge: { kind: 'deposit', perCoverPaise: -1 } }, /perCoverPaise cannot be negative/],
      [{ ...policy, defaultCharge: { kind: 'deposit', perCoverPaise: 250.5 } }, /perCoverPaise must be a whole number of paise/],
      [{ ...policy, defaultCharge: { kind: 'deposit', perCoverPaise: '500' } }, /perCoverPaise must be a number of paise/],
      [{ ...policy, defaultCharge: { kind: 'deposit', perCoverPaise: 0 } }, /perCoverPaise: enter an amount a guest/],
      [{ ...policy, defaultCharge: { kind: 'deposit', perCoverPaise: 5_000_001 } }, /at most ₹50,000 a guest/],
      [{ ...policy, rules: [{ ...rule, untilTime: '20:00' }] }, /untilTime: the range must end at or after it starts/],
      [{ ...policy, rules: [{ ...rule, days: [] }] }, /days: choose at least one day/],
      [{ ...policy, rules: [{ ...rule, days: [1, 1] }] }, /days: each day once/],
      [{ ...policy, rules: [{ ...rule, fromTime: '8pm' }] }, /fromTime: Use a time written HH:MM/],
      [{ ...policy, freeCancelMinutes: -5 }, /freeCancelMinutes must be between 0 and 10080/],
      [{ ...policy, lateCancelKeepPercent: 101 }, /lateCancelKeepPercent must be between 0 and 100/],
      [{ ...policy, noShowKeepPercent: 12.5 }, /noShowKeepPercent must be a whole percentage/],
      [{ ...policy, rules: Array.from({ length: 21 }, () => rule) }, /rules: at most 20/],
    ];
    for (const [payload, message] of cases) {
      const response = await call('PUT', '/api/admin/deposit-policy', staffX.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toMatch(message);
    }
    expect((await call('GET', '/api/admin/deposit-policy', staffX.token)).json()).toMatchObject(policy);
  });
});

describe("the diner's view of the policy", () => {
  it('puts each slot’s ask on the availability answer, following a policy change at once', async () => {
    for (const time of ['19:00', '21:00']) await buildSlot(t.database.db, y.id, { date: TODAY, time });
    expect(await availabilityOf(y.slug, TODAY)).toEqual({ '19:00': null, '21:00': null });
    // Without a deposit the answer keeps the spec's exact shape.
    const plain = (await call('GET', `/api/restaurants/${y.slug}/availability?date=${TODAY}&partySize=2`)).json() as object[];
    for (const entry of plain) expect(Object.keys(entry).sort()).toEqual(['available', 'id', 'time']);
    const saved = await call('PUT', '/api/admin/deposit-policy', staffY.token, policy);
    expect(saved.statusCode, saved.body).toBe(200);
    // The save notifies the availability cache like a slot write does: no stale answer.
    expect(await availabilityOf(y.slug, TODAY)).toEqual({
      '19:00': { kind: 'deposit', perCoverPaise: 25_000 },
      '21:00': { kind: 'prepayment', perCoverPaise: 150_000 },
    });
    // Tuesday: the Monday rule does not apply; a date beyond the cache's horizon reads the same way.
    await buildSlot(t.database.db, y.id, { date: TOMORROW, time: '21:00' });
    expect(await availabilityOf(y.slug, TOMORROW)).toEqual({ '21:00': { kind: 'deposit', perCoverPaise: 25_000 } });
    await buildSlot(t.database.db, y.id, { date: '2027-03-01', time: '21:00' }); // a Monday, 98 days ahead
    expect(await availabilityOf(y.slug, '2027-03-01')).toEqual({ '21:00': { kind: 'prepayment', perCoverPaise: 150_000 } });
    await call('PUT', '/api/admin/deposit-policy', staffY.token, { ...policy, defaultCharge: { kind: 'none', perCoverPaise: 0 }, rules: [] });
  });

  it('shows the hold the whole requirement in plain words, and none where none applies', async () => {
    await buildSlot(t.database.db, x.id, { date: TODAY, time: '21:00' });
    const someone = await buildDiner(t.database.db);
    const held = await hold(someone.token, x.slug, TODAY, '21:00', 2);
    expect(held.statusCode, held.body).toBe(201);
    const view = await call('GET', `/api/reservations/${held.json().id}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().deposit).toEqual({
      kind: 'prepayment',
      amountPaise: 300_000,
      perCoverPaise: 150_000,
      freeCancelUntil: '2026-11-23T12:30:00.000Z',
      lateCancelKeepPaise: 150_000,
      noShowKeepPaise: 300_000,
      plainWords:
        'A prepayment of ₹3,000 (₹1,500 a guest) is blocked on your card or UPI now. It pays for your meal when you are seated. Cancel before 6:00 PM on Mon, 23 Nov and it is released in full; if you cancel after that, ₹1,500 is kept, and if you do not come, ₹3,000 is kept.',
    });

    await buildSlot(t.database.db, y.id, { date: TODAY, time: '20:00' });
    const free = await hold(someone.token, y.slug, TODAY, '20:00', 2);
    expect(free.statusCode, free.body).toBe(201);
    expect((await call('GET', `/api/reservations/${free.json().id}`)).json().deposit).toEqual({ kind: 'none' });
  });
});

describe("a drop's deposit", () => {
  const dropBody = (date: string) => ({
    title: 'Chef’s counter',
    dateFrom: date,
    dateTo: date,
    times: ['19:30'],
    capacity: 6,
    entryOpensAt: '2026-11-23T04:00:00.000Z',
    entryClosesAt: '2026-11-24T04:00:00.000Z',
    releaseAt: '2026-11-24T04:00:00.000Z',
  });

  it('is set per guest in the admin form and shown on the drop', async () => {
    const created = await call('POST', '/api/admin/drops', staffY.token, { ...dropBody('2026-11-30'), depositPerCoverPaise: 40_000 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().depositPerCoverPaise).toBe(40_000);
    expect((await call('GET', `/api/drops/${created.json().id}`)).json().depositPerCoverPaise).toBe(40_000);
    const none = await call('POST', '/api/admin/drops', staffY.token, { ...dropBody('2026-12-01'), depositPerCoverPaise: 0 });
    expect(none.statusCode, none.body).toBe(201);
    expect(none.json().depositPerCoverPaise).toBeNull();
  });

  it('refuses a negative or fractional amount with a 400 naming it', async () => {
    for (const depositPerCoverPaise of [-100, 99.5]) {
      const response = await call('POST', '/api/admin/drops', staffY.token, { ...dropBody('2026-12-02'), depositPerCoverPaise });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/^depositPerCoverPaise/);
    }
  });
});
