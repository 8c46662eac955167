import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AvailableTodayResponse } from '#common/contract/restaurants.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp, requestHold } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltRestaurant } from '#server/test/factories.ts';
import { openSlotsBetweenQuery } from './availability.repository.ts';

/**
 * GET /api/discover/available-today: every restaurant a party of two can still book in the
 * next 24 hours (Kolkata), with those times, from one query over slots_starts_at_idx.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW)); // 10:00 on Mon 2026-11-23 in Kolkata; cut-off 30 minutes

async function availableToday(): Promise<AvailableTodayResponse> {
  const response = await t.app.inject({ method: 'GET', url: '/api/discover/available-today' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AvailableTodayResponse;
}
function entryOf(body: AvailableTodayResponse, restaurant: BuiltRestaurant) {
  return body.restaurants.find((entry) => entry.restaurant.slug === restaurant.slug);
}
function timesOf(body: AvailableTodayResponse, restaurant: BuiltRestaurant): string[] | undefined {
  return entryOf(body, restaurant)?.slots.map((slot) => `${slot.date} ${slot.time}`);
}
async function hold(restaurant: BuiltRestaurant, date: string, time: string, partySize: number) {
  const diner = await buildDiner(t.database.db);
  const response = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date, time, partySize });
  expect(response.statusCode, response.body).toBe(201);
}

describe('GET /api/discover/available-today', () => {
  let open: BuiltRestaurant;
  let hotSpot: BuiltRestaurant;
  let fullByBookings: BuiltRestaurant;
  let oneCoverLeft: BuiltRestaurant;
  let twoCoversLeft: BuiltRestaurant;
  let pastOnly: BuiltRestaurant;
  let closedByStaff: BuiltRestaurant;
  let beyondOnly: BuiltRestaurant;
  let heldThenExpired: BuiltRestaurant;

  beforeAll(async () => {
    const db = t.database.db;
    open = await buildRestaurant(db, {
      name: 'Alpha Open Kitchen',
      category: 'dinner',
      neighborhood: 'Koramangala',
      cuisineTags: ['Modern Indian', 'Grill'],
      emoji: '🍽️',
    });
    for (const [date, time] of [
      ['2026-11-23', '09:30'], // already started
      ['2026-11-23', '10:30'], // exactly at the cut-off: closed
      ['2026-11-23', '10:31'], // just past the cut-off: open
      ['2026-11-23', '19:00'],
      ['2026-11-24', '00:30'], // after midnight, inside 24 hours
      ['2026-11-24', '10:00'], // exactly 24 hours ahead
      ['2026-11-24', '10:30'], // beyond 24 hours
      ['2026-11-24', '19:00'],
    ]) {
      await buildSlot(db, open.id, { date, time, capacity: 6 });
    }

    hotSpot = await buildRestaurant(db, { name: 'Zulu Hot Grill', hot: true, category: 'bar' });
    await buildSlot(db, hotSpot.id, { date: '2026-11-23', time: '20:00', capacity: 4 });

    fullByBookings = await buildRestaurant(db, { name: 'Full By Bookings' });
    await buildSlot(db, fullByBookings.id, { date: '2026-11-23', time: '20:00', capacity: 4 });
    await hold(fullByBookings, '2026-11-23', '20:00', 4);

    oneCoverLeft = await buildRestaurant(db, { name: 'One Cover Left' });
    await buildSlot(db, oneCoverLeft.id, { date: '2026-11-23', time: '20:00', capacity: 5 });
    await hold(oneCoverLeft, '2026-11-23', '20:00', 4);

    twoCoversLeft = await buildRestaurant(db, { name: 'Two Covers Left' });
    await buildSlot(db, twoCoversLeft.id, { date: '2026-11-23', time: '20:00', capacity: 6 });
    await hold(twoCoversLeft, '2026-11-23', '20:00', 4);

    pastOnly = await buildRestaurant(db, { name: 'Past Only' });
    for (const time of ['08:00', '10:00', '10:15', '10:30']) await buildSlot(db, pastOnly.id, { date: '2026-11-23', time, capacity: 8 });

    closedByStaff = await buildRestaurant(db, { name: 'Closed By Staff' });
    const staff = await buildStaff(db, closedByStaff.id);
    for (const time of ['19:00', '20:00']) {
      const slot = await buildSlot(db, closedByStaff.id, { date: '2026-11-23', time, capacity: 8 });
      const closed = await t.app.inject({ method: 'PATCH', url: `/api/admin/slots/${slot.id}`, headers: bearer(staff.token), payload: { status: 'full' } });
      expect(closed.statusCode, closed.body).toBe(200);
    }

    beyondOnly = await buildRestaurant(db, { name: 'Beyond Only' });
    await buildSlot(db, beyondOnly.id, { date: '2026-11-24', time: '10:30', capacity: 8 });
    await buildSlot(db, beyondOnly.id, { date: '2026-11-25', time: '19:00', capacity: 8 });

    heldThenExpired = await buildRestaurant(db, { name: 'Held Then Expired' });
    await buildSlot(db, heldThenExpired.id, { date: '2026-11-23', time: '21:00', capacity: 2 });
    await hold(heldThenExpired, '2026-11-23', '21:00', 2);
  });

  it('answers {restaurants: [{restaurant, slots}]} with the documented fields only', async () => {
    const body = await availableToday();
    expect(Object.keys(body)).toEqual(['restaurants']);
    const entry = entryOf(body, open)!;
    expect(entry.restaurant).toEqual({
      id: open.id,
      slug: open.slug,
      name: 'Alpha Open Kitchen',
      emoji: '🍽️',
      neighborhood: 'Koramangala',
      category: 'dinner',
      cuisineTags: ['Modern Indian', 'Grill'],
      hot: false,
    });
    for (const slot of entry.slots) {
      expect(Object.keys(slot).sort()).toEqual(['date', 'freeCovers', 'slot_id', 'time']);
      expect(slot.slot_id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('lists the open times of the next 24 hours in order, across midnight, past the cut-off', async () => {
    expect(timesOf(await availableToday(), open)).toEqual(['2026-11-23 10:31', '2026-11-23 19:00', '2026-11-24 00:30', '2026-11-24 10:00']);
  });

  it('leaves out restaurants whose only slots are full by bookings, past, inside the cut-off, closed by staff or beyond 24 hours', async () => {
    const body = await availableToday();
    for (const restaurant of [fullByBookings, pastOnly, closedByStaff, beyondOnly, heldThenExpired]) {
      expect(entryOf(body, restaurant), restaurant.name).toBeUndefined();
    }
  });

  it('needs room for a party of two: one free cover is not enough, two are', async () => {
    const body = await availableToday();
    expect(entryOf(body, oneCoverLeft)).toBeUndefined();
    expect(entryOf(body, twoCoversLeft)?.slots.map((slot) => slot.freeCovers)).toEqual([2]);
    expect(entryOf(body, open)?.slots.every((slot) => slot.freeCovers === 6)).toBe(true);
  });

  it('puts hot restaurants first, then by name', async () => {
    const names = (await availableToday()).restaurants.map((entry) => entry.restaurant.name);
    expect(names).toEqual(['Zulu Hot Grill', 'Alpha Open Kitchen', 'Two Covers Left']);
  });

  it('puts a chosen neighbourhood first and keeps only the first N when asked (the home strip, decision 079)', async () => {
    const names = async (query: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/discover/available-today?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as AvailableTodayResponse).restaurants.map((entry) => entry.restaurant.name);
    };
    expect(await names('hood=Koramangala')).toEqual(['Alpha Open Kitchen', 'Zulu Hot Grill', 'Two Covers Left']);
    expect(await names('hood=Koramangala&limit=2')).toEqual(['Alpha Open Kitchen', 'Zulu Hot Grill']);
    expect(await names('limit=1')).toEqual(['Zulu Hot Grill']);
    // A neighbourhood with nothing open today leaves the usual order.
    expect(await names('hood=Whitefield')).toEqual(['Zulu Hot Grill', 'Alpha Open Kitchen', 'Two Covers Left']);
    for (const query of ['hood=Atlantis', 'limit=0', 'limit=51', 'limit=two']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/discover/available-today?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(typeof response.json().error).toBe('string');
    }
  });

  it('brings a restaurant back when a hold on its last covers expires', async () => {
    expect(entryOf(await availableToday(), heldThenExpired)).toBeUndefined();
    t.clock.advance(t.config.holdMinutes * 60_000);
    expect(timesOf(await availableToday(), heldThenExpired)).toEqual(['2026-11-23 21:00']);
  });

  it('counts the 24 hours in Kolkata, whatever the UTC date', async () => {
    // 19:00 UTC on the 23rd is 00:30 on the 24th in Kolkata.
    t.clock.set('2026-11-23T19:00:00.000Z');
    const late = await buildRestaurant(t.database.db, { name: 'After Hours' });
    await buildSlot(t.database.db, late.id, { date: '2026-11-25', time: '00:15', capacity: 4 }); // 23h45 ahead
    await buildSlot(t.database.db, late.id, { date: '2026-11-25', time: '00:45', capacity: 4 }); // 24h15 ahead
    const body = await availableToday();
    expect(timesOf(body, late)).toEqual(['2026-11-25 00:15']);
    // The 00:30 slot starts now, so only 10:00 and later remain for the open restaurant.
    expect(timesOf(body, open)).toEqual(['2026-11-24 10:00', '2026-11-24 10:30', '2026-11-24 19:00']);
  });

  it('answers an empty list when nothing is open', async () => {
    t.clock.set('2027-06-01T04:30:00.000Z');
    expect(await availableToday()).toEqual({ restaurants: [] });
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}
function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe('the available-today query plan', () => {
  it('reads slots by a range on slots_starts_at_idx, touching only the window, not every day stored', async () => {
    const db = t.database.db;
    // 40 restaurants × 400 days × 4 evening times = 64,000 slots.
    await db.execute(sql`
      INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category)
      SELECT 'plan-' || n, 'Plan Restaurant ' || n, '🍴', 'Indiranagar', false, ARRAY['Indian'], 'indian'
      FROM generate_series(1, 40) AS n`);
    await db.execute(sql`
      INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity)
      SELECT r.id, d::date, t, (d::date + t::time) AT TIME ZONE 'Asia/Kolkata', 8
      FROM restaurants r
      CROSS JOIN generate_series('2026-06-01'::date, '2027-07-05'::date, interval '1 day') AS d
      CROSS JOIN unnest(ARRAY['18:00', '19:00', '20:00', '21:00']) AS t
      WHERE r.slug LIKE 'plan-%'`);
    await db.execute(sql`ANALYZE slots`);
    await db.execute(sql`ANALYZE restaurants`);
    await db.execute(sql`ANALYZE reservations`);

    const now = new Date(TEST_NOW);
    const until = new Date(now.getTime() + 24 * 3_600_000);
    const cutoff = new Date(now.getTime() + t.config.bookingCutoffMinutes * 60_000);
    const [{ total, in_window: inWindow }] = await queryRows<{ total: number; in_window: number }>(
      db,
      sql`SELECT count(*)::int AS total,
                 count(*) FILTER (WHERE starts_at > ${cutoff.toISOString()} AND starts_at <= ${until.toISOString()})::int AS in_window
          FROM slots`,
    );
    expect(total).toBeGreaterThan(60_000);
    expect(inWindow).toBeGreaterThan(100);

    const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
      db,
      sql`EXPLAIN (ANALYZE, FORMAT JSON) ${openSlotsBetweenQuery(now, until, t.config.bookingCutoffMinutes, 2)}`,
    );
    const raw = row['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    const nodes = planNodes(plan[0].Plan);
    const summary = JSON.stringify(nodes.map((node) => [node['Node Type'], node['Relation Name'] ?? node['Index Name']]));

    expect(
      nodes.filter((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'slots'),
      summary,
    ).toEqual([]);
    const indexScans = nodes.filter((node) => node['Index Name'] === 'slots_starts_at_idx');
    expect(indexScans, summary).toHaveLength(1);
    expect(indexScans[0]['Index Cond']).toMatch(/starts_at > .*starts_at <= |starts_at <= .*starts_at > /);

    // The rows the slot scan reads are those of the window, not the 64,000 stored.
    const slotScan = nodes.find((node) => node['Relation Name'] === 'slots')!;
    const rowsRead =
      ((slotScan['Actual Rows'] ?? 0) + (slotScan['Rows Removed by Filter'] ?? 0) + (slotScan['Rows Removed by Index Recheck'] ?? 0)) *
      (slotScan['Actual Loops'] ?? 1);
    expect(rowsRead).toBe(inWindow);
  });
});
