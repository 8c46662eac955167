import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, requestHold } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, coversHeld } from '#server/test/factories.ts';
import { setUpStaffFixture, TODAY, t, dataDir, x, staffX, staffY, diner, call, hold, pendingBooking, wrongKinds } from '#server/test/staff-fixture.ts';

/** The staff's bookings through HTTP: the list with today's counts, the staff moves, and the live stream. */
setUpStaffFixture();

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
    const dinerStatus = async () =>
      ((await call('GET', '/api/reservations', owner.token)).json() as { id: string; status: string }[]).find((r) => r.id === id)!.status;
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
      const inject = (token: string, slug: string) => requestHold(local.app, token, { restaurantSlug: slug, date: TODAY, time: '20:00', partySize: 2 });
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
