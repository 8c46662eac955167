import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp, requestHold } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, type BuiltRestaurant } from '#server/test/factories.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW)); // 10:00 on Mon 2026-11-23 in Kolkata

function availability(key: string, query: string) {
  return t.app.inject({ method: 'GET', url: `/api/restaurants/${key}/availability?${query}` });
}
async function available(key: string, date: string, partySize: number): Promise<Record<string, boolean>> {
  const response = await availability(key, `date=${date}&partySize=${partySize}`);
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries((response.json() as { time: string; available: boolean }[]).map((entry) => [entry.time, entry.available]));
}
async function hold(restaurant: BuiltRestaurant, date: string, time: string, partySize: number) {
  const diner = await buildDiner(t.database.db);
  const response = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date, time, partySize });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

describe('GET /api/restaurants/{slug}/availability', () => {
  let restaurant: BuiltRestaurant;
  const DATE = '2026-11-24';
  beforeAll(async () => {
    restaurant = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '21:00', capacity: 2 });
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '12:00', capacity: 4 });
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 8 });
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-25', time: '19:00', capacity: 8 });
  });

  it('lists the slots of that date in time order as {id, time, available}', async () => {
    const response = await availability(restaurant.slug, `date=${DATE}&partySize=2`);
    expect(response.statusCode).toBe(200);
    const entries = response.json() as { id: string; time: string; available: boolean }[];
    expect(entries.map((e) => e.time)).toEqual(['12:00', '19:00', '21:00']);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['available', 'id', 'time']);
      expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const byId = await availability(restaurant.id, `date=${DATE}&partySize=2`);
    expect(byId.json()).toEqual(entries);
  });

  it('marks a slot available only when its free covers seat the whole party', async () => {
    expect(await available(restaurant.slug, DATE, 2)).toEqual({ '12:00': true, '19:00': true, '21:00': true });
    expect(await available(restaurant.slug, DATE, 3)).toEqual({ '12:00': true, '19:00': true, '21:00': false });
    expect(await available(restaurant.slug, DATE, 5)).toEqual({ '12:00': false, '19:00': true, '21:00': false });
    expect(await available(restaurant.slug, DATE, 9)).toEqual({ '12:00': false, '19:00': false, '21:00': false });
  });

  it('counts holds at once, and stops counting an expired hold at its expiry instant', async () => {
    await hold(restaurant, DATE, '19:00', 3);
    expect((await available(restaurant.slug, DATE, 5))['19:00']).toBe(true);
    expect((await available(restaurant.slug, DATE, 6))['19:00']).toBe(false);
    t.clock.advance(t.config.holdMinutes * 60_000 - 1);
    expect((await available(restaurant.slug, DATE, 6))['19:00']).toBe(false);
    t.clock.advance(1);
    expect((await available(restaurant.slug, DATE, 6))['19:00']).toBe(true);
    expect((await available(restaurant.slug, DATE, 8))['19:00']).toBe(true);
  });

  it('is unavailable when the party takes the last covers exactly or more', async () => {
    await hold(restaurant, '2026-11-25', '19:00', 6);
    expect(await available(restaurant.slug, '2026-11-25', 2)).toEqual({ '19:00': true });
    expect(await available(restaurant.slug, '2026-11-25', 3)).toEqual({ '19:00': false });
  });

  it('closes a slot staff set to full, whatever covers it has', async () => {
    const closed = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, closed.id, { date: DATE, time: '19:00', capacity: 20, status: 'full' });
    await buildSlot(t.database.db, closed.id, { date: DATE, time: '20:00', capacity: 20 });
    expect(await available(closed.slug, DATE, 1)).toEqual({ '19:00': false, '20:00': true });
  });

  it('closes slots already started or within BOOKING_CUTOFF_MINUTES of now', async () => {
    expect(t.config.bookingCutoffMinutes).toBe(30);
    const today = await buildRestaurant(t.database.db);
    for (const time of ['09:00', '10:00', '10:29', '10:30', '10:31', '19:00']) {
      await buildSlot(t.database.db, today.id, { date: '2026-11-23', time });
    }
    await buildSlot(t.database.db, today.id, { date: '2026-11-22', time: '19:00' });
    expect(await available(today.slug, '2026-11-23', 2)).toEqual({
      '09:00': false,
      '10:00': false,
      '10:29': false,
      '10:30': false,
      '10:31': true,
      '19:00': true,
    });
    expect(await available(today.slug, '2026-11-22', 2)).toEqual({ '19:00': false });
    t.clock.advance(60_000);
    expect((await available(today.slug, '2026-11-23', 2))['10:31']).toBe(false);
  });

  it('answers [] for a date with no slots, and 404 for an unknown restaurant', async () => {
    expect((await availability(restaurant.slug, 'date=2026-12-01&partySize=2')).json()).toEqual([]);
    const missing = await availability('no-such-place', 'date=2026-12-01&partySize=2');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Restaurant not found' });
  });

  it.each([
    ['date=2026-02-30&partySize=2', 'date'],
    ['date=24-11-2026&partySize=2', 'date'],
    ['date=tomorrow&partySize=2', 'date'],
    ['date=&partySize=2', 'date'],
    ['partySize=2', 'date'],
    ['date=2026-11-24&date=2026-11-25&partySize=2', 'date'],
    ['date=2026-11-24&partySize=abc', 'partySize'],
    ['date=2026-11-24&partySize=0', 'partySize'],
    ['date=2026-11-24&partySize=21', 'partySize'],
    ['date=2026-11-24&partySize=2.5', 'partySize'],
    ['date=2026-11-24&partySize=-2', 'partySize'],
    ['date=2026-11-24&partySize=', 'partySize'],
    ['date=2026-11-24', 'partySize'],
  ])('answers ?%s with 400 naming %s', async (query, field) => {
    const response = await availability(restaurant.slug, query);
    expect(response.statusCode).toBe(400);
    const body = response.json() as { error: string };
    expect(body.error).toMatch(new RegExp(`^${field}\\b`));
    expect(body.error).not.toMatch(/\bat\b.*\.ts:\d+/);
  });
});

describe('GET /api/restaurants/{slug}/calendar', () => {
  // One minute after midnight in Kolkata (still the 22nd in UTC): "today" is the 23rd.
  const JUST_AFTER_MIDNIGHT = '2026-11-22T18:31:00.000Z';
  let restaurant: BuiltRestaurant;

  beforeAll(async () => {
    restaurant = await buildRestaurant(t.database.db);
    const slot = (date: string, time: string, capacity: number, status: 'available' | 'full' = 'available') =>
      buildSlot(t.database.db, restaurant.id, { date, time, capacity, status });
    await slot('2026-11-22', '23:00', 8); // yesterday
    await slot('2026-11-23', '00:20', 8); // within the cut-off
    await slot('2026-11-24', '19:00', 1); // too small for any probed size
    await slot('2026-11-25', '19:00', 5);
    await slot('2026-11-26', '19:00', 8, 'full');
    await slot('2026-11-27', '12:00', 2);
    await slot('2026-11-27', '19:00', 6);
    await slot('2026-11-28', '19:00', 8);
    await slot('2026-12-22', '19:00', 6); // the 30th day
    await slot('2026-12-23', '19:00', 8); // the 31st day: beyond the horizon
  });

  async function calendar(key: string) {
    const response = await t.app.inject({ method: 'GET', url: `/api/restaurants/${key}/calendar` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { from: string; days: { date: string; partySizes: number[] }[]; firstAvailableDate: string | null };
  }

  it('covers 30 days from today in Kolkata, whatever the UTC date', async () => {
    t.clock.set(JUST_AFTER_MIDNIGHT);
    const body = await calendar(restaurant.slug);
    expect(body.from).toBe('2026-11-23');
    expect(body.days).toHaveLength(30);
    expect(body.days[0].date).toBe('2026-11-23');
    expect(body.days[8].date).toBe('2026-12-01');
    expect(body.days[29].date).toBe('2026-12-22');
    t.clock.set('2026-11-22T18:29:00.000Z');
    expect((await calendar(restaurant.slug)).from).toBe('2026-11-22');
  });

  it('lists, per day, the party sizes 2/4/6/8 that fit some open slot', async () => {
    t.clock.set(JUST_AFTER_MIDNIGHT);
    await hold(restaurant, '2026-11-27', '19:00', 3); // 6 → 3 free; the 12:00 slot has 2
    const body = await calendar(restaurant.slug);
    const sizes = Object.fromEntries(body.days.map((day) => [day.date, day.partySizes]));
    expect(sizes['2026-11-23']).toEqual([]);
    expect(sizes['2026-11-24']).toEqual([]);
    expect(sizes['2026-11-25']).toEqual([2, 4]);
    expect(sizes['2026-11-26']).toEqual([]);
    expect(sizes['2026-11-27']).toEqual([2]);
    expect(sizes['2026-11-28']).toEqual([2, 4, 6, 8]);
    expect(sizes['2026-12-22']).toEqual([2, 4, 6]);
    expect(sizes['2026-12-23']).toBeUndefined();
    expect(body.days.filter((day) => day.partySizes.length > 0).map((day) => day.date)).toEqual(['2026-11-25', '2026-11-27', '2026-11-28', '2026-12-22']);
    expect(body.firstAvailableDate).toBe('2026-11-25');
    t.clock.advance(t.config.holdMinutes * 60_000);
    expect((await calendar(restaurant.slug)).days.find((day) => day.date === '2026-11-27')!.partySizes).toEqual([2, 4, 6]);
  });

  it('moves firstAvailableDate on as days fill up', async () => {
    t.clock.set(JUST_AFTER_MIDNIGHT);
    await hold(restaurant, '2026-11-25', '19:00', 4); // 1 free: no probed size fits
    expect((await calendar(restaurant.slug)).firstAvailableDate).toBe('2026-11-27');
  });

  it('answers null firstAvailableDate and empty days for a restaurant with nothing open', async () => {
    const empty = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, empty.id, { date: '2026-12-30', time: '19:00' }); // beyond 30 days
    const body = await calendar(empty.id);
    expect(body.firstAvailableDate).toBeNull();
    expect(body.days).toHaveLength(30);
    expect(body.days.every((day) => day.partySizes.length === 0)).toBe(true);
  });

  it('answers 404 for an unknown restaurant', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/restaurants/nowhere-at-all/calendar' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Restaurant not found' });
  });
});
