import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltRestaurant } from '#server/test/factories.ts';
import { buildVerifiedDiner, createDrop, dropReservations, enterDrop, type DropInput } from './drops.test-support.ts';
import { HOUR_MS } from '#common/domain/time.ts';
import { HELD_FOR_DROP } from '#server/modules/reservations/reservation-view.ts';

/** The portal's drop calls, the drop lifecycle around the draw, and the per-diner limits. */
let t: TestApp;
let restaurant: BuiltRestaurant;
let staffToken: string;
let otherStaffToken: string;

const at = (hours: number) => new Date(Date.parse(TEST_NOW) + hours * HOUR_MS).toISOString();
const validDrop = (overrides: Partial<DropInput> = {}): DropInput => ({
  dateFrom: '2026-11-30',
  dateTo: '2026-11-30',
  times: ['19:00'],
  capacity: 4,
  entryOpensAt: at(1),
  entryClosesAt: at(2),
  releaseAt: at(2),
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  restaurant = await buildRestaurant(t.database.db);
  staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
  otherStaffToken = (await buildStaff(t.database.db, (await buildRestaurant(t.database.db)).id)).token;
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

describe('staff create drops', () => {
  it('takes existing times with nothing booked into the drop: they leave normal booking and the drop sets their covers (decision 226)', async () => {
    const [seven, nine] = [
      await buildSlot(t.database.db, restaurant.id, { date: '2026-12-14', time: '19:00', capacity: 10 }),
      await buildSlot(t.database.db, restaurant.id, { date: '2026-12-14', time: '21:00', capacity: 10 }),
    ];
    const diner = await buildDiner(t.database.db);
    const before = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: '2026-12-14', time: '19:00', partySize: 2 });
    expect(before.statusCode, before.body).toBe(201);
    expect((await call('POST', `/api/reservations/${before.json().id}/cancel`, diner.token, {})).statusCode).toBe(200);

    const refusedWithout = await call('POST', '/api/admin/drops', staffToken, {
      title: 'Prime time',
      ...validDrop({ dateFrom: '2026-12-14', dateTo: '2026-12-15', times: ['19:00', '21:00'] }),
    });
    expect(refusedWithout.statusCode).toBe(409);
    const taken = await call('POST', '/api/admin/drops', staffToken, {
      title: 'Prime time',
      ...validDrop({ dateFrom: '2026-12-14', dateTo: '2026-12-15', times: ['19:00', '21:00'], capacity: 6 }),
      takeExistingTimes: true,
    });
    expect(taken.statusCode, taken.body).toBe(201);
    const drop = taken.json();
    expect(drop.slotCount).toBe(4);
    expect(drop.slots.map((slot: { id: string }) => slot.id)).toEqual(expect.arrayContaining([seven.id, nine.id]));
    const rows = await queryRows<{ drop_id: string | null; capacity: number; status: string }>(
      t.database.db,
      sql`SELECT drop_id, capacity, status FROM slots WHERE id IN (${seven.id}, ${nine.id})`,
    );
    expect(rows).toEqual([
      { drop_id: drop.id, capacity: 6, status: 'available' },
      { drop_id: drop.id, capacity: 6, status: 'available' },
    ]);
    const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: '2026-12-14', time: '19:00', partySize: 2 });
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toBe(HELD_FOR_DROP);
  });

  it('refuses to take times with bookings on them, naming each booked time, and changes nothing', async () => {
    await buildSlot(t.database.db, restaurant.id, { date: '2026-12-16', time: '19:00', capacity: 10 });
    await buildSlot(t.database.db, restaurant.id, { date: '2026-12-16', time: '20:00', capacity: 10 });
    await buildSlot(t.database.db, restaurant.id, { date: '2026-12-16', time: '21:00', capacity: 10 });
    for (const [time, partySize] of [
      ['19:00', 2],
      ['21:00', 4],
      ['21:00', 1],
    ] as const) {
      const diner = await buildDiner(t.database.db);
      const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: '2026-12-16', time, partySize });
      expect(held.statusCode, held.body).toBe(201);
    }
    const slotsBefore = await queryRows(t.database.db, sql`SELECT id, drop_id, capacity FROM slots WHERE restaurant_id = ${restaurant.id} ORDER BY id`);
    const dropsBefore = await queryRows(t.database.db, sql`SELECT id FROM drops WHERE restaurant_id = ${restaurant.id}`);
    const refused = await call('POST', '/api/admin/drops', staffToken, {
      title: 'Prime time',
      ...validDrop({ dateFrom: '2026-12-16', dateTo: '2026-12-16', times: ['19:00', '20:00', '21:00'] }),
      takeExistingTimes: true,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'These times have bookings, so they cannot go into a drop: Wed, 16 Dec at 7:00 PM (1 booking, 2 guests), Wed, 16 Dec at 9:00 PM (2 bookings, 5 guests). Leave them out, or move or cancel those bookings first.',
    );
    expect(await queryRows(t.database.db, sql`SELECT id, drop_id, capacity FROM slots WHERE restaurant_id = ${restaurant.id} ORDER BY id`)).toEqual(
      slotsBefore,
    );
    expect(await queryRows(t.database.db, sql`SELECT id FROM drops WHERE restaurant_id = ${restaurant.id}`)).toEqual(dropsBefore);
  });

  it("never takes another drop's times", async () => {
    const first = await createDrop(t, staffToken, validDrop({ dateFrom: '2026-12-18', dateTo: '2026-12-18', times: ['19:00'] }));
    const second = await call('POST', '/api/admin/drops', staffToken, {
      title: 'Second',
      ...validDrop({ dateFrom: '2026-12-18', dateTo: '2026-12-18', times: ['19:00'] }),
      takeExistingTimes: true,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe('Fri, 18 Dec at 7:00 PM is already in the drop “Chef’s table”: choose other dates or times');
    expect(first).toBeTruthy();
  });

  it('creates every date × time as a hidden slot and lists the drop for diners and staff', async () => {
    const response = await call('POST', '/api/admin/drops', staffToken, {
      title: 'Diwali tasting menu',
      description: 'Twelve courses',
      dateFrom: '2026-11-28',
      dateTo: '2026-11-29',
      times: ['21:00', '19:00'],
      capacity: 6,
      entryOpensAt: at(1),
      entryClosesAt: at(25),
      releaseAt: at(26),
    });
    expect(response.statusCode, response.body).toBe(201);
    const drop = response.json();
    expect(drop).toMatchObject({
      title: 'Diwali tasting menu',
      phase: 'upcoming',
      dateFrom: '2026-11-28',
      dateTo: '2026-11-29',
      times: ['19:00', '21:00'],
      slotCount: 4,
      capacity: 6,
      entryCount: 0,
      seed: null,
      entries: [],
      restaurant: { slug: restaurant.slug },
    });
    expect(drop.slots.map((slot: { date: string; time: string }) => `${slot.date} ${slot.time}`)).toEqual([
      '2026-11-28 19:00',
      '2026-11-28 21:00',
      '2026-11-29 19:00',
      '2026-11-29 21:00',
    ]);
    const list = (await call('GET', '/api/drops')).json();
    expect(list.upcoming.map((d: { id: string }) => d.id)).toContain(drop.id);
    expect((await call('GET', '/api/admin/drops', staffToken)).json().map((d: { id: string }) => d.id)).toContain(drop.id);
    expect((await call('GET', '/api/admin/drops', otherStaffToken)).json().map((d: { id: string }) => d.id)).not.toContain(drop.id);
    // Hidden from normal availability, and from the calendar, until the line has had its turn.
    const calendar = (await call('GET', `/api/restaurants/${restaurant.slug}/calendar`)).json();
    expect(calendar.days.find((day: { date: string }) => day.date === '2026-11-28').partySizes).toEqual([]);
  });

  it('answers 400 naming the field for every bad value', async () => {
    const cases: [Partial<DropInput> & { title?: unknown }, string][] = [
      [{ title: '' }, 'title is required'],
      [{ dateFrom: '2026-11-01', dateTo: '2026-11-01' }, 'dateFrom must not be in the past'],
      [{ dateFrom: '2026-12-02', dateTo: '2026-12-01' }, 'dateTo must be on or after dateFrom'],
      [{ dateFrom: '2026-12-01', dateTo: '2027-01-05' }, 'dateTo: a drop spans at most 31 days'],
      [{ times: [] }, 'times: list one or more times, e.g. ["19:00", "21:00"]'],
      [{ times: ['19:00', '19:00'] }, 'times: list each time only once'],
      [{ times: ['7pm'] }, 'times.0: Use a time written HH:MM (24-hour)'],
      [{ capacity: 0 }, 'capacity must be between 1 and 500 covers'],
      [{ entryOpensAt: 'tomorrow' }, 'entryOpensAt: Use a date and time like 2026-11-30T18:00:00+05:30'],
      [{ entryClosesAt: at(1) }, 'entryClosesAt must be after entryOpensAt'],
      [{ releaseAt: at(1.5) }, 'releaseAt must be at or after entryClosesAt'],
      [{ entryOpensAt: at(-3), entryClosesAt: at(-2), releaseAt: at(-1) }, 'entryClosesAt must be in the future'],
      [
        { dateFrom: '2026-11-23', dateTo: '2026-11-23', times: ['12:00'], entryClosesAt: at(2), releaseAt: at(3) },
        "releaseAt must be at least 30 minutes before the drop's first slot (Mon, 23 Nov at 12:00 PM)",
      ],
    ];
    for (const [overrides, error] of cases) {
      const response = await call('POST', '/api/admin/drops', staffToken, { title: 'Bad drop', ...validDrop(), ...overrides });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error, JSON.stringify(overrides)).toBe(error);
    }
  });

  it('refuses a drop over a time the restaurant already has, and keeps other restaurants out', async () => {
    await buildSlot(t.database.db, restaurant.id, { date: '2026-12-01', time: '20:00' });
    const clash = await call('POST', '/api/admin/drops', staffToken, {
      title: 'Clash',
      ...validDrop({ dateFrom: '2026-12-01', dateTo: '2026-12-01', times: ['20:00'] }),
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: 'There is already a slot on Tue, 1 Dec at 8:00 PM: choose other dates or times' });
    const id = await createDrop(t, staffToken, validDrop({ dateFrom: '2026-12-02', dateTo: '2026-12-02' }));
    expect((await call('GET', `/api/admin/drops/${id}`, otherStaffToken)).json()).toEqual({ error: 'Drop not found' });
    expect((await call('GET', `/api/admin/drops/${id}`, otherStaffToken)).statusCode).toBe(404);
    const diner = await buildDiner(t.database.db);
    expect((await call('GET', `/api/admin/drops/${id}`, diner.token)).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/drops', diner.token, { title: 'Not mine', ...validDrop() })).statusCode).toBe(401);
    expect((await call('GET', '/api/drops/00000000-0000-4000-8000-000000000000')).json()).toEqual({ error: 'Drop not found' });
  });
});

describe('the drop around its draw', () => {
  it('lets a diner withdraw before the draw and leave the line after it, but not once a table is theirs', async () => {
    const id = await createDrop(t, staffToken, validDrop({ dateFrom: '2026-12-03', dateTo: '2026-12-03', capacity: 2 }));
    const [a, b, c] = [await buildVerifiedDiner(t.database.db), await buildVerifiedDiner(t.database.db), await buildVerifiedDiner(t.database.db)];
    t.clock.set(at(1.5));
    for (const diner of [a, b, c]) expect((await enterDrop(t, diner.token, id)).statusCode).toBe(201);
    const withdrawn = await call('DELETE', `/api/drops/${id}/entries`, c.token);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().myEntry).toBeNull();
    expect((await call('DELETE', `/api/drops/${id}/entries`, c.token)).json()).toEqual({ error: 'You have not entered this drop' });
    // A second chance inside the window.
    expect((await enterDrop(t, c.token, id)).statusCode).toBe(201);
    expect((await call('DELETE', `/api/drops/${id}/entries`, c.token)).statusCode).toBe(200);

    t.clock.set(at(2));
    const [winner, waiting] = (await call('GET', `/api/drops/${id}`, a.token)).json().myEntry.result.state === 'won' ? [a, b] : [b, a];
    expect((await call('GET', `/api/drops/${id}`, waiting.token)).json().myEntry.result).toEqual({ state: 'waiting', placeInLine: 1 });
    expect((await call('DELETE', `/api/drops/${id}/entries`, winner.token)).json()).toEqual({
      error: 'A table from this drop is already yours: cancel the reservation instead',
    });
    const left = await call('DELETE', `/api/drops/${id}/entries`, waiting.token);
    expect(left.json().myEntry.result).toEqual({ state: 'withdrawn' });

    // The winner completes the booking from the drop page's reservation id.
    const won = (await call('GET', `/api/drops/${id}`, winner.token)).json().myEntry.result;
    expect((await call('POST', `/api/reservations/${won.reservationId}/confirm`, winner.token, {})).statusCode).toBe(200);
    expect((await call('GET', `/api/drops/${id}`, winner.token)).json().myEntry.result).toMatchObject({
      state: 'booked',
      status: 'PENDING',
      slot: { date: '2026-12-03', time: '19:00' },
    });
    // No one is left in line: the drop's tables join normal availability.
    await t.app.services.dropOffers.runDueWork();
    const [drop] = await queryRows<{ opened_to_all_at: unknown }>(t.database.db, sql`SELECT opened_to_all_at FROM drops WHERE id = ${id}`);
    expect(drop.opened_to_all_at).not.toBeNull();
  });

  it('opens leftover tables to everyone when fewer enter than there are tables', async () => {
    const id = await createDrop(t, staffToken, validDrop({ dateFrom: '2026-12-04', dateTo: '2026-12-04', times: ['19:00', '20:00'], capacity: 2 }));
    const entrant = await buildVerifiedDiner(t.database.db);
    t.clock.set(at(1.5));
    expect((await enterDrop(t, entrant.token, id)).statusCode).toBe(201);
    const walkIn = await buildDiner(t.database.db);
    const early = await call('POST', '/api/reservations', walkIn.token, { restaurantSlug: restaurant.slug, date: '2026-12-04', time: '20:00', partySize: 2 });
    expect(early.statusCode).toBe(409);
    t.clock.set(at(2));
    expect(await t.app.services.dropOffers.advanceDrop(id)).toEqual({ drew: true, offers: 1 });
    // The entrant's table is the earliest; the 20:00 one is anyone's now.
    expect((await dropReservations(t.database.db, id, t.clock.now())).map((r) => r.user_id)).toEqual([entrant.id]);
    const late = await call('POST', '/api/reservations', walkIn.token, { restaurantSlug: restaurant.slug, date: '2026-12-04', time: '20:00', partySize: 2 });
    expect(late.statusCode, late.body).toBe(201);
  });

  it('passes over a winner at their hold limit, who keeps their place for the next chance', async () => {
    const id = await createDrop(t, staffToken, validDrop({ dateFrom: '2026-12-05', dateTo: '2026-12-05', capacity: 2 }));
    const [a, b] = [await buildVerifiedDiner(t.database.db), await buildVerifiedDiner(t.database.db)];
    t.clock.set(at(1.5));
    for (const diner of [a, b]) expect((await enterDrop(t, diner.token, id)).statusCode).toBe(201);
    // Both already hold two tables elsewhere when the drop is released.
    t.clock.set(new Date(Date.parse(at(2)) - 5 * 60_000));
    const holds = new Map<string, string[]>();
    for (const [index, diner] of [a, b].entries()) {
      for (const time of [`12:${index}0`, `13:${index}0`]) {
        await buildSlot(t.database.db, restaurant.id, { date: '2026-12-06', time });
        const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: '2026-12-06', time, partySize: 2 });
        expect(held.statusCode).toBe(201);
        holds.set(diner.id, [...(holds.get(diner.id) ?? []), held.json().id]);
      }
    }
    t.clock.set(at(2));
    expect(await t.app.services.dropOffers.advanceDrop(id)).toEqual({ drew: true, offers: 0 });
    const [firstInLine] = await queryRows<{ user_id: string }>(t.database.db, sql`SELECT user_id FROM drop_entries WHERE drop_id = ${id} AND position = 1`);
    const first = firstInLine.user_id === a.id ? a : b;
    const second = first === a ? b : a;
    expect((await call('GET', `/api/drops/${id}`, first.token)).json().myEntry.result).toEqual({ state: 'waiting', placeInLine: 1 });
    // Both free a hold; the first in line, not the faster one, gets the table at the next run.
    for (const diner of [second, first]) {
      expect((await call('POST', `/api/reservations/${holds.get(diner.id)![0]}/cancel`, diner.token, {})).statusCode).toBe(200);
    }
    await t.app.services.dropOffers.runDueWork();
    expect((await dropReservations(t.database.db, id, t.clock.now())).map((r) => r.user_id)).toEqual([first.id]);
    expect((await call('GET', `/api/drops/${id}`, second.token)).json().myEntry.result).toEqual({ state: 'waiting', placeInLine: 1 });
  });
});

describe('per-diner limits', () => {
  it('refuses a fifth upcoming reservation with its own message (MAX_UPCOMING_RESERVATIONS)', async () => {
    const diner = await buildDiner(t.database.db);
    const times = ['17:00', '17:30', '18:00', '18:30', '19:00'];
    for (const time of times) await buildSlot(t.database.db, restaurant.id, { date: '2026-12-10', time });
    for (const time of times.slice(0, 4)) {
      const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: '2026-12-10', time, partySize: 2 });
      expect(held.statusCode).toBe(201);
      expect((await call('POST', `/api/reservations/${held.json().id}/confirm`, diner.token, {})).statusCode).toBe(200);
    }
    const fifth = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: '2026-12-10', time: '19:00', partySize: 2 });
    expect(fifth.statusCode).toBe(409);
    expect(fifth.json()).toEqual({ error: 'You already have 4 upcoming reservations. Cancel one before booking another.' });
  });
});
