import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { availabilityCalendar, availabilityResponse } from '#common/contract/restaurants.ts';
import { anonymous } from '#server/modules/accounts/principal.ts';
import { createTestApp, requestHold, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * Decision 186: availability and the calendar send JSON text they put together from memory,
 * without the contract's per-request check. It must be, byte for byte, what the contract's
 * serialiser wrote from the service's objects before.
 */
let t: TestApp;
let restaurant: BuiltRestaurant;
const contractText = {
  availability: serializerCompiler({ schema: availabilityResponse, method: 'GET', url: '/availability' }),
  calendar: serializerCompiler({ schema: availabilityCalendar, method: 'GET', url: '/calendar' }),
};

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(TEST_NOW); // 10:00 on Mon 2026-11-23 in Kolkata
  restaurant = await buildRestaurant(t.database.db);
  const staff = await buildStaff(t.database.db, restaurant.id);
  // A deposit by default and a prepayment on weekend evenings, so both kinds and none are sent.
  const policy = {
    defaultCharge: { kind: 'deposit', perCoverPaise: 20_000 },
    rules: [{ days: [5, 6], fromTime: '19:00', untilTime: '23:00', kind: 'prepayment', perCoverPaise: 50_000 }],
    freeCancelMinutes: 120,
    lateCancelKeepPercent: 100,
    noShowKeepPercent: 50,
  };
  const saved = await t.app.inject({ method: 'PUT', url: '/api/admin/deposit-policy', headers: { authorization: `Bearer ${staff.token}` }, payload: policy });
  expect(saved.statusCode, saved.body).toBe(200);
  for (const date of ['2026-11-22', '2026-11-23', '2026-11-27', '2026-11-28', '2026-12-30']) {
    for (const [time, capacity] of [
      ['10:15', 4],
      ['12:00', 2],
      ['19:30', 6],
      ['21:00', 8],
    ] as const) {
      await buildSlot(t.database.db, restaurant.id, { date, time, capacity, status: time === '21:00' && date === '2026-11-27' ? 'full' : 'available' });
    }
  }
  const diner = await buildDiner(t.database.db);
  const held = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: '2026-11-28', time: '19:30', partySize: 3 });
  expect(held.statusCode, held.body).toBe(201);
});
afterAll(() => t.close());

describe('the public reads send the contract serialiser’s text (decision 186)', () => {
  it('availability: every party size, held dates (with a hold, a full slot, a passed cut-off) and dates read directly', async () => {
    for (const key of [restaurant.slug, restaurant.id]) {
      for (const date of ['2026-11-22', '2026-11-23', '2026-11-27', '2026-11-28', '2026-11-29', '2026-12-30']) {
        for (const partySize of [1, 2, 3, 4, 6, 9, 20]) {
          // The first read builds the text, the second is the text kept for the date and party size.
          for (const read of ['built', 'kept']) {
            const response = await t.app.inject({ method: 'GET', url: `/api/restaurants/${key}/availability?date=${date}&partySize=${partySize}` });
            expect(response.statusCode, response.body).toBe(200);
            expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
            const entries = await t.app.services.availability.getAvailability(anonymous, key, date, partySize);
            expect(response.body, `${date} × ${partySize}, ${read}`).toBe(contractText.availability(entries));
          }
        }
      }
    }
  });

  it('availability: the text follows the clock (a hold expiring, a cut-off passing) and a write', async () => {
    const url = `/api/restaurants/${restaurant.slug}/availability?date=2026-11-28&partySize=4`;
    const before = (await t.app.inject({ method: 'GET', url })).body;
    t.clock.advance(t.config.holdMinutes * 60_000);
    const afterExpiry = await t.app.inject({ method: 'GET', url });
    expect(afterExpiry.body).not.toBe(before);
    expect(afterExpiry.body).toBe(contractText.availability(await t.app.services.availability.getAvailability(anonymous, restaurant.slug, '2026-11-28', 4)));
    expect((await t.app.inject({ method: 'GET', url })).body).toBe(afterExpiry.body);
    expect(t.app.services.availability.heldAvailabilityTexts().characters).toBeGreaterThan(0);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: '2026-11-28', time: '21:00', partySize: 6 });
    expect(held.statusCode, held.body).toBe(201);
    // The write announced for the restaurant dropped its finished texts with its cached slots.
    expect(t.app.services.availability.heldAvailabilityTexts()).toEqual({ restaurants: 0, characters: 0 });
    const afterHold = await t.app.inject({ method: 'GET', url });
    expect(afterHold.body).not.toBe(afterExpiry.body);
    expect(afterHold.body).toBe(contractText.availability(await t.app.services.availability.getAvailability(anonymous, restaurant.slug, '2026-11-28', 4)));
    t.clock.set(TEST_NOW);
  });

  it('calendar', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/restaurants/${restaurant.slug}/calendar` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(contractText.calendar(await t.app.services.availability.getCalendar(anonymous, restaurant.slug)));
  });

  it('still sends the security headers and the request id, and no cookie is needed or set', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/restaurants/${restaurant.slug}/availability?date=2026-11-23&partySize=2`,
      headers: { cookie: 'tf_dating_session=whatever', authorization: 'Bearer not-a-live-token' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('compresses an answer over the threshold for a browser (the same text), and sends a small one as it is', async () => {
    // A day of 30 times is over 2 KB of JSON; the usual day of 16 is under it.
    const big = await buildRestaurant(t.database.db);
    for (let index = 0; index < 30; index++) {
      const time = `${String(11 + Math.floor(index / 3)).padStart(2, '0')}:${['00', '15', '45'][index % 3]}`;
      await buildSlot(t.database.db, big.id, { date: '2026-11-24', time, capacity: 4 });
    }
    const ask = (slug: string, encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/restaurants/${slug}/availability?date=2026-11-24&partySize=2`,
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const plain = await ask(big.slug);
    expect(plain.body.length).toBeGreaterThan(2048);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const packed = await ask(big.slug, `${encoding}, deflate`);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toBe('accept-encoding');
      expect(decode(packed.rawPayload).toString('utf8')).toBe(plain.body);
    }
    const small = await t.app.inject({
      method: 'GET',
      url: `/api/restaurants/${restaurant.slug}/availability?date=2026-11-23&partySize=2`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(small.body.length).toBeLessThan(2048);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
  });
});
