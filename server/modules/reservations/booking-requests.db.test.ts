import { describe, expect, it } from 'vitest';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import { bearer, requestHold } from '#server/test/app.ts';
import { buildDiner } from '#server/test/factories.ts';
import { DATE, diner, freshSlot, heldReservation, restaurant, setUpReservationsFixture, t } from './reservations.test-support.ts';

/** What a diner tells the restaurant for a booking (decision 260), through HTTP on a real database. */
setUpReservationsFixture();

const request = { occasion: 'birthday', picks: ['allergies', 'jain'], note: 'Peanut allergy; <b>cake</b> at 9' };

function putRequest(id: string, token: string | undefined, payload: unknown) {
  return t.app.inject({ method: 'PUT', url: `/api/reservations/${id}/request`, headers: token ? bearer(token) : {}, payload: payload as object });
}

describe("the diner's request", () => {
  it('is taken with the hold, shown back, and kept as typed', async () => {
    const slot = await freshSlot();
    const response = await requestHold(t.app, diner.token, {
      restaurantSlug: restaurant.slug,
      date: DATE,
      time: slot.time,
      partySize: 2,
      request: { ...request, note: ' two\nlines ' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().request).toEqual({ occasion: 'birthday', picks: ['allergies', 'jain'], note: 'two lines' });
    const read = await t.app.inject({ method: 'GET', url: `/api/reservations/${response.json().id}` });
    expect(read.json().request.note).toBe('two lines');
    expect(Date.parse(read.json().requestEditableUntil)).toBe(kolkataInstant(DATE, slot.time).getTime() - t.config.bookingCutoffMinutes * MINUTE_MS);
  });

  it('is changed by the id alone while a hold, by the owner only after, and refused past the cut-off', async () => {
    const made = await heldReservation();
    const set = await putRequest(made.id, undefined, request);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().request).toEqual(request);

    const other = await buildDiner(t.database.db);
    expect((await putRequest(made.id, other.token, request)).statusCode).toBe(403);
    expect((await putRequest(made.id, made.owner.token, { ...request, note: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await putRequest(made.id, made.owner.token, { ...request, occasion: 'wedding' })).statusCode).toBe(400);

    const confirmed = await t.app.inject({ method: 'POST', url: `/api/reservations/${made.id}/confirm`, headers: bearer(made.owner.token), payload: {} });
    expect(confirmed.statusCode).toBe(200);
    expect((await putRequest(made.id, undefined, request)).statusCode).toBe(401);

    t.clock.set(new Date(kolkataInstant(DATE, made.slot.time).getTime() - (t.config.bookingCutoffMinutes - 1) * MINUTE_MS));
    const late = await putRequest(made.id, made.owner.token, { occasion: null, picks: [], note: 'one more thing' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatch(/past its cut-off/);

    // Removing what they told the restaurant stays possible, even after the cut-off.
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/reservations/${made.id}/request`, headers: bearer(made.owner.token) });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().request).toBeNull();
  });
});
