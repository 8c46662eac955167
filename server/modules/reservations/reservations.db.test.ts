import { describe, expect, it } from 'vitest';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import { bearer } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, coversHeld } from '#server/test/factories.ts';
import {
  DATE,
  diner,
  eventsOf,
  expectRefusedCleanly,
  freshSlot,
  heldReservation,
  hold,
  move,
  reservationIn,
  restaurant,
  setUpReservationsFixture,
  t,
} from './reservations.test-support.ts';

/** Holding a table and reading reservations, through HTTP on a real database (the moves are reservation-moves.db.test.ts). */
setUpReservationsFixture();

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

  it('answers the reservation as its diner sees it, and writes its first history row', async () => {
    const owner = await buildDiner(t.database.db);
    const slot = await freshSlot(6);
    const response = await hold(owner.token, slot.time, 4);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      status: 'HELD',
      partySize: 4,
      restaurant: { id: restaurant.id, name: restaurant.name, slug: restaurant.slug, emoji: '🍛', neighborhood: 'Indiranagar' },
      slot: { date: DATE, time: slot.time },
      holdExpiresAt: new Date(t.clock.now().getTime() + 10 * MINUTE_MS).toISOString(),
      startsAt: kolkataInstant(DATE, slot.time).toISOString(),
      createdAt: t.clock.now().toISOString(),
    });
    expect(await eventsOf(body.id)).toEqual([{ from_status: null, to_status: 'HELD', actor_kind: 'diner', actor_id: owner.id, reason: null }]);
  });

  it('accepts the restaurant id in place of its slug', async () => {
    const owner = await buildDiner(t.database.db);
    const slot = await freshSlot();
    expect((await hold(owner.token, slot.time, 2, { slug: restaurant.id })).statusCode).toBe(201);
  });

  it('answers 404 for an unknown restaurant or a time it does not offer, writing nothing', async () => {
    const owner = await buildDiner(t.database.db);
    expect(await expectRefusedCleanly(() => hold(owner.token, '19:00', 2, { slug: 'no-such-place' }), 404)).toEqual({ error: 'Restaurant not found' });
    expect(await expectRefusedCleanly(() => hold(owner.token, '06:15'), 404)).toEqual({ error: 'That time is not offered on that date' });
    expect(await expectRefusedCleanly(() => hold(owner.token, '19:00', 2, { date: '2026-12-25' }), 404)).toEqual({
      error: 'That time is not offered on that date',
    });
  });

  it('refuses a slot staff closed, one already started and one within the cut-off, writing nothing', async () => {
    const owner = await buildDiner(t.database.db);
    const closed = await freshSlot(8, { status: 'full' });
    const started = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '09:30' });
    const cutoff = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '10:30' });
    const yesterday = await buildSlot(t.database.db, restaurant.id, { date: '2026-11-22', time: '19:00' });
    for (const slot of [closed, started, cutoff, yesterday]) {
      const body = await expectRefusedCleanly(() => hold(owner.token, slot.time, 2, { date: slot.date }), 409);
      expect(body.error).toBe('That time is no longer available');
    }
    const justOpen = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '10:31' });
    expect((await hold(owner.token, justOpen.time)).statusCode).toBe(201);
  });

  it('refuses a party larger than the free covers, and takes exactly the last ones', async () => {
    const slot = await freshSlot(5);
    const [a, b, c] = [await buildDiner(t.database.db), await buildDiner(t.database.db), await buildDiner(t.database.db)];
    expect((await hold(a.token, slot.time, 3)).statusCode).toBe(201);
    // The refusal also names the nearest times of that date with room for three (decision 240).
    expect(await expectRefusedCleanly(() => hold(b.token, slot.time, 3), 409)).toMatchObject({
      error: 'That time is no longer available',
      details: { nearestTimes: expect.arrayContaining([]) },
    });
    expect((await hold(c.token, slot.time, 2)).statusCode).toBe(201);
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(5);
  });

  it.each([
    [{ date: '2026-02-30' }, 'date'],
    [{ date: '23/11/2026' }, 'date'],
    [{ time: '7:30 PM' }, 'time'],
    [{ time: '24:00' }, 'time'],
    [{ partySize: 21 }, 'partySize'],
    [{ partySize: 'two' }, 'partySize'],
    [{ partySize: 2.5 }, 'partySize'],
    [{ partySize: null }, 'partySize'],
    [{ restaurantSlug: '' }, 'restaurantSlug'],
    [{ restaurantSlug: undefined }, 'restaurantSlug'],
    [{ date: undefined }, 'date'],
    [{ time: 1930 }, 'time'],
  ])('answers %j with 400 naming %s, writing nothing', async (change, field) => {
    const owner = await buildDiner(t.database.db);
    const slot = await freshSlot();
    const payload = { restaurantSlug: restaurant.slug, date: DATE, time: slot.time, partySize: 2, ...change };
    const body = await expectRefusedCleanly(() => t.app.inject({ method: 'POST', url: '/api/reservations', headers: bearer(owner.token), payload }), 400);
    expect(body.error).toMatch(new RegExp(`^${field}\\b`));
  });

  it('answers a body that is not an object with 400', async () => {
    const owner = await buildDiner(t.database.db);
    for (const payload of ['[]', '"x"', '{"restaurantSlug":']) {
      await expectRefusedCleanly(
        () => t.app.inject({ method: 'POST', url: '/api/reservations', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, payload }),
        400,
      );
    }
  });

  it('lets a diner have at most 2 unexpired holds', async () => {
    const owner = await buildDiner(t.database.db);
    const [a, b, c] = [await freshSlot(), await freshSlot(), await freshSlot()];
    expect((await hold(owner.token, a.time)).statusCode).toBe(201);
    const second = await hold(owner.token, b.time);
    expect(second.statusCode).toBe(201);
    expect(await expectRefusedCleanly(() => hold(owner.token, c.time), 409)).toEqual({
      error: 'You already have 2 holds waiting. Confirm or cancel one first.',
    });
    // Confirming one makes it a request, not a hold.
    expect((await move('confirm', second.json().id, owner.token)).statusCode).toBe(200);
    const third = await hold(owner.token, c.time);
    expect(third.statusCode).toBe(201);
    const d = await freshSlot();
    expect((await hold(owner.token, d.time)).statusCode).toBe(409);
    // Cancelling one frees a place.
    expect((await move('cancel', third.json().id, owner.token)).statusCode).toBe(200);
    expect((await hold(owner.token, d.time)).statusCode).toBe(201);
    // So does expiry, without any sweep.
    const e = await freshSlot();
    expect((await hold(owner.token, e.time)).statusCode).toBe(409);
    t.clock.advance(10 * MINUTE_MS);
    expect((await hold(owner.token, e.time)).statusCode).toBe(201);
  });

  it('refuses a second live reservation at the same date and time, even at another restaurant', async () => {
    const owner = await buildDiner(t.database.db);
    const elsewhere = await buildRestaurant(t.database.db);
    const mine = await freshSlot();
    await buildSlot(t.database.db, elsewhere.id, { date: DATE, time: mine.time });
    await buildSlot(t.database.db, elsewhere.id, { date: '2026-11-24', time: mine.time });
    const first = await hold(owner.token, mine.time);
    expect(first.statusCode).toBe(201);
    const sameTime = () => hold(owner.token, mine.time, 2, { slug: elsewhere.slug });
    expect(await expectRefusedCleanly(sameTime, 409)).toEqual({ error: 'You already have a reservation at that date and time' });
    expect(await expectRefusedCleanly(() => hold(owner.token, mine.time), 409)).toEqual({ error: 'You already have a reservation at that date and time' });
    // The same time on another day is a different reservation.
    expect((await hold(owner.token, mine.time, 2, { slug: elsewhere.slug, date: '2026-11-24' })).statusCode).toBe(201);
    // A confirmed request still blocks; a cancelled one no longer does.
    expect((await move('confirm', first.json().id, owner.token)).statusCode).toBe(200);
    expect((await sameTime()).statusCode).toBe(409);
    expect((await move('cancel', first.json().id, owner.token)).statusCode).toBe(200);
    expect((await sameTime()).statusCode).toBe(201);
  });

  it('lets the same time be held again once the earlier hold has expired', async () => {
    const owner = await buildDiner(t.database.db);
    const slot = await freshSlot();
    expect((await hold(owner.token, slot.time)).statusCode).toBe(201);
    t.clock.advance(10 * MINUTE_MS);
    expect((await hold(owner.token, slot.time)).statusCode).toBe(201);
  });

  it('refuses a revoked or unknown token with 401', async () => {
    const owner = await buildDiner(t.database.db);
    const slot = await freshSlot();
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(owner.token) });
    expect(await expectRefusedCleanly(() => hold(owner.token, slot.time), 401)).toEqual({ error: 'Your session has expired. Please sign in again.' });
    expect((await hold('not-a-token', slot.time)).statusCode).toBe(401);
  });
});

describe('reading reservations', () => {
  it('lists only the diner’s own: live ones soonest first, then the rest latest first', async () => {
    const owner = await buildDiner(t.database.db);
    const stranger = await buildDiner(t.database.db);
    const slot = (date: string, time: string) => buildSlot(t.database.db, restaurant.id, { date, time });
    await slot('2026-11-24', '19:00');
    await slot('2026-11-24', '20:00');
    await slot('2026-11-25', '19:00');
    await slot('2026-11-26', '19:00');
    await slot('2026-11-27', '19:00');
    const id = async (response: Promise<{ json(): { id: string } }>) => (await response).json().id;
    const expired = await id(hold(owner.token, '19:00', 2, { date: '2026-11-24' }));
    t.clock.advance(10 * MINUTE_MS); // that hold lapses: it now reads as CANCELLED
    const cancelled = await id(hold(owner.token, '19:00', 2, { date: '2026-11-26' }));
    await move('cancel', cancelled, owner.token);
    const pending = await id(hold(owner.token, '19:00', 2, { date: '2026-11-25' }));
    await move('confirm', pending, owner.token);
    const held = await id(hold(owner.token, '20:00', 2, { date: '2026-11-24' }));
    await hold(stranger.token, '19:00', 2, { date: '2026-11-27' });

    const response = await t.app.inject({ method: 'GET', url: '/api/reservations', headers: bearer(owner.token) });
    expect(response.statusCode).toBe(200);
    const list = response.json() as { id: string; status: string; holdExpiresAt: string | null }[];
    expect(list.map((r) => [r.id, r.status])).toEqual([
      [held, 'HELD'],
      [pending, 'PENDING'],
      [cancelled, 'CANCELLED'],
      [expired, 'CANCELLED'],
    ]);
    expect(list[0].holdExpiresAt).not.toBeNull();
    expect(list[1].holdExpiresAt).toBeNull();
    expect(list[3].holdExpiresAt).toBeNull();
  });

  it('counts pending = HELD + PENDING, ongoing = CONFIRMED + SEATED, completed = COMPLETED', async () => {
    const owner = await buildDiner(t.database.db);
    // Ended and seated ones first: a diner may have only MAX_UPCOMING_RESERVATIONS (4) upcoming at once.
    for (const status of ['COMPLETED', 'CANCELLED', 'NO_SHOW', 'SEATED', 'SEATED', 'HELD', 'PENDING', 'PENDING', 'CONFIRMED'] as const) {
      await reservationIn(status, { owner });
    }
    const status = () => t.app.inject({ method: 'GET', url: '/api/reservations/status', headers: bearer(owner.token) });
    const response = await status();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ pending: 3, ongoing: 3, completed: 1 });
    t.clock.advance(10 * MINUTE_MS); // the HELD one lapses
    expect((await status()).json()).toEqual({ pending: 2, ongoing: 3, completed: 1 });
    const fresh = await buildDiner(t.database.db);
    expect((await t.app.inject({ method: 'GET', url: '/api/reservations/status', headers: bearer(fresh.token) })).json()).toEqual({
      pending: 0,
      ongoing: 0,
      completed: 0,
    });
  });

  it('needs a diner token for the list and the counts', async () => {
    const staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
    for (const url of ['/api/reservations', '/api/reservations/status']) {
      expect((await t.app.inject({ method: 'GET', url })).json()).toEqual({ error: 'Please sign in to continue' });
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: bearer('nope') })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(staffToken) })).statusCode).toBe(401);
    }
  });

  it('answers one reservation to its id alone or to its owner, 403 to another diner', async () => {
    const made = await heldReservation();
    const get = (token?: string) => t.app.inject({ method: 'GET', url: `/api/reservations/${made.id}`, headers: token ? bearer(token) : {} });
    const anonymous = await get();
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toMatchObject({ id: made.id, status: 'HELD', holdExpiresAt: expect.any(String) });
    expect((await get(made.owner.token)).json()).toEqual(anonymous.json());
    const other = await get((await buildDiner(t.database.db)).token);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'That reservation belongs to another account' });
    expect((await get((await buildStaff(t.database.db, restaurant.id)).token)).statusCode).toBe(401);
    expect((await get('garbage-token')).statusCode).toBe(401);
  });

  it.each(['GET', 'confirm', 'cancel'] as const)('answers %s with a malformed id 400, an unknown one 404', async (action) => {
    const call = (id: string) => (action === 'GET' ? t.app.inject({ method: 'GET', url: `/api/reservations/${id}` }) : move(action, id, diner.token));
    for (const bad of ['not-a-uuid', '123', '6f1c2d3e-aaaa-bbbb-cccc', "1' OR '1'='1"]) {
      const body = await expectRefusedCleanly(() => call(encodeURIComponent(bad)), 400);
      expect(body.error).toMatch(/^id\b/);
    }
    const missing = await expectRefusedCleanly(() => call('9b2f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'), 404);
    expect(missing).toEqual({ error: 'Reservation not found' });
  });
});
