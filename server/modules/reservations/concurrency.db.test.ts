import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { createTestApp, requestHold, TEST_NOW, type TestApp, TEST_TODAY as DATE } from '#server/test/app.ts';
import { createTestDatabase } from '#server/test/database.ts';
import { buildDiner, buildRestaurant, buildSlot, coversHeld, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * Zero oversell under real concurrency: on PostgreSQL (DATABASE_URL) with a pool of 20
 * connections the requests below truly run at once; on PGlite they interleave at every await.
 */
let t: TestApp;
let restaurant: BuiltRestaurant;

beforeAll(async () => {
  t = await createTestApp({ database: await createTestDatabase({ poolSize: 20 }) });
  restaurant = await buildRestaurant(t.database.db);
}, 120_000);
afterAll(() => t.close());

function hold(app: TestApp['app'], token: string, time: string, partySize: number, slug = restaurant.slug) {
  return requestHold(app, token, { restaurantSlug: slug, date: DATE, time, partySize });
}

async function rowsOnSlot(slotId: string) {
  const [row] = await queryRows<{ reservations: number; events: number; covers: number }>(
    t.database.db,
    sql`SELECT count(*)::int AS reservations, coalesce(sum(r.party_size), 0)::int AS covers,
               (SELECT count(*)::int FROM reservation_events e JOIN reservations x ON x.id = e.reservation_id WHERE x.slot_id = ${slotId}) AS events
        FROM reservations r WHERE r.slot_id = ${slotId}`,
  );
  return row;
}

describe('racing for one slot', () => {
  it('gives 200 diners racing for 8 covers exactly 8 holds and 192 × 409', async () => {
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 8 });
    const diners: BuiltAccount[] = [];
    for (let i = 0; i < 200; i++) diners.push(await buildDiner(t.database.db));

    const responses = await Promise.all(diners.map((diner) => hold(t.app, diner.token, '19:00', 1)));

    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(8);
    expect(statuses.filter((status) => status === 409)).toHaveLength(192);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toEqual({ error: 'That time is no longer available' });
    }
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(8);
    expect(await rowsOnSlot(slot.id)).toEqual({ reservations: 8, covers: 8, events: 8 });
    const winners = new Set(responses.filter((r) => r.statusCode === 201).map((r) => r.json().id));
    expect(winners.size).toBe(8);
  }, 120_000);

  it('never oversells parties of mixed sizes, and leaves no party that would still fit refused', async () => {
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:30', capacity: 10 });
    const sizes = Array.from({ length: 60 }, (_, i) => (i % 4) + 1);
    const diners: BuiltAccount[] = [];
    for (let i = 0; i < sizes.length; i++) diners.push(await buildDiner(t.database.db));

    const responses = await Promise.all(diners.map((diner, i) => hold(t.app, diner.token, '19:30', sizes[i])));

    const won = sizes.filter((_, i) => responses[i].statusCode === 201).reduce((sum, size) => sum + size, 0);
    expect(responses.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    expect(won).toBeLessThanOrEqual(10);
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(won);
    // Each refusal was right when it was made: no party of one can have been refused while covers were free at the end.
    const refusedOnes = sizes.filter((size, i) => size === 1 && responses[i].statusCode === 409).length;
    if (refusedOnes > 0) expect(won).toBe(10);
  }, 120_000);
});

describe('one diner racing with themselves', () => {
  it('gets at most 2 holds out of 12 simultaneous ones', async () => {
    const diner = await buildDiner(t.database.db);
    const times = Array.from({ length: 12 }, (_, i) => `20:${String(i * 4).padStart(2, '0')}`);
    for (const time of times) await buildSlot(t.database.db, restaurant.id, { date: DATE, time, capacity: 8 });

    const responses = await Promise.all(times.map((time) => hold(t.app, diner.token, time, 2)));

    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(2);
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'You already have 2 holds waiting. Confirm or cancel one first.' });
    }
    const [row] = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM reservations WHERE user_id = ${diner.id}`);
    expect(row.count).toBe(2);
  }, 60_000);

  it('gets one reservation for one time even when asking two restaurants at once', async () => {
    const diner = await buildDiner(t.database.db);
    const others = [await buildRestaurant(t.database.db), await buildRestaurant(t.database.db)];
    for (const other of others) await buildSlot(t.database.db, other.id, { date: DATE, time: '21:00', capacity: 8 });

    const responses = await Promise.all(others.map((other) => hold(t.app, diner.token, '21:00', 2, other.slug)));

    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(responses.find((r) => r.statusCode === 409)!.json()).toEqual({ error: 'You already have a reservation at that date and time' });
  }, 60_000);
});

describe('two app instances whose clocks disagree', () => {
  it('does not let a lagging instance confirm a hold whose covers a leading one already gave away', async () => {
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '22:00', capacity: 8 });
    const lagging = t; // its clock reads TEST_NOW
    const leading = await createTestApp({ database: t.database, now: TEST_NOW });
    try {
      const first = await buildDiner(t.database.db);
      const second = await buildDiner(t.database.db);
      const held = await hold(lagging.app, first.token, '22:00', 8);
      expect(held.statusCode).toBe(201);
      const expiresAt = Date.parse(held.json().holdExpiresAt);

      // One second past the expiry for the leading instance; one second before it for the lagging one.
      leading.clock.set(new Date(expiresAt + 1000));
      lagging.clock.set(new Date(expiresAt - 1000));
      expect((await hold(leading.app, second.token, '22:00', 8)).statusCode).toBe(201);

      const confirm = await lagging.app.inject({ method: 'POST', url: `/api/reservations/${held.json().id}/confirm`, payload: {} });
      expect(confirm.statusCode).toBe(409);
      expect(confirm.json().error).toMatch(/\bCANCELLED\b/);
      // Judged from the second hold on (before it, by the lagging clock, it did not exist yet).
      for (const now of [leading.clock.now(), new Date(expiresAt + 3_600_000)]) {
        expect(await coversHeld(t.database.db, slot.id, now)).toBeLessThanOrEqual(8);
      }
    } finally {
      lagging.clock.set(TEST_NOW);
      await leading.app.close(); // the database is shared: the outer harness closes it
    }
  }, 60_000);
});
