import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AvailableTodayResponse } from '#common/contract/restaurants.ts';
import { createTestApp, requestHold, TEST_NOW, type TestApp, TEST_TODAY as TODAY } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * GET /api/discover/available-today on a restaurant with a floor (decision 240): a time is listed
 * only when a table or combination seats a party of two for its whole turn, and `freeCovers` is the
 * largest party the floor seats then (every size up to it), not the slot's free covers.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW)); // 10:00 on Mon 2026-11-23 in Kolkata

async function saveFloor(restaurant: BuiltRestaurant, tables: { name: string; minCovers: number; maxCovers: number }[]) {
  const staff = await buildStaff(t.database.db, restaurant.id);
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/floor/tables',
    headers: { authorization: `Bearer ${staff.token}` },
    payload: { tables: tables.map((table) => ({ ...table, section: 'indoor', onlineBookable: true })), combinations: [] },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function todayTimes(restaurant: BuiltRestaurant): Promise<Record<string, number>> {
  const response = await t.app.inject({ method: 'GET', url: '/api/discover/available-today' });
  expect(response.statusCode, response.body).toBe(200);
  const entry = (response.json() as AvailableTodayResponse).restaurants.find((candidate) => candidate.restaurant.slug === restaurant.slug);
  return Object.fromEntries((entry?.slots ?? []).map((slot) => [slot.time, slot.freeCovers]));
}

describe('the today strip follows the floor', () => {
  it('says the largest party a table seats, not the slot’s free covers', async () => {
    const smallRoom = await buildRestaurant(t.database.db, { name: 'Small Room Floor' });
    await buildSlot(t.database.db, smallRoom.id, { date: TODAY, time: '19:00', capacity: 12 });
    await saveFloor(smallRoom, [
      { name: 'T4', minCovers: 2, maxCovers: 4 },
      { name: 'T2', minCovers: 1, maxCovers: 2 },
    ]);
    expect(await todayTimes(smallRoom)).toEqual({ '19:00': 4 });
  });

  it('says the largest party below which every size has a table, so a filter by party size never shows an unseatable time', async () => {
    const gappedRoom = await buildRestaurant(t.database.db, { name: 'Gapped Room Floor' });
    await buildSlot(t.database.db, gappedRoom.id, { date: TODAY, time: '19:00', capacity: 12 });
    // Twos fit the 2-top and fours to sixes the 6-top, but no table seats three.
    await saveFloor(gappedRoom, [
      { name: 'T2', minCovers: 1, maxCovers: 2 },
      { name: 'T6', minCovers: 4, maxCovers: 6 },
    ]);
    expect(await todayTimes(gappedRoom)).toEqual({ '19:00': 2 });
  });

  it('leaves out a time whose only table is taken by a turn that started earlier', async () => {
    const oneTable = await buildRestaurant(t.database.db, { name: 'One Table Floor' });
    await buildSlot(t.database.db, oneTable.id, { date: TODAY, time: '18:00', capacity: 8 });
    await buildSlot(t.database.db, oneTable.id, { date: TODAY, time: '19:00', capacity: 8 });
    await buildSlot(t.database.db, oneTable.id, { date: TODAY, time: '20:00', capacity: 8 });
    await saveFloor(oneTable, [{ name: 'T4', minCovers: 1, maxCovers: 4 }]);
    expect(await todayTimes(oneTable)).toEqual({ '18:00': 4, '19:00': 4, '20:00': 4 });
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: oneTable.slug, date: TODAY, time: '18:00', partySize: 2 });
    expect(held.statusCode, held.body).toBe(201);
    // A two's turn is 75 minutes: 18:00-19:15 takes the table at 19:00, and 18:00 itself; 20:00 is free.
    expect(await todayTimes(oneTable)).toEqual({ '20:00': 4 });
  });
});
