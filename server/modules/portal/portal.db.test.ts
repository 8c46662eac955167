import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, coversHeld, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import { makePng, multipartBody } from './test-images.ts';

/**
 * The restaurant portal through HTTP on a real database. "Now" is 10:00 in Kolkata on
 * 2026-11-23 (TEST_NOW); TODAY's evening slots are bookable, YESTERDAY is in the past.
 */
const TODAY = '2026-11-23';
const TOMORROW = '2026-11-24';
const YESTERDAY = '2026-11-22';

let t: TestApp;
let dataDir: string;
let x: BuiltRestaurant;
let y: BuiltRestaurant;
let staffX: BuiltAccount;
let staffY: BuiltAccount;
let diner: BuiltAccount;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tablefair-portal-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  x = await buildRestaurant(t.database.db, { name: 'Portal Kitchen' });
  y = await buildRestaurant(t.database.db, { name: 'Other Place' });
  staffX = await buildStaff(t.database.db, x.id);
  staffY = await buildStaff(t.database.db, y.id);
  diner = await buildDiner(t.database.db, { name: 'Asha Rao', phone: '+919876543210' });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
function call(method: Method, url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

async function hold(token: string, slug: string, date: string, time: string, partySize = 2) {
  const response = await call('POST', '/api/reservations', token, { restaurantSlug: slug, date, time, partySize });
  return response;
}

/** A PENDING booking of a fresh diner at X, on a fresh slot. */
async function pendingBooking(time: string, options: { date?: string; capacity?: number; partySize?: number } = {}) {
  const date = options.date ?? TODAY;
  const slot = await buildSlot(t.database.db, x.id, { date, time, capacity: options.capacity ?? 8 });
  const someone = await buildDiner(t.database.db);
  const held = await hold(someone.token, x.slug, date, time, options.partySize ?? 2);
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json().id as string;
  expect((await call('POST', `/api/reservations/${id}/confirm`, someone.token, {})).statusCode).toBe(200);
  return { id, slot, diner: someone };
}

const wrongKinds = () => [
  { name: 'no token', token: undefined },
  { name: 'a diner token', token: diner.token },
  { name: 'a broken token', token: 'not-a-real-token' },
];

describe('GET /api/admin/restaurant', () => {
  it("answers the staff's own restaurant, decided by the server", async () => {
    const response = await call('GET', '/api/admin/restaurant', staffX.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: x.id, slug: x.slug, name: 'Portal Kitchen', heroImageUrl: null, heroImageSrc: `/api/restaurant/${x.id}/hero-image` });
    expect((await call('GET', '/api/admin/restaurant', staffY.token)).json().id).toBe(y.id);
  });

  it('refuses every other kind of caller with 401', async () => {
    for (const caller of wrongKinds()) {
      const response = await call('GET', '/api/admin/restaurant', caller.token);
      expect(response.statusCode, caller.name).toBe(401);
      expect(typeof response.json().error).toBe('string');
      expect(response.body).not.toContain('Portal Kitchen');
    }
  });
});

describe('PUT /api/admin/restaurant', () => {
  it('updates the public profile, visible on the public page at once', async () => {
    const response = await call('PUT', '/api/admin/restaurant', staffX.token, {
      name: '  Portal Kitchen & Bar ',
      neighborhood: 'Koramangala',
      instagramUrl: 'https://instagram.com/portalkitchen',
      website: 'https://portal.example.com',
      heroImageUrl: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Portal Kitchen & Bar', neighborhood: 'Koramangala', heroImageUrl: null });
    const publicPage = (await call('GET', `/api/restaurants/${x.slug}`)).json();
    expect(publicPage).toMatchObject({
      name: 'Portal Kitchen & Bar',
      neighborhood: 'Koramangala',
      instagramUrl: 'https://instagram.com/portalkitchen',
      website: 'https://portal.example.com',
      heroImageUrl: `/api/restaurant/${x.id}/hero-image`,
    });
    // Only the caller's restaurant changed.
    expect((await call('GET', `/api/restaurants/${y.slug}`)).json().name).toBe('Other Place');
  });

  it('treats blank optional fields as none and an empty neighborhood as the city', async () => {
    const response = await call('PUT', '/api/admin/restaurant', staffY.token, { name: 'Other Place', neighborhood: '', instagramUrl: '', website: null });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ neighborhood: 'Bengaluru', instagramUrl: null, website: null });
  });

  it('refuses each invalid field with a 400 naming it', async () => {
    const cases: [object, RegExp][] = [
      [{ name: '' }, /^name is required$/],
      [{}, /^name is required$/],
      [{ name: 'x'.repeat(101) }, /name must be at most 100/],
      [{ name: 'Ok', website: 'javascript:alert(1)' }, /^website must be a web address/],
      [{ name: 'Ok', instagramUrl: 'instagram' }, /^instagramUrl must be a web address/],
      [{ name: 'Ok', heroImageUrl: 'data:image/png;base64,AAAA' }, /^heroImageUrl must be a web address/],
      [{ name: 'Ok', heroImageUrl: '//evil.example.com/x.png' }, /^heroImageUrl must be a web address/],
    ];
    for (const [payload, message] of cases) {
      const response = await call('PUT', '/api/admin/restaurant', staffX.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toMatch(message);
    }
    expect((await call('GET', '/api/admin/restaurant', staffX.token)).json().name).toBe('Portal Kitchen & Bar');
  });

  it('refuses other kinds of caller with 401 and changes nothing', async () => {
    for (const caller of wrongKinds()) {
      expect((await call('PUT', '/api/admin/restaurant', caller.token, { name: 'Hijacked' })).statusCode, caller.name).toBe(401);
    }
    expect((await call('GET', `/api/restaurants/${x.slug}`)).json().name).toBe('Portal Kitchen & Bar');
  });
});

describe('slots', () => {
  it('bulk-adds a time every interval from start to end inclusive, and lists them', async () => {
    const response = await call('POST', '/api/admin/slots/bulk', staffX.token, { date: TOMORROW, start: '18:00', end: '22:00', interval: 30, capacity: 4 });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ created: 9, skipped: 0, past: 0 });
    const list = await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffX.token);
    expect(list.statusCode).toBe(200);
    const slots = list.json() as { time: string; capacity: number; status: string; staffStatus: string; date: string; coversBooked: number }[];
    expect(slots.map((slot) => slot.time)).toEqual(['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00', '21:30', '22:00']);
    expect(slots.every((slot) => slot.capacity === 4 && slot.status === 'available' && slot.staffStatus === 'available' && slot.date === TOMORROW)).toBe(true);
    // Diners can book them.
    const availability = (await call('GET', `/api/restaurants/${x.slug}/availability?date=${TOMORROW}&partySize=4`)).json();
    expect(availability).toHaveLength(9);
  });

  it('skips times that already exist instead of duplicating them', async () => {
    const again = await call('POST', '/api/admin/slots/bulk', staffX.token, { date: TOMORROW, start: '18:00', end: '22:00', interval: 30, capacity: 10 });
    expect(again.json()).toEqual({ created: 0, skipped: 9, past: 0 });
    const overlap = await call('POST', '/api/admin/slots/bulk', staffX.token, { date: TOMORROW, start: '21:00', end: '23:00', interval: 30, capacity: 6 });
    expect(overlap.json()).toEqual({ created: 2, skipped: 3, past: 0 });
    const slots = (await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffX.token)).json() as { time: string; capacity: number }[];
    expect(slots).toHaveLength(11);
    // Existing times keep their capacity.
    expect(slots.find((slot) => slot.time === '21:00')!.capacity).toBe(4);
    expect(slots.find((slot) => slot.time === '23:00')!.capacity).toBe(6);
  });

  it('does not create times of today that have already started', async () => {
    const response = await call('POST', '/api/admin/slots/bulk', staffX.token, { date: TODAY, start: '09:00', end: '11:00', interval: 30, capacity: 2 });
    expect(response.json()).toEqual({ created: 2, skipped: 0, past: 3 });
  });

  it('refuses each invalid bulk request with a 400 naming the field', async () => {
    const valid = { date: TOMORROW, start: '12:00', end: '14:00', interval: 30, capacity: 4 };
    const cases: [object, RegExp][] = [
      [{ interval: 4 }, /^interval must be between 5 and 240 minutes$/],
      [{ interval: 241 }, /^interval must be between 5 and 240 minutes$/],
      [{ interval: 7.5 }, /^interval must be a whole number$/],
      [{ capacity: 0 }, /^capacity must be between 1 and 500$/],
      [{ capacity: 501 }, /^capacity must be between 1 and 500$/],
      [{ start: '14:00', end: '14:00' }, /^start must be before end$/],
      [{ start: '15:00', end: '14:00' }, /^start must be before end$/],
      [{ date: YESTERDAY }, /^date must not be in the past$/],
      [{ date: '2026-02-30' }, /Use a date written YYYY-MM-DD/],
      [{ start: '25:00' }, /Use a time written HH:MM/],
      [{ interval: 'often' }, /^interval must be a number$/],
    ];
    for (const [change, message] of cases) {
      const response = await call('POST', '/api/admin/slots/bulk', staffX.token, { ...valid, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().error, JSON.stringify(change)).toMatch(message);
    }
    // The limits themselves are accepted.
    const edges = await call('POST', '/api/admin/slots/bulk', staffX.token, { ...valid, interval: 240, capacity: 500 });
    expect(edges.json()).toEqual({ created: 1, skipped: 0, past: 0 });
    const fine = await call('POST', '/api/admin/slots/bulk', staffX.token, { ...valid, date: '2026-11-25', start: '12:00', end: '12:10', interval: 5, capacity: 1 });
    expect(fine.json()).toEqual({ created: 3, skipped: 0, past: 0 });
  });

  it('lists a date and shows cut-off for slots starting within the booking cut-off', async () => {
    await buildSlot(t.database.db, x.id, { date: TODAY, time: '10:15', capacity: 4 });
    await buildSlot(t.database.db, x.id, { date: TODAY, time: '19:00', capacity: 4, status: 'full' });
    const slots = (await call('GET', `/api/admin/slots?date=${TODAY}`, staffX.token)).json() as { time: string; status: string; staffStatus: string }[];
    expect(slots.find((slot) => slot.time === '10:15')).toMatchObject({ status: 'cutoff', staffStatus: 'available' });
    expect(slots.find((slot) => slot.time === '19:00')).toMatchObject({ status: 'full', staffStatus: 'full' });
    expect(slots.find((slot) => slot.time === '10:30')).toMatchObject({ status: 'cutoff' });
  });

  it('refuses a missing or malformed date', async () => {
    expect((await call('GET', '/api/admin/slots', staffX.token)).statusCode).toBe(400);
    const bad = await call('GET', '/api/admin/slots?date=tomorrow', staffX.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/YYYY-MM-DD/);
  });

  it('closes and reopens a slot, which diners see', async () => {
    const slot = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '13:00', capacity: 4 });
    const closed = await call('PATCH', `/api/admin/slots/${slot.id}`, staffX.token, { status: 'full' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ id: slot.id, status: 'full', staffStatus: 'full', time: '13:00' });
    const seen = (await call('GET', `/api/restaurants/${x.slug}/availability?date=${TOMORROW}&partySize=2`)).json() as { time: string; available: boolean }[];
    expect(seen.find((entry) => entry.time === '13:00')!.available).toBe(false);
    const opened = await call('PATCH', `/api/admin/slots/${slot.id}`, staffX.token, { status: 'available' });
    expect(opened.json()).toMatchObject({ status: 'available' });
  });

  it('refuses a status other than available or full', async () => {
    const slot = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '13:30' });
    for (const status of ['cutoff', 'closed', '', 3]) {
      const response = await call('PATCH', `/api/admin/slots/${slot.id}`, staffX.token, { status });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('status must be available or full');
    }
    expect((await call('PATCH', '/api/admin/slots/not-an-id', staffX.token, { status: 'full' })).statusCode).toBe(400);
    expect((await call('PATCH', '/api/admin/slots/00000000-0000-4000-8000-000000000000', staffX.token, { status: 'full' })).statusCode).toBe(404);
  });

  it("never touches or shows another restaurant's slots", async () => {
    const slot = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '14:30', capacity: 4 });
    const patched = await call('PATCH', `/api/admin/slots/${slot.id}`, staffY.token, { status: 'full' });
    expect(patched.statusCode).toBe(404);
    expect(patched.json()).toEqual({ error: 'Slot not found' });
    const xSlots = (await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffX.token)).json() as { id: string; staffStatus: string }[];
    expect(xSlots.find((s) => s.id === slot.id)!.staffStatus).toBe('available');
    const ySlots = (await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffY.token)).json();
    expect(ySlots).toEqual([]);
    // Y's bulk add lands in Y only.
    expect((await call('POST', '/api/admin/slots/bulk', staffY.token, { date: TOMORROW, start: '18:00', end: '19:00', interval: 60, capacity: 2 })).json().created).toBe(2);
    expect(((await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffY.token)).json() as unknown[]).length).toBe(2);
    expect(((await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffX.token)).json() as unknown[]).length).toBe(xSlots.length);
  });

  it('refuses other kinds of caller with 401 on every slot call', async () => {
    const slot = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '15:00' });
    for (const caller of wrongKinds()) {
      expect((await call('GET', `/api/admin/slots?date=${TOMORROW}`, caller.token)).statusCode, caller.name).toBe(401);
      expect((await call('POST', '/api/admin/slots/bulk', caller.token, { date: TOMORROW, start: '10:00', end: '11:00', interval: 30, capacity: 2 })).statusCode, caller.name).toBe(401);
      expect((await call('PATCH', `/api/admin/slots/${slot.id}`, caller.token, { status: 'full' })).statusCode, caller.name).toBe(401);
    }
  });
});

describe('bookings', () => {
  it("lists upcoming bookings in the diner's name with today's live counts", async () => {
    await buildSlot(t.database.db, x.id, { date: TODAY, time: '20:00', capacity: 8 });
    const held = await hold(diner.token, x.slug, TODAY, '20:00', 3);
    expect(held.statusCode).toBe(201);
    const response = await call('GET', '/api/admin/bookings', staffX.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.today).toBe(TODAY);
    const booking = body.bookings.find((b: { id: string }) => b.id === held.json().id);
    expect(booking).toMatchObject({
      status: 'HELD',
      partySize: 3,
      user: { name: 'Asha Rao', email: `${diner.username}@example.com`, phone: '+919876543210' },
      slot: { date: TODAY, time: '20:00' },
    });
    expect(body.liveStatus).toEqual({ pending: 1, confirmed: 0, completed: 0 });
    // Another restaurant sees none of it.
    const other = (await call('GET', '/api/admin/bookings', staffY.token)).json();
    expect(other.bookings).toEqual([]);
    expect(other.liveStatus).toEqual({ pending: 0, confirmed: 0, completed: 0 });
    expect(JSON.stringify(other)).not.toContain('Asha Rao');
    // A lapsed hold is not a booking.
    t.clock.advance(10 * 60_000);
    const later = (await call('GET', '/api/admin/bookings', staffX.token)).json();
    expect(later.bookings.find((b: { id: string }) => b.id === held.json().id)).toBeUndefined();
    expect(later.liveStatus.pending).toBe(0);
  });

  it('moves a booking through Confirm, Seat and Complete, and the diner sees each step', async () => {
    const { id, diner: owner } = await pendingBooking('19:30');
    const summary = async () => (await call('GET', '/api/reservations/status', owner.token)).json();
    const dinerStatus = async () => ((await call('GET', '/api/reservations', owner.token)).json() as { id: string; status: string }[]).find((r) => r.id === id)!.status;
    expect(await summary()).toEqual({ pending: 1, ongoing: 0, completed: 0 });

    const confirmed = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'CONFIRMED' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id, status: 'CONFIRMED', slot: { date: TODAY, time: '19:30' } });
    expect(await dinerStatus()).toBe('CONFIRMED');
    expect(await summary()).toEqual({ pending: 0, ongoing: 1, completed: 0 });

    expect((await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'SEATED' })).json().status).toBe('SEATED');
    expect(await dinerStatus()).toBe('SEATED');
    expect(await summary()).toEqual({ pending: 0, ongoing: 1, completed: 0 });

    expect((await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'COMPLETED' })).json().status).toBe('COMPLETED');
    expect(await dinerStatus()).toBe('COMPLETED');
    expect(await summary()).toEqual({ pending: 0, ongoing: 0, completed: 1 });
    expect((await call('GET', '/api/admin/bookings', staffX.token)).json().liveStatus.completed).toBeGreaterThanOrEqual(1);
  });

  it('refuses any move outside the state machine with a 409 naming the current status', async () => {
    const { id } = await pendingBooking('18:00');
    const skip = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'SEATED' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error).toBe('This reservation is PENDING, so it cannot be seated');
    await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'CONFIRMED' });
    for (const to of ['PENDING', 'HELD', 'COMPLETED', 'CONFIRMED']) {
      const refused = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: to });
      expect(refused.statusCode, to).toBe(409);
      expect(refused.json().error, to).toContain('CONFIRMED');
    }
    // A hold is the diner's to confirm.
    await buildSlot(t.database.db, x.id, { date: TODAY, time: '21:30', capacity: 4 });
    const someone = await buildDiner(t.database.db);
    const held = (await hold(someone.token, x.slug, TODAY, '21:30')).json();
    const onHold = await call('PATCH', `/api/admin/bookings/${held.id}`, staffX.token, { status: 'CONFIRMED' });
    expect(onHold.statusCode).toBe(409);
    expect(onHold.json().error).toContain('HELD');
  });

  it('allows a no-show only from 15 minutes after the start', async () => {
    const { id } = await pendingBooking('11:45');
    await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'CONFIRMED' });
    t.clock.set('2026-11-23T06:25:00.000Z'); // 11:55 in Kolkata
    const early = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'NO_SHOW' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('This reservation is CONFIRMED: a no-show can be marked only 15 minutes after the booked time');
    t.clock.set('2026-11-23T06:30:00.000Z'); // 12:00
    const marked = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'NO_SHOW' });
    expect(marked.statusCode).toBe(200);
    expect(marked.json().status).toBe('NO_SHOW');
  });

  it('frees the covers when staff cancel, so a new hold then succeeds', async () => {
    t.clock.set('2026-11-23T04:30:00.000Z');
    const { id, slot } = await pendingBooking('17:00', { capacity: 2, partySize: 2 });
    const waiting = await buildDiner(t.database.db);
    expect((await hold(waiting.token, x.slug, TODAY, '17:00')).statusCode).toBe(409);
    const cancelled = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'CANCELLED' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('CANCELLED');
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(0);
    expect((await hold(waiting.token, x.slug, TODAY, '17:00')).statusCode).toBe(201);
  });

  it("answers 404 for another restaurant's booking and never shows it", async () => {
    const { id } = await pendingBooking('16:00');
    const response = await call('PATCH', `/api/admin/bookings/${id}`, staffY.token, { status: 'CONFIRMED' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Booking not found' });
    const stillPending = (await call('GET', '/api/admin/bookings', staffX.token)).json().bookings.find((b: { id: string }) => b.id === id);
    expect(stillPending.status).toBe('PENDING');
    expect((await call('PATCH', '/api/admin/bookings/00000000-0000-4000-8000-000000000000', staffX.token, { status: 'CONFIRMED' })).statusCode).toBe(404);
  });

  it('refuses a status that is not a reservation status', async () => {
    const { id } = await pendingBooking('15:30');
    for (const status of ['DONE', 'confirmed', '', null]) {
      const response = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status });
      expect(response.statusCode, String(status)).toBe(400);
      expect(response.json().error).toMatch(/^status must be one of HELD, PENDING/);
    }
    expect((await call('PATCH', '/api/admin/bookings/nope', staffX.token, { status: 'CONFIRMED' })).statusCode).toBe(400);
  });

  it('refuses other kinds of caller with 401 on every booking call', async () => {
    const { id } = await pendingBooking('15:00');
    for (const caller of wrongKinds()) {
      expect((await call('GET', '/api/admin/bookings', caller.token)).statusCode, caller.name).toBe(401);
      expect((await call('PATCH', `/api/admin/bookings/${id}`, caller.token, { status: 'CONFIRMED' })).statusCode, caller.name).toBe(401);
    }
    // The staff token is not a diner credential either.
    expect((await call('GET', '/api/reservations', staffX.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/reservations/status', staffX.token)).statusCode).toBe(401);
  });
});

describe('POST /api/upload', () => {
  function upload(token: string | undefined, file: { filename: string; contentType: string; bytes: Buffer } | undefined, restaurantId = x.id) {
    const { body, contentType } = multipartBody({ restaurantId }, file && { field: 'image', ...file });
    return t.app.inject({ method: 'POST', url: '/api/upload', headers: { ...(token ? bearer(token) : {}), 'content-type': contentType }, payload: body });
  }

  it('stores a real image, makes it the hero image and serves its bytes', async () => {
    const before = await call('GET', `/api/restaurant/${x.id}/hero-image`);
    expect(before.headers['content-type']).toMatch(/^image\/svg\+xml/);

    const png = makePng(64, 36);
    const response = await upload(staffX.token, { filename: 'hero.png', contentType: 'image/png', bytes: png });
    expect(response.statusCode, response.body).toBe(200);
    const { url, heroImageUrl } = response.json();
    expect(url).toMatch(new RegExp(`^/api/restaurant/${x.id}/hero-image\\?v=[0-9a-f]{8}$`));
    expect(heroImageUrl).toBe(url);

    const served = await call('GET', url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
    expect((await call('GET', `/api/restaurants/${x.slug}`)).json().heroImageUrl).toBe(url);
    expect((await call('GET', '/api/admin/restaurant', staffX.token)).json()).toMatchObject({ heroImageUrl: url, heroImageSrc: url, hasUploadedHero: true });
  });

  it('accepts a JPEG by its bytes whatever its name', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9])]);
    const response = await upload(staffX.token, { filename: 'photo.bin', contentType: 'application/octet-stream', bytes: jpeg });
    expect(response.statusCode, response.body).toBe(200);
    const served = await call('GET', `/api/restaurant/${x.id}/hero-image`);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.rawPayload, jpeg)).toBe(0);
  });

  it('refuses text renamed .jpg with 415 and keeps the current photo', async () => {
    const current = (await call('GET', '/api/admin/restaurant', staffX.token)).json().heroImageUrl;
    const response = await upload(staffX.token, { filename: 'photo.jpg', contentType: 'image/jpeg', bytes: Buffer.from('This is not a photo, just text.\n') });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'Only JPEG, PNG or WebP images are accepted' });
    expect((await call('GET', '/api/admin/restaurant', staffX.token)).json().heroImageUrl).toBe(current);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const big = Buffer.concat([makePng(2, 2), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await upload(staffX.token, { filename: 'big.png', contentType: 'image/png', bytes: big });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'The photo is larger than 5 MB' });
  });

  it("refuses another restaurant's id with 403 and leaves its image alone", async () => {
    const response = await upload(staffY.token, { filename: 'hero.png', contentType: 'image/png', bytes: makePng() }, x.id);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('You can change only your own restaurant');
    expect((await call('GET', `/api/restaurant/${y.id}/hero-image`)).headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('refuses other kinds of caller with 401, a missing file with 400 and a non-multipart body with 415', async () => {
    for (const caller of wrongKinds()) {
      const response = await upload(caller.token, { filename: 'hero.png', contentType: 'image/png', bytes: makePng() });
      expect(response.statusCode, caller.name).toBe(401);
    }
    const missing = await upload(staffX.token, undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^image/);
    const json = await call('POST', '/api/upload', staffX.token, { restaurantId: x.id });
    expect(json.statusCode).toBe(415);
  });
});

describe('GET /api/admin/events', () => {
  it('pushes booking changes of the own restaurant only, refuses other callers, and ends on close', async () => {
    const local = await createTestApp({ env: { DATA_DIR: dataDir }, database: undefined });
    try {
      const r = await buildRestaurant(local.database.db);
      const other = await buildRestaurant(local.database.db);
      const staff = await buildStaff(local.database.db, r.id);
      const someone = await buildDiner(local.database.db);
      await buildSlot(local.database.db, r.id, { date: TODAY, time: '20:00', capacity: 4 });
      await buildSlot(local.database.db, other.id, { date: TODAY, time: '20:00', capacity: 4 });
      await local.app.listen({ host: '127.0.0.1', port: 0 });
      const address = local.app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

      const refused = await fetch(`${base}/api/admin/events`, { headers: bearer(someone.token) });
      expect(refused.status).toBe(401);
      expect((await refused.json()).error).toBe('This needs a restaurant sign-in');
      expect((await fetch(`${base}/api/admin/events`)).status).toBe(401);

      const response = await fetch(`${base}/api/admin/events`, { headers: bearer(staff.token) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let received = '';
      const readUntil = async (needle: string) => {
        const deadline = Date.now() + 5000;
        while (!received.includes(needle)) {
          const timeLeft = deadline - Date.now();
          const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no "${needle}" in: ${received}`)), Math.max(0, timeLeft)));
          const { value, done } = await Promise.race([reader.read(), timeout]);
          if (done) throw new Error(`stream ended before "${needle}"`);
          received += decoder.decode(value, { stream: true });
        }
      };
      await readUntil('event: ready');

      // Another restaurant's booking first, then ours: only ours arrives.
      const inject = (token: string, slug: string) =>
        local.app.inject({ method: 'POST', url: '/api/reservations', headers: bearer(token), payload: { restaurantSlug: slug, date: TODAY, time: '20:00', partySize: 2 } });
      const theirs = (await inject((await buildDiner(local.database.db)).token, other.slug)).json().id as string;
      const ours = (await inject(someone.token, r.slug)).json().id as string;
      expect(theirs).toBeTruthy();
      expect(ours).toBeTruthy();
      await readUntil(ours);
      expect(received).toContain(`event: booking\ndata: {"type":"booking","reservationId":"${ours}","status":"HELD"}`);
      expect(received).not.toContain(theirs);

      // A staff move arrives too.
      await local.app.inject({ method: 'POST', url: `/api/reservations/${ours}/confirm`, headers: bearer(someone.token), payload: {} });
      await local.app.inject({ method: 'PATCH', url: `/api/admin/bookings/${ours}`, headers: bearer(staff.token), payload: { status: 'CONFIRMED' } });
      await readUntil('"status":"CONFIRMED"');

      // Closing the app ends the open stream instead of waiting on it.
      const closing = local.close();
      await readUntil('\n\n');
      let ended = false;
      for (let i = 0; i < 50 && !ended; i++) ended = (await reader.read()).done;
      expect(ended).toBe(true);
      await closing;
    } finally {
      await local.close().catch(() => undefined);
    }
  });
});
