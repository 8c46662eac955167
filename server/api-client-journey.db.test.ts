import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTablefairClient } from '#api-client/client.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, buildSlot } from '#server/test/factories.ts';

/**
 * The diner journey through the client generated from the OpenAPI document only, against the app
 * listening on a real port: if the document misdescribes a path, a parameter, a body or an
 * answer, this fails (at tsc for shapes, here for what the server really does).
 */
describe('the generated API client', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    const restaurant = await buildRestaurant(t.database.db, { slug: 'client-journey-bistro', name: 'Client Journey Bistro' });
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-23', time: '20:00', capacity: 8 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('signs up, browses, holds, confirms, lists and cancels a reservation', async () => {
    const anonymous = createTablefairClient(baseUrl);
    const signUp = await anonymous.POST('/api/auth/signup', { body: { username: 'client_journey', password: 'masala-dosa-42', name: 'Asha K' } });
    expect(signUp.response.status, JSON.stringify(signUp.error)).toBe(201);
    expect(signUp.data?.username).toBe('client_journey');

    const logIn = await anonymous.POST('/api/auth/login', { body: { username: 'client_journey', password: 'masala-dosa-42' } });
    expect(logIn.response.status, JSON.stringify(logIn.error)).toBe(200);
    const diner = createTablefairClient(baseUrl, logIn.data!.token);

    const list = await diner.GET('/api/restaurants');
    expect(list.data?.some((restaurant) => restaurant.slug === 'client-journey-bistro')).toBe(true);
    const restaurant = await diner.GET('/api/restaurants/{slug}', { params: { path: { slug: 'client-journey-bistro' } } });
    expect(restaurant.data?.name).toBe('Client Journey Bistro');

    const availability = await diner.GET('/api/restaurants/{slug}/availability', {
      params: { path: { slug: 'client-journey-bistro' }, query: { date: '2026-11-23', partySize: 2 } },
    });
    expect(availability.data?.find((slot) => slot.time === '20:00')?.available).toBe(true);

    const hold = await diner.POST('/api/reservations', { body: { restaurantSlug: 'client-journey-bistro', date: '2026-11-23', time: '20:00', partySize: 2 } });
    expect(hold.response.status, JSON.stringify(hold.error)).toBe(201);
    expect(hold.data?.status).toBe('HELD');
    const id = hold.data!.id;

    const confirm = await diner.POST('/api/reservations/{id}/confirm', { params: { path: { id } }, body: {} });
    expect(confirm.response.status, JSON.stringify(confirm.error)).toBe(200);
    expect(confirm.data?.status).toBe('PENDING');
    expect(confirm.data?.payment).toBeNull();

    const mine = await diner.GET('/api/reservations');
    expect(mine.data?.map((reservation) => [reservation.id, reservation.status])).toContainEqual([id, 'PENDING']);

    const cancel = await diner.POST('/api/reservations/{id}/cancel', { params: { path: { id } }, body: {} });
    expect(cancel.response.status, JSON.stringify(cancel.error)).toBe(200);
    expect(cancel.data?.status).toBe('CANCELLED');

    const refused = await anonymous.GET('/api/reservations');
    expect(refused.response.status).toBe(401);
    expect(typeof refused.error?.error).toBe('string');
  });
});
