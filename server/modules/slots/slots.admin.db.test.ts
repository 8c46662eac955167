import { describe, expect, it } from 'vitest';
import { buildSlot } from '#server/test/factories.ts';
import { bearer } from '#server/test/app.ts';
import { setUpStaffFixture, TODAY, TOMORROW, YESTERDAY, t, x, staffX, staffY, call, pendingBooking, wrongKinds } from '#server/test/staff-fixture.ts';

/** The staff's slots through HTTP: bulk add, list, open and close. */
setUpStaffFixture();

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
    const fine = await call('POST', '/api/admin/slots/bulk', staffX.token, {
      ...valid,
      date: '2026-11-25',
      start: '12:00',
      end: '12:10',
      interval: 5,
      capacity: 1,
    });
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

  it('edits a capacity and deletes an unbooked time, and refuses either where bookings would be lost (409 with the reason)', async () => {
    const remove = (id: string, token: string) => t.app.inject({ method: 'DELETE', url: `/api/admin/slots/${id}`, headers: bearer(token) });
    const empty = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '16:00', capacity: 4 });
    const grown = await call('PATCH', `/api/admin/slots/${empty.id}`, staffX.token, { capacity: 10 });
    expect(grown.statusCode, grown.body).toBe(200);
    expect(grown.json()).toMatchObject({ capacity: 10, staffStatus: 'available' });
    expect((await remove(empty.id, staffY.token)).statusCode).toBe(404);
    expect((await remove(empty.id, staffX.token)).statusCode).toBe(204);
    expect((await remove(empty.id, staffX.token)).statusCode).toBe(404);

    // A booking of four: the capacity may not go below four, and the time may not be deleted.
    const { slot } = await pendingBooking('16:30', { date: TOMORROW, partySize: 4 });
    const shrunk = await call('PATCH', `/api/admin/slots/${slot.id}`, staffX.token, { capacity: 3 });
    expect(shrunk.statusCode).toBe(409);
    expect(shrunk.json().error).toBe(
      'This time has 4 covers booked, so its capacity cannot go below 4 without losing bookings. Cancel or move bookings first, or set it full to stop new ones.',
    );
    expect((await call('PATCH', `/api/admin/slots/${slot.id}`, staffX.token, { capacity: 4 })).statusCode).toBe(200);
    const refused = await remove(slot.id, staffX.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('This time has bookings on record, and deleting it would lose them. Set it full to stop new bookings instead.');
    expect((await call('PATCH', `/api/admin/slots/${slot.id}`, staffX.token, {})).statusCode).toBe(400);
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
    expect(
      (await call('POST', '/api/admin/slots/bulk', staffY.token, { date: TOMORROW, start: '18:00', end: '19:00', interval: 60, capacity: 2 })).json().created,
    ).toBe(2);
    expect(((await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffY.token)).json() as unknown[]).length).toBe(2);
    expect(((await call('GET', `/api/admin/slots?date=${TOMORROW}`, staffX.token)).json() as unknown[]).length).toBe(xSlots.length);
  });

  it('refuses other kinds of caller with 401 on every slot call', async () => {
    const slot = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '15:00' });
    for (const caller of wrongKinds()) {
      expect((await call('GET', `/api/admin/slots?date=${TOMORROW}`, caller.token)).statusCode, caller.name).toBe(401);
      expect(
        (await call('POST', '/api/admin/slots/bulk', caller.token, { date: TOMORROW, start: '10:00', end: '11:00', interval: 30, capacity: 2 })).statusCode,
        caller.name,
      ).toBe(401);
      expect((await call('PATCH', `/api/admin/slots/${slot.id}`, caller.token, { status: 'full' })).statusCode, caller.name).toBe(401);
    }
  });
});
