import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { reservationStatuses, type ReservationStatus } from '#common/domain/reservation-status.ts';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, coversHeld, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

let t: TestApp;
let restaurant: BuiltRestaurant;
let diner: BuiltAccount;
let staff: Principal;

beforeAll(async () => {
  t = await createTestApp();
  restaurant = await buildRestaurant(t.database.db);
  diner = await buildDiner(t.database.db);
  const staffAccount = await buildStaff(t.database.db, restaurant.id);
  staff = { kind: 'staff', staffId: staffAccount.id, restaurantId: restaurant.id };
});
afterAll(() => t.close());
// Every test starts at 10:00 on Mon 2026-11-23 in Kolkata; each builds its own slots and diners.
beforeEach(() => t.clock.set(TEST_NOW));

const DATE = '2026-11-23';
let nextSlotMinute = 0;

/** A fresh slot of the shared restaurant on DATE (evening times, one minute apart), so tests never share covers. */
async function freshSlot(capacity = 8, options: { date?: string; status?: 'available' | 'full'; time?: string } = {}) {
  const minute = nextSlotMinute++;
  const time = options.time ?? `${String(17 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  return buildSlot(t.database.db, restaurant.id, { date: options.date ?? DATE, time, capacity, status: options.status });
}

async function hold(token: string, time: string, partySize = 2, options: { date?: string; slug?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/reservations',
    headers: bearer(token),
    payload: { restaurantSlug: options.slug ?? restaurant.slug, date: options.date ?? DATE, time, partySize },
  });
}

/** A HELD reservation on a fresh slot, by a fresh diner unless one is given. */
async function heldReservation(options: { partySize?: number; capacity?: number; owner?: BuiltAccount } = {}) {
  const owner = options.owner ?? (await buildDiner(t.database.db));
  const slot = await freshSlot(options.capacity ?? 8);
  const response = await hold(owner.token, slot.time, options.partySize ?? 2);
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().id as string, owner, slot };
}

function move(action: 'confirm' | 'cancel', id: string, token?: string, payload: unknown = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/reservations/${id}/${action}`,
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });
}

/** Drives a fresh reservation to `status` along the state machine (staff moves through the service). */
async function reservationIn(status: ReservationStatus, options: { partySize?: number; owner?: BuiltAccount } = {}) {
  const made = await heldReservation(options);
  const path: Record<ReservationStatus, ReservationStatus[]> = {
    HELD: [],
    PENDING: ['PENDING'],
    CONFIRMED: ['PENDING', 'CONFIRMED'],
    SEATED: ['PENDING', 'CONFIRMED', 'SEATED'],
    COMPLETED: ['PENDING', 'CONFIRMED', 'SEATED', 'COMPLETED'],
    CANCELLED: ['CANCELLED'],
    NO_SHOW: ['PENDING', 'CONFIRMED', 'NO_SHOW'],
  };
  for (const step of path[status]) {
    if (step === 'PENDING') expect((await move('confirm', made.id, made.owner.token)).statusCode).toBe(200);
    else if (step === 'CANCELLED') expect((await move('cancel', made.id, made.owner.token)).statusCode).toBe(200);
    else if (step === 'NO_SHOW') {
      const now = t.clock.now();
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() + 15 * MINUTE_MS));
      await t.app.services.reservations.moveReservationAsStaff(staff, made.id, step);
      t.clock.set(now);
    } else await t.app.services.reservations.moveReservationAsStaff(staff, made.id, step);
  }
  return made;
}

async function eventsOf(id: string) {
  return queryRows<{ from_status: string | null; to_status: string; actor_kind: string; actor_id: string | null; reason: string | null }>(
    t.database.db,
    sql`SELECT from_status, to_status, actor_kind, actor_id, reason FROM reservation_events WHERE reservation_id = ${id} ORDER BY id`,
  );
}

async function rowOf(id: string) {
  const [row] = await queryRows<{ status: string; cancel_reason: string | null }>(
    t.database.db,
    sql`SELECT status, cancel_reason FROM reservations WHERE id = ${id}`,
  );
  return row;
}

/** Everything a refused call could have half-written. */
async function tables() {
  const reservations = await queryRows(t.database.db, sql`SELECT id, status, cancel_reason, updated_at, party_size FROM reservations ORDER BY id`);
  const events = await queryRows(t.database.db, sql`SELECT count(*)::int AS count FROM reservation_events`);
  return JSON.stringify({ reservations, events });
}

/** Runs a call that must be refused with `status`, and checks no table changed. */
async function expectRefusedCleanly(call: () => Promise<{ statusCode: number; json(): unknown; body: string }>, status: number) {
  const before = await tables();
  const response = await call();
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as { error: unknown };
  expect(typeof body.error).toBe('string');
  expect(await tables()).toBe(before);
  return body as { error: string; details?: unknown };
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
    expect(await expectRefusedCleanly(() => hold(b.token, slot.time, 3), 409)).toEqual({ error: 'That time is no longer available' });
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

describe('confirming and cancelling: the state machine', () => {
  it('confirms a hold before it expires: HELD → PENDING, covers kept, history written', async () => {
    const made = await heldReservation({ partySize: 3, capacity: 3 });
    t.clock.advance(10 * MINUTE_MS - 1);
    const response = await move('confirm', made.id, made.owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: made.id, status: 'PENDING', holdExpiresAt: null });
    t.clock.advance(60 * MINUTE_MS);
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(3);
    expect(await eventsOf(made.id)).toEqual([
      { from_status: null, to_status: 'HELD', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
      { from_status: 'HELD', to_status: 'PENDING', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
    ]);
  });

  it('confirms from the hold screen with no token and no body', async () => {
    const made = await heldReservation();
    const response = await t.app.inject({ method: 'POST', url: `/api/reservations/${made.id}/confirm` });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('PENDING');
    expect((await eventsOf(made.id)).at(-1)).toEqual({ from_status: 'HELD', to_status: 'PENDING', actor_kind: 'diner', actor_id: null, reason: null });
  });

  it('refuses to confirm an expired hold with 409 naming its status, and changes nothing', async () => {
    const made = await heldReservation({ capacity: 2 });
    t.clock.advance(10 * MINUTE_MS);
    const body = await expectRefusedCleanly(() => move('confirm', made.id, made.owner.token), 409);
    expect(body.error).toMatch(/\bCANCELLED\b/);
    expect(body.error).toMatch(/expired/);
    expect(await rowOf(made.id)).toEqual({ status: 'HELD', cancel_reason: null });
    expect((await t.app.inject({ method: 'GET', url: `/api/reservations/${made.id}` })).json()).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });
    // Its covers went back at the expiry instant.
    expect((await hold((await buildDiner(t.database.db)).token, made.slot.time, 2)).statusCode).toBe(201);
  });

  it('refuses a body on confirm and cancel (they take {} or nothing)', async () => {
    const made = await heldReservation();
    for (const action of ['confirm', 'cancel'] as const) {
      const body = await expectRefusedCleanly(() => move(action, made.id, made.owner.token, { status: 'CONFIRMED' }), 400);
      expect(body.error).toMatch(/status|key/i);
    }
  });

  it('refuses another diner’s confirm and cancel with 403, and a staff token with 401', async () => {
    const made = await heldReservation();
    const stranger = await buildDiner(t.database.db);
    const staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
    for (const action of ['confirm', 'cancel'] as const) {
      expect(await expectRefusedCleanly(() => move(action, made.id, stranger.token), 403)).toEqual({ error: 'That reservation belongs to another account' });
      expect(await expectRefusedCleanly(() => move(action, made.id, staffToken), 401)).toEqual({ error: 'This needs a diner sign-in' });
      expect(await expectRefusedCleanly(() => move(action, made.id, 'expired-or-made-up'), 401)).toEqual({
        error: 'Your session has expired. Please sign in again.',
      });
    }
    expect(await rowOf(made.id)).toEqual({ status: 'HELD', cancel_reason: null });
  });

  it('cancels a hold at once: its covers go back and the history says who', async () => {
    const made = await heldReservation({ partySize: 4, capacity: 4 });
    const response = await move('cancel', made.id, made.owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });
    expect(await rowOf(made.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'DINER_CANCELLED' });
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
    expect((await eventsOf(made.id)).at(-1)).toEqual({
      from_status: 'HELD',
      to_status: 'CANCELLED',
      actor_kind: 'diner',
      actor_id: made.owner.id,
      reason: 'DINER_CANCELLED',
    });
    expect((await hold((await buildDiner(t.database.db)).token, made.slot.time, 4)).statusCode).toBe(201);
  });

  it('cancels a pending request with the owner’s token (the id alone cancels only a hold: security suite, issue 12 item 2)', async () => {
    const made = await reservationIn('PENDING');
    const response = await move('cancel', made.id, made.owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('CANCELLED');
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
  });

  describe('the 2-hour rule for an accepted (CONFIRMED) reservation', () => {
    it('lets the diner cancel 2 hours ahead or more', async () => {
      const made = await reservationIn('CONFIRMED');
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() - 120 * MINUTE_MS));
      const response = await move('cancel', made.id, made.owner.token);
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('CANCELLED');
      expect((await eventsOf(made.id)).at(-1)).toMatchObject({ from_status: 'CONFIRMED', to_status: 'CANCELLED', actor_kind: 'diner' });
    });

    it('refuses the diner less than 2 hours ahead with 409 naming CONFIRMED', async () => {
      const made = await reservationIn('CONFIRMED');
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() - 120 * MINUTE_MS + 1));
      const body = await expectRefusedCleanly(() => move('cancel', made.id, made.owner.token), 409);
      expect(body.error).toMatch(/\bCONFIRMED\b/);
      expect(body.error).toMatch(/2 hours/);
      expect(await rowOf(made.id)).toEqual({ status: 'CONFIRMED', cancel_reason: null });
    });

    it('lets staff cancel at any time', async () => {
      const made = await reservationIn('CONFIRMED');
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() - 5 * MINUTE_MS));
      const result = await t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'CANCELLED');
      expect(result.status).toBe('CANCELLED');
      expect(await rowOf(made.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'RESTAURANT_CANCELLED' });
    });
  });

  it.each(reservationStatuses.filter((s) => s !== 'HELD'))('refuses to confirm a %s reservation with 409 naming it', async (status) => {
    const made = await reservationIn(status);
    const body = await expectRefusedCleanly(() => move('confirm', made.id, made.owner.token), 409);
    expect(body.error).toMatch(new RegExp(`\\b${status}\\b`));
  });

  it.each(['SEATED', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const)('refuses the diner’s cancel of a %s reservation with 409 naming it', async (status) => {
    const made = await reservationIn(status);
    const body = await expectRefusedCleanly(() => move('cancel', made.id, made.owner.token), 409);
    expect(body.error).toMatch(new RegExp(`\\b${status}\\b`));
  });

  it('walks PENDING → CONFIRMED → SEATED → COMPLETED by staff, writing every step with its actor', async () => {
    const made = await reservationIn('PENDING');
    for (const to of ['CONFIRMED', 'SEATED', 'COMPLETED'] as const) {
      expect((await t.app.services.reservations.moveReservationAsStaff(staff, made.id, to)).status).toBe(to);
    }
    const staffId = (staff as { staffId: string }).staffId;
    expect(await eventsOf(made.id)).toEqual([
      { from_status: null, to_status: 'HELD', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
      { from_status: 'HELD', to_status: 'PENDING', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
      { from_status: 'PENDING', to_status: 'CONFIRMED', actor_kind: 'staff', actor_id: staffId, reason: null },
      { from_status: 'CONFIRMED', to_status: 'SEATED', actor_kind: 'staff', actor_id: staffId, reason: null },
      { from_status: 'SEATED', to_status: 'COMPLETED', actor_kind: 'staff', actor_id: staffId, reason: null },
    ]);
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/reservations/${made.id}` })).json().status).toBe('COMPLETED');
  });

  it('lets staff mark a no-show only from 15 minutes after the start', async () => {
    const made = await reservationIn('CONFIRMED');
    const startsAt = kolkataInstant(made.slot.date, made.slot.time).getTime();
    t.clock.set(new Date(startsAt + 15 * MINUTE_MS - 1));
    const before = await tables();
    const early = t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'NO_SHOW');
    await expect(early).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/\bCONFIRMED\b.*15 minutes|15 minutes.*\bCONFIRMED\b/) });
    expect(await tables()).toBe(before);
    t.clock.set(new Date(startsAt + 15 * MINUTE_MS));
    expect((await t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'NO_SHOW')).status).toBe('NO_SHOW');
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
  });

  it('refuses staff moves the machine does not have, naming the status, and other restaurants’ bookings', async () => {
    const made = await heldReservation();
    await expect(t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'CONFIRMED')).rejects.toMatchObject({
      status: 409,
      message: 'This reservation is HELD, so it cannot be confirmed',
    });
    const elsewhere = await buildRestaurant(t.database.db);
    const otherStaff = await buildStaff(t.database.db, elsewhere.id);
    await expect(
      t.app.services.reservations.moveReservationAsStaff({ kind: 'staff', staffId: otherStaff.id, restaurantId: elsewhere.id }, made.id, 'CANCELLED'),
    ).rejects.toMatchObject({ status: 404, message: 'Booking not found' });
    await expect(t.app.services.reservations.moveReservationAsStaff({ kind: 'diner', userId: made.owner.id }, made.id, 'CANCELLED')).rejects.toMatchObject({
      status: 401,
    });
    expect(await rowOf(made.id)).toEqual({ status: 'HELD', cancel_reason: null });
    expect(await eventsOf(made.id)).toHaveLength(1);
  });
});

describe('expiring holds', () => {
  it('writes CANCELLED / HOLD_EXPIRED with a system history row, once, for due holds only', async () => {
    const due = await heldReservation();
    t.clock.advance(5 * MINUTE_MS);
    const notYet = await heldReservation();
    t.clock.advance(5 * MINUTE_MS); // `due` expires exactly now
    const sweptAt = t.clock.now();
    expect(await t.app.services.reservations.expireDueHolds()).toBeGreaterThanOrEqual(1);
    expect(await rowOf(due.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'HOLD_EXPIRED' });
    expect(await rowOf(notYet.id)).toEqual({ status: 'HELD', cancel_reason: null });
    const history = await eventsOf(due.id);
    expect(history.at(-1)).toEqual({ from_status: 'HELD', to_status: 'CANCELLED', actor_kind: 'system', actor_id: null, reason: 'HOLD_EXPIRED' });
    const [{ created_at }] = await queryRows<{ created_at: Date | string }>(
      t.database.db,
      sql`SELECT created_at FROM reservation_events WHERE reservation_id = ${due.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(new Date(created_at).toISOString()).toBe(sweptAt.toISOString());
    expect(await t.app.services.reservations.expireDueHolds()).toBe(0);
    expect(await eventsOf(due.id)).toHaveLength(2);

    const confirm = await move('confirm', due.id, due.owner.token);
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().error).toMatch(/\bCANCELLED\b/);
    t.clock.advance(5 * MINUTE_MS);
    expect(await t.app.services.reservations.expireDueHolds()).toBe(1);
    expect(await rowOf(notYet.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'HOLD_EXPIRED' });
  });

  it('announces the change and the freed slot', async () => {
    const made = await heldReservation();
    const changed: unknown[] = [];
    const freed: unknown[] = [];
    const stopChanged = t.app.deps.events.subscribe('reservation.changed', (event) => changed.push(event));
    const stopFreed = t.app.deps.events.subscribe('slot.freed', (event) => freed.push(event));
    try {
      t.clock.advance(10 * MINUTE_MS);
      await t.app.services.reservations.expireDueHolds();
      expect(changed).toContainEqual({ reservationId: made.id, restaurantId: restaurant.id, userId: made.owner.id, status: 'CANCELLED' });
      expect(freed).toContainEqual({ slotId: made.slot.id, restaurantId: restaurant.id });
    } finally {
      stopChanged();
      stopFreed();
    }
  });
});
