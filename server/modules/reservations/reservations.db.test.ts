import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, coversHeld, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

let t: TestApp;
let restaurant: BuiltRestaurant;
let diner: BuiltAccount;

beforeAll(async () => {
  t = await createTestApp();
  restaurant = await buildRestaurant(t.database.db);
  diner = await buildDiner(t.database.db);
});
afterAll(() => t.close());

const DATE = '2026-11-23';

async function hold(token: string, time: string, partySize = 2) {
  return t.app.inject({
    method: 'POST',
    url: '/api/reservations',
    headers: bearer(token),
    payload: { restaurantSlug: restaurant.slug, date: DATE, time, partySize },
  });
}

describe('holding a table', () => {
  it('creates a HELD reservation that takes its covers at once', async () => {
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 4 });
    const response = await hold(diner.token, '19:00', 3);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.status).toBe('HELD');
    expect(body.slot).toEqual({ date: DATE, time: '19:00' });
    expect(Date.parse(body.holdExpiresAt) - t.clock.now().getTime()).toBe(10 * 60_000);
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(3);

    const other = await buildDiner(t.database.db);
    const refused = await hold(other.token, '19:00', 2);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'That time is no longer available' });
  });

  it('frees the covers at the expiry instant, before any sweep', async () => {
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '20:00', capacity: 2 });
    const first = await buildDiner(t.database.db);
    expect((await hold(first.token, '20:00')).statusCode).toBe(201);
    t.clock.advance(10 * 60_000);
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(0);
    const second = await buildDiner(t.database.db);
    expect((await hold(second.token, '20:00')).statusCode).toBe(201);
  });

  it('refuses an anonymous caller and names the missing field', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/reservations', payload: {} });
    expect(anonymous.statusCode).toBe(400);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      payload: { restaurantSlug: restaurant.slug, date: DATE, time: '19:00', partySize: 2 },
    });
    expect(noToken.statusCode).toBe(401);
    const badSize = await hold(diner.token, '19:00', 0);
    expect(badSize.statusCode).toBe(400);
    expect(badSize.json().error).toMatch(/partySize/);
  });
});
