import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, requestHold, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot } from '#server/test/factories.ts';

const login = (t: TestApp, username: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'wrong-password' }, remoteAddress: ip });

describe('rate limits (memory store)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_LOGIN_PER_IP: '5', RATE_LIMIT_LOGIN_PER_ACCOUNT: '3', RATE_LIMIT_BOOKING_PER_DINER: '2', RATE_LIMIT_WINDOW_SECONDS: '60' },
    });
  });
  afterAll(() => t.close());

  it('limits login attempts per account name, whatever the IP, with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await login(t, 'Victim', `10.0.1.${i}`)).statusCode).toBe(401);
    const blocked = await login(t, 'victim', '10.0.1.99');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(blocked.json().error).toMatch(/Too many attempts/);
    // Another account from a fresh IP is unaffected.
    expect((await login(t, 'someone-else', '10.0.2.1')).statusCode).toBe(401);
  });

  it('limits login attempts per IP across account names, and the window resets', async () => {
    for (let i = 0; i < 5; i++) expect((await login(t, `user${i}`, '10.0.3.1')).statusCode).toBe(401);
    expect((await login(t, 'user-next', '10.0.3.1')).statusCode).toBe(429);
    t.clock.advance(60_000);
    expect((await login(t, 'user-next', '10.0.3.1')).statusCode).toBe(401);
  });

  it('limits reservation creation per diner', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-25', time: '19:00', capacity: 50 });
    const diner = await buildDiner(t.database.db);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: '2026-11-25', time: '19:00', partySize: 1 });
      statuses.push(response.statusCode);
    }
    // The first succeeds, the second is refused by the same-time rule, the third by the limit.
    expect(statuses).toEqual([201, 409, 429]);
  });
});

async function isReachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe.each(['postgres', 'redis'] as const)('rate limits shared by two instances (%s store)', (store) => {
  let first: TestApp;
  let second: TestApp;
  let available = true;

  beforeAll(async () => {
    if (store === 'redis') {
      available = await isReachable(6379);
      // Under CI the machine's Redis must be there: a missing service fails, it is not skipped.
      if (!available && process.env.CI === 'true') throw new Error('Redis is not reachable on 127.0.0.1:6379');
    }
    const env = { RATE_LIMIT_STORE: store, RATE_LIMIT_LOGIN_PER_ACCOUNT: '4', RATE_LIMIT_WINDOW_SECONDS: '3600' };
    first = await createTestApp({ env });
    // With postgres both instances share one database, as N instances behind a proxy do; with
    // redis each has its own database, so only Redis can carry the count from one to the other.
    second = store === 'postgres' ? await createTestApp({ env, database: { ...first.database, close: async () => {} } }) : await createTestApp({ env });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts attempts made on either instance against one budget', async (context) => {
    if (!available) context.skip();
    const name = `shared-${store}-${Date.now()}`;
    expect((await login(first, name, '10.1.0.1')).statusCode).toBe(401);
    expect((await login(second, name, '10.1.0.2')).statusCode).toBe(401);
    expect((await login(first, name, '10.1.0.3')).statusCode).toBe(401);
    expect((await login(second, name, '10.1.0.4')).statusCode).toBe(401);
    expect((await login(first, name, '10.1.0.5')).statusCode).toBe(429);
    expect((await login(second, name, '10.1.0.6')).statusCode).toBe(429);
  });
});
