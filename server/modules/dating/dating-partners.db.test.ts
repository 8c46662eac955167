import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatePartnerProfile, DatePartnerSetting } from '#common/contract/dating.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff, type BuiltAccount } from '#server/test/factories.ts';

/**
 * Restaurants opting in as date partners (decision 183): staff set their own
 * restaurant's profile in the dating section's words, change it, and stop hosting; nobody else's.
 */
let t: TestApp;
let staffX: BuiltAccount;
let staffY: BuiltAccount;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(TEST_NOW);
  staffX = await buildStaff(t.database.db, (await buildRestaurant(t.database.db, { name: 'Candle Light Cafe' })).id);
  staffY = await buildStaff(t.database.db, (await buildRestaurant(t.database.db, { name: 'Other Place' })).id);
});
afterAll(() => t.close());

const profile: DatePartnerProfile = {
  budget: 'INR_1000_2500',
  neighbourhood: 'Indiranagar',
  cuisines: ['ITALIAN', 'THAI'],
  dateTypes: ['DINNER', 'QUICK_COCKTAIL'],
};

function call(method: 'GET' | 'PUT' | 'DELETE', token: string, payload?: unknown) {
  return t.app.inject({ method, url: '/api/admin/date-partner', headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
}

describe('date partners', () => {
  it('opts the staff’s own restaurant in, changes its profile keeping the first opt-in time, and stops hosting', async () => {
    expect((await call('GET', staffX.token)).json()).toEqual({ partner: null });

    const saved = await call('PUT', staffX.token, profile);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<DatePartnerSetting>()).toEqual({ partner: { ...profile, optedInAt: TEST_NOW } });

    t.clock.advance(60_000);
    const changed = await call('PUT', staffX.token, { ...profile, budget: 'INR_2500_5000', cuisines: ['JAPANESE'] });
    expect(changed.json<DatePartnerSetting>().partner).toEqual({ ...profile, budget: 'INR_2500_5000', cuisines: ['JAPANESE'], optedInAt: TEST_NOW });

    // Another restaurant's staff see only their own.
    expect((await call('GET', staffY.token)).json()).toEqual({ partner: null });

    expect((await call('DELETE', staffX.token)).json()).toEqual({ partner: null });
    expect((await call('GET', staffX.token)).json()).toEqual({ partner: null });
  });

  it('refuses what is not in the dating section’s words, with a sentence saying what', async () => {
    const refusals: [unknown, RegExp][] = [
      [{ ...profile, cuisines: [] }, /Pick at least one cuisine/],
      [{ ...profile, cuisines: ['PIZZA'] }, /Choose cuisines from the list/],
      [{ ...profile, cuisines: ['THAI', 'THAI'] }, /Pick each cuisine once/],
      [{ ...profile, dateTypes: ['GO_KARTING'] }, /Choose the kinds of date from the list/],
      [{ ...profile, neighbourhood: 'Mars' }, /Choose a neighbourhood from the list/],
      [{ ...profile, budget: 'FREE' }, /Choose what a date for two costs here/],
    ];
    for (const [body, message] of refusals) {
      const response = await call('PUT', staffX.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: string }>().error).toMatch(message);
    }
    expect((await call('GET', staffX.token)).json()).toEqual({ partner: null });
  });

  it('is for staff only', async () => {
    const diner = await buildDiner(t.database.db);
    expect((await call('PUT', diner.token, profile)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/date-partner' })).statusCode).toBe(401);
  });
});
