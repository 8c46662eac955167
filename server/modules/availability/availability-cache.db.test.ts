import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeListenerName, openPostgres, queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, TEST_TODAY, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * Availability is answered from memory (decision 073). These prove the memory is really used,
 * and that every committed change still shows at once: through the database's own notification,
 * whoever wrote it.
 */
let t: TestApp;
const DATE = '2026-11-24';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

async function available(key: string, partySize: number): Promise<Record<string, boolean>> {
  const response = await t.app.inject({ method: 'GET', url: `/api/restaurants/${key}/availability?date=${DATE}&partySize=${partySize}` });
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries((response.json() as { time: string; available: boolean }[]).map((entry) => [entry.time, entry.available]));
}

async function calendarSizes(key: string, date = DATE): Promise<number[]> {
  const response = await t.app.inject({ method: 'GET', url: `/api/restaurants/${key}/calendar` });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { days: { date: string; partySizes: number[] }[] }).days.find((day) => day.date === date)!.partySizes;
}

/** POST /api/reservations as `token` (a party of 2 on DATE), through `app`. */
function holdForTwo(app: TestApp, token: string, slug: string, time: string) {
  return requestHold(app.app, token, { restaurantSlug: slug, date: DATE, time, partySize: 2 });
}

describe('availability from memory', () => {
  let restaurant: BuiltRestaurant;
  let slotId: string;
  beforeAll(async () => {
    restaurant = await buildRestaurant(t.database.db);
    slotId = (await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 4 })).id;
    // On PostgreSQL the listening connection opens in the background; until it does, nothing is kept.
    await vi.waitFor(() => expect(t.database.availabilityChanges.deliveryEpoch()).not.toBeNull(), { timeout: 5_000 });
  });

  it('answers from memory: a write that bypasses the triggers is not seen until something else changes', async () => {
    expect(await available(restaurant.slug, 4)).toEqual({ '19:00': true });
    // session_replication_role = replica switches triggers off for this transaction only: the
    // one kind of write the cache cannot hear of (an operator's bulk load, say).
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`UPDATE slots SET capacity = 2 WHERE id = ${slotId}`);
    });
    expect(await available(restaurant.slug, 4)).toEqual({ '19:00': true });
    // Any change that goes through the triggers brings the entry up to date.
    await t.database.db.execute(sql`UPDATE slots SET status = 'available' WHERE id = ${slotId}`);
    expect(await available(restaurant.slug, 4)).toEqual({ '19:00': false });
    await t.database.db.execute(sql`UPDATE slots SET capacity = 4 WHERE id = ${slotId}`);
  });

  it('shows a change written straight to the database by the next read, for the slug, the id and the calendar', async () => {
    expect(await available(restaurant.slug, 4)).toEqual({ '19:00': true });
    expect(await available(restaurant.id, 4)).toEqual({ '19:00': true });
    expect(await calendarSizes(restaurant.slug)).toEqual([2, 4]);
    await t.database.db.execute(sql`UPDATE slots SET status = 'full' WHERE id = ${slotId}`);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': false });
    expect(await available(restaurant.id, 2)).toEqual({ '19:00': false });
    expect(await calendarSizes(restaurant.slug)).toEqual([]);
    await t.database.db.execute(sql`UPDATE slots SET status = 'available' WHERE id = ${slotId}`);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true });
  });

  it('sends a repeated read from the answer kept for it, and a booking still changes the next read at once', async () => {
    const url = `/api/restaurants/${restaurant.slug}/availability?date=${DATE}&partySize=2`;
    const first = await t.app.inject({ method: 'GET', url });
    const held = t.app.services.availability.heldAvailabilityTexts();
    expect(held.characters).toBeGreaterThan(0);
    // The same answer, byte for byte, with the same headers, and nothing more kept for it.
    const again = await t.app.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).toBeDefined();
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(t.app.services.availability.heldAvailabilityTexts()).toEqual(held);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true });
    // A booking that takes every cover: the kept answer goes with the announced write.
    const diner = await buildDiner(t.database.db);
    const hold = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: DATE, time: '19:00', partySize: 4 });
    expect(hold.statusCode, hold.body).toBe(201);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': false });
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': false });
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/reservations/${(hold.json() as { id: string }).id}/cancel`,
      headers: bearer(diner.token),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true });
  });

  it('shows a new slot, a hold and its expiry without waiting for any sweep', async () => {
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '21:00', capacity: 2 });
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true, '21:00': true });
    const diner = await buildDiner(t.database.db);
    const hold = await holdForTwo(t, diner.token, restaurant.slug, '21:00');
    expect(hold.statusCode, hold.body).toBe(201);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true, '21:00': false });
    // The hold lapses at its instant; nothing is written, the memory answers for the new "now".
    t.clock.advance(11 * 60_000);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true, '21:00': true });
    const [{ status }] = await queryRows<{ status: string }>(
      t.database.db,
      sql`SELECT status FROM reservations WHERE id = ${(hold.json() as { id: string }).id}`,
    );
    expect(status).toBe('HELD');
    // Read again after the expiry (an announced change makes it a fresh read, which leaves the
    // lapsed hold out), then the clock set back (only tests do that): the hold counts again.
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-26', time: '19:00', capacity: 2 });
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true, '21:00': true });
    t.clock.set(TEST_NOW);
    expect(await available(restaurant.slug, 2)).toEqual({ '19:00': true, '21:00': false });
  });

  it('keeps a computed calendar only until the next hold expiry or cut-off, with no write in between', async () => {
    const small = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, small.id, { date: DATE, time: '19:00', capacity: 2 });
    const diner = await buildDiner(t.database.db);
    const hold = await holdForTwo(t, diner.token, small.slug, '19:00');
    expect(hold.statusCode, hold.body).toBe(201);
    expect(await calendarSizes(small.slug)).toEqual([]);
    t.clock.advance(9 * 60_000);
    expect(await calendarSizes(small.slug)).toEqual([]);
    t.clock.advance(2 * 60_000); // past the hold's 10 minutes
    expect(await calendarSizes(small.slug)).toEqual([2]);
    // Today's only slot, 19:00: open until its cut-off at 18:30 (13:00 UTC), then gone from the same kept entry.
    const TODAY = TEST_TODAY;
    await buildSlot(t.database.db, small.id, { date: TODAY, time: '19:00', capacity: 2 });
    expect(await calendarSizes(small.slug, TODAY)).toEqual([2]);
    t.clock.set('2026-11-23T12:59:59.000Z');
    expect(await calendarSizes(small.slug, TODAY)).toEqual([2]);
    t.clock.set('2026-11-23T13:00:00.000Z');
    expect(await calendarSizes(small.slug, TODAY)).toEqual([]);
  });

  it('refuses a hold on a full slot with the message the locked path gives, and still books a slot with room', async () => {
    const full = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '13:00', capacity: 2 });
    const first = await buildDiner(t.database.db);
    const second = await buildDiner(t.database.db);
    const book = (token: string, time: string) => holdForTwo(t, token, restaurant.slug, time);
    expect((await book(first.token, '13:00')).statusCode).toBe(201);
    const refused = await book(second.token, '13:00');
    expect(refused.statusCode).toBe(409);
    // The refusal names the nearest times still free that day (decision 240).
    expect(refused.json()).toEqual({ error: 'That time is no longer available', details: { nearestTimes: [{ date: DATE, time: '19:00' }] } });
    // The diner's own rule still wins over "full": the same diner again is told about their booking.
    const again = await book(first.token, '13:00');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'You already have a reservation at that date and time' });
    const [{ covers }] = await queryRows<{ covers: number }>(
      t.database.db,
      sql`SELECT coalesce(sum(party_size), 0)::int AS covers FROM reservations WHERE slot_id = ${full.id} AND status = 'HELD'`,
    );
    expect(covers).toBe(2);
  });
});

describe.runIf(process.env.DATABASE_URL)('availability from memory across instances (PostgreSQL)', () => {
  it('a second instance on the same database sees a change made by the first within a second', async () => {
    // Another process's view: its own pool and listener on the same schema.
    const [{ schema }] = await queryRows<{ schema: string }>(t.database.db, sql`SELECT current_schema() AS schema`);
    const otherDatabase = await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 2, searchPath: `${schema},public` });
    const other = await createTestApp({ database: otherDatabase });
    try {
      const restaurant = await buildRestaurant(t.database.db);
      await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '20:00', capacity: 2 });
      const read = async (app: TestApp) => {
        const response = await app.app.inject({ method: 'GET', url: `/api/restaurants/${restaurant.slug}/availability?date=${DATE}&partySize=2` });
        return (response.json() as { available: boolean }[])[0].available;
      };
      // Once the other instance listens, fill its memory.
      await expect.poll(() => otherDatabase.availabilityChanges.deliveryEpoch(), { timeout: 5_000 }).not.toBeNull();
      expect(await read(other)).toBe(true);
      const diner = await buildDiner(t.database.db);
      const hold = await holdForTwo(t, diner.token, restaurant.slug, '20:00');
      expect(hold.statusCode, hold.body).toBe(201);
      await expect.poll(() => read(other), { timeout: 1_000, interval: 10 }).toBe(false);
    } finally {
      await other.app.close();
      await otherDatabase.close();
    }
  });

  it('reads from the database while the listening connection is down, and listens again once it is back', async () => {
    const feed = t.database.availabilityChanges;
    await expect.poll(() => feed.deliveryEpoch(), { timeout: 5_000 }).not.toBeNull();
    const before = feed.deliveryEpoch()!;
    const restaurant = await buildRestaurant(t.database.db);
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '20:00', capacity: 2 });
    await t.database.db.execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${changeListenerName()}`);
    await expect.poll(() => feed.deliveryEpoch(), { timeout: 2_000, interval: 5 }).toBeNull();
    // While nothing is sure to be heard, a change that bypasses the triggers is still seen: nothing is served from memory.
    expect(await available(restaurant.slug, 2)).toEqual({ '20:00': true });
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`UPDATE slots SET status = 'full' WHERE id = ${slot.id}`);
    });
    expect(await available(restaurant.slug, 2)).toEqual({ '20:00': false });
    await expect.poll(() => feed.deliveryEpoch(), { timeout: 10_000, interval: 50 }).toBeGreaterThan(before);
  });
});
