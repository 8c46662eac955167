import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bookingCode } from '#common/domain/booking-code.ts';
import { buildDiner, buildSlot } from '#server/test/factories.ts';
import { call, diner, hold, pendingBooking, setUpStaffFixture, staffX, staffY, t, TOMORROW, wrongKinds, x, y } from '#server/test/staff-fixture.ts';

/** Find a booking (decision 236): by guest name, phone or booking code, any date, the staff's own restaurant only. */
setUpStaffFixture();

const search = (q: string, token = staffX.token) => call('GET', `/api/admin/bookings/search?q=${encodeURIComponent(q)}`, token);
const idsOf = (response: Awaited<ReturnType<typeof search>>) => (response.json().results as { id: string }[]).map((hit) => hit.id);

describe('GET /api/admin/bookings/search', () => {
  it('finds a booking by part of the guest name, by phone digits written any way, and by its code with or without the dash', async () => {
    const meera = await buildDiner(t.database.db, { name: 'Meera Krishnan', phone: '+91 99001 23456' });
    await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '20:30', capacity: 8 });
    const held = await hold(meera.token, x.slug, TOMORROW, '20:30', 4);
    expect(held.statusCode, held.body).toBe(201);
    const id = held.json().id as string;
    const other = await pendingBooking('19:30', { date: TOMORROW });

    for (const query of ['meera', 'KRISHNAN', '99001 23456', '9900123456', bookingCode(id), bookingCode(id).replace('-', '').toLowerCase()]) {
      const response = await search(query);
      expect(response.statusCode, response.body).toBe(200);
      expect(idsOf(response), query).toContain(id);
      expect(idsOf(response), query).not.toContain(other.id);
    }
    const hit = (await search('meera')).json().results.find((result: { id: string }) => result.id === id);
    expect(hit).toMatchObject({
      code: bookingCode(id),
      partySize: 4,
      status: 'HELD',
      slot: { date: TOMORROW, time: '20:30' },
      user: { name: 'Meera Krishnan' },
    });
  });

  it('reaches past and far-off dates, upcoming first, and never another restaurant’s bookings', async () => {
    const past = await pendingBooking('13:00', { date: '2026-11-23' });
    await t.database.db.execute(sql`UPDATE reservations SET starts_at = '2026-10-01T14:00:00Z' WHERE id = ${past.id}`);
    const later = await pendingBooking('13:30', { date: '2026-12-20' });
    await t.database.db.execute(sql`UPDATE users SET name = 'Ravi Shankar' WHERE id IN (${past.diner.id}, ${later.diner.id})`);
    const ravi = await search('ravi');
    expect(idsOf(ravi)).toEqual([later.id, past.id]);
    expect(idsOf(await search('ravi', staffY.token))).toEqual([]);
    // Another restaurant's booking by its own code: not found from X.
    await buildSlot(t.database.db, y.id, { date: TOMORROW, time: '21:00', capacity: 8 });
    const elsewhere = await hold(diner.token, y.slug, TOMORROW, '21:00');
    expect(idsOf(await search(bookingCode(elsewhere.json().id)))).toEqual([]);
    expect(idsOf(await search(bookingCode(elsewhere.json().id), staffY.token))).toEqual([elsewhere.json().id]);
  });

  it('asks for two characters at least, treats % and _ as letters, and refuses anyone but staff', async () => {
    expect((await search('a')).statusCode).toBe(400);
    expect((await search('a')).json().error).toBe('q: Type at least 2 characters');
    expect(idsOf(await search('%%'))).toEqual([]);
    for (const caller of wrongKinds()) expect((await call('GET', '/api/admin/bookings/search?q=asha', caller.token)).statusCode, caller.name).toBe(401);
  });
});
