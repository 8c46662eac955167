import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createConnection, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drawOrder } from '#common/domain/draw.ts';
import { loadConfig } from '#server/config.ts';
import { queryRows } from '#server/db/client.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import { hashToken } from '#server/modules/accounts/sessions.service.ts';
import { buildVerifiedDiner, createDrop, enterDrop, entriesOf } from '#server/modules/drops/drops.test-support.ts';
import { bearer, createTestApp, TEST_NOW, TEST_TODAY, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, coversHeld, TEST_PASSWORD } from '#server/test/factories.ts';
import { freePort, startServerProcess, type ServerProcess } from '#server/test/server-process.ts';

/**
 * Holes in fairness and trust, one suite a reader can find in one place: each `describe` names a
 * hole by its number and title, and each test failed on the code before its fix
 * (decisions 093–095). Holes that need a real process (5) or real sockets (6) are here too.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

let phoneCounter = 0;
/** A fresh Indian mobile number per test. */
const freshPhone = () => `+9197${String(20_000_000 + phoneCounter++).padStart(8, '0')}`;

function call(app: TestApp['app'], method: 'GET' | 'POST', url: string, options: { token?: string; payload?: object; headers?: Record<string, string> } = {}) {
  return app.inject({ method, url, headers: { ...(options.token ? bearer(options.token) : {}), ...options.headers }, payload: options.payload });
}

describe('1. anyone can read anyone’s codes (the dev mailbox)', () => {
  it('shows a signed-in diner the code sent to the phone they are verifying, and nobody else sees it', async () => {
    const owner = await buildDiner(t.database.db);
    const stranger = await buildDiner(t.database.db);
    const phone = freshPhone();
    expect((await call(t.app, 'POST', '/api/auth/phone/start', { token: owner.token, payload: { phone } })).statusCode).toBe(202);

    const own = await call(t.app, 'GET', `/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`, { token: owner.token });
    expect(own.statusCode).toBe(200);
    expect(own.json().messages).toHaveLength(1);
    expect(own.json().messages[0].body).toMatch(/\b\d{6}\b/);

    // Another diner asking for that phone by name, or for everything, sees nothing of it.
    for (const url of [`/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`, '/api/dev/mailbox']) {
      const other = await call(t.app, 'GET', url, { token: stranger.token });
      expect(other.statusCode).toBe(200);
      expect(JSON.stringify(other.json().messages)).not.toContain(phone);
    }
    // Signed out: nothing at all.
    const anonymous = await call(t.app, 'GET', `/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Sign in as a diner to see the messages sent to you' });
  });

  it('shows the whole outbox only with DEV_MAILBOX=all, which production refuses at start', async () => {
    const owner = await buildDiner(t.database.db);
    const phone = freshPhone();
    expect((await call(t.app, 'POST', '/api/auth/phone/start', { token: owner.token, payload: { phone } })).statusCode).toBe(202);
    const all = await createTestApp({ env: { DEV_MAILBOX: 'all' }, database: t.database });
    try {
      const everything = await call(all.app, 'GET', `/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`);
      expect(everything.statusCode).toBe(200);
      expect(everything.json().messages).toHaveLength(1);
    } finally {
      await all.app.close();
    }
    expect(() => loadConfig({ NODE_ENV: 'production', DEV_MAILBOX: 'all' })).toThrow(/DEV_MAILBOX=all .* refused when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' }).notifications.devMailbox).toBe('off');
    expect(loadConfig({}).notifications.devMailbox).toBe('own');
  });
});

describe('2. forged X-Forwarded-For beats every per-IP limit', () => {
  /** Login attempts for rotating account names, each with a new forged address before the one the proxy saw. */
  async function loginsThroughProxy(env: Record<string, string>, count: number, request: (i: number) => { remoteAddress?: string; forwardedFor: string }) {
    const proxied = await createTestApp({ env: { RATE_LIMIT_LOGIN_PER_IP: '30', ...env }, database: t.database });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        const { remoteAddress, forwardedFor } = request(i);
        const response = await proxied.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { username: `sprayed_${i}`, password: 'wrong-password' },
        });
        statuses.push(response.statusCode);
      }
      return statuses;
    } finally {
      await proxied.app.close();
    }
  }
  const forged = (i: number) => `203.0.113.${i % 250}, 192.0.2.${(i * 7) % 250}`;

  it('TRUST_PROXY=1 (nginx appending with $proxy_add_x_forwarded_for): 40 logins from one client with rotating forged chains meet the per-IP limit', async () => {
    const statuses = await loginsThroughProxy({ TRUST_PROXY: '1' }, 40, (i) => ({ forwardedFor: `${forged(i)}, 198.51.100.7` }));
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
  });

  it('TRUST_PROXY=true is one hop, never "trust everything"', async () => {
    const statuses = await loginsThroughProxy({ TRUST_PROXY: 'true' }, 40, (i) => ({ forwardedFor: `${forged(i)}, 198.51.100.8` }));
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('TRUST_PROXY as a list of proxy addresses: only entries added by those proxies are believed', async () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.5']);
    expect(() => loadConfig({ TRUST_PROXY: 'everything' })).toThrow(/TRUST_PROXY: everything is not a hop count, an IP address or a CIDR/);
    // Two proxies of ours (10.0.0.9 appended by the outer one); the client is 198.51.100.9 whatever it forged.
    const statuses = await loginsThroughProxy({ TRUST_PROXY: '10.0.0.0/8' }, 40, (i) => ({
      remoteAddress: '10.0.0.5',
      forwardedFor: `${forged(i)}, 198.51.100.9, 10.0.0.9`,
    }));
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    // A caller that is not one of our proxies is itself the client: its header counts for nothing.
    const direct = await loginsThroughProxy({ TRUST_PROXY: '10.0.0.0/8' }, 40, (i) => ({ remoteAddress: '198.51.100.10', forwardedFor: forged(i) }));
    expect(direct.slice(30)).toEqual(Array(10).fill(429));
  });
});

describe('3. anyone can lock another person out', () => {
  /** A dating account, whose login names it by phone (the name phone/start also carries). */
  async function buildDatingUser(phone: string): Promise<void> {
    await queryRows(
      t.database.db,
      sql`INSERT INTO dating_users (phone, password_hash, name, dob, date_budget, cuisines, first_date_types)
          VALUES (${phone}, ${await hashPassword(TEST_PASSWORD, 10)}, 'Meera', '1995-05-05', 'INR_1000_2500', '{NORTH_INDIAN}', '{COFFEE}') RETURNING id`,
    );
  }
  const limited = { RATE_LIMIT_LOGIN_PER_ACCOUNT: '10', RATE_LIMIT_LOGIN_PER_IP: '1000' };

  it('eleven anonymous phone/start calls naming a stranger’s phone leave that person’s correct login working', async () => {
    const app = await createTestApp({ env: limited, database: t.database });
    try {
      const phone = freshPhone();
      await buildDatingUser(phone);
      for (let i = 0; i < 11; i++) {
        const started = await call(app.app, 'POST', '/api/auth/phone/start', { payload: { phone } });
        // Refused (the caller's own budget may run out first); never a code sent.
        expect([401, 429]).toContain(started.statusCode);
      }
      const login = await call(app.app, 'POST', '/dating/auth/login', { payload: { phone, password: TEST_PASSWORD } });
      expect(login.statusCode, login.body).toBe(200);
    } finally {
      await app.app.close();
    }
  });

  it('other diners asking for codes to a stranger’s phone do not spend that person’s login budget', async () => {
    const app = await createTestApp({ env: limited, database: t.database });
    try {
      const phone = freshPhone();
      await buildDatingUser(phone);
      for (let i = 0; i < 11; i++) {
        const other = await buildDiner(t.database.db);
        await call(app.app, 'POST', '/api/auth/phone/start', { token: other.token, payload: { phone } });
      }
      expect((await call(app.app, 'POST', '/dating/auth/login', { payload: { phone, password: TEST_PASSWORD } })).statusCode).toBe(200);
    } finally {
      await app.app.close();
    }
  });

  it('only failed attempts spend an account’s login budget: the owner’s own successful logins never lock them out', async () => {
    const app = await createTestApp({ env: limited, database: t.database });
    try {
      const owner = await buildDiner(t.database.db);
      for (let i = 0; i < 15; i++) {
        const login = await call(app.app, 'POST', '/api/auth/login', { payload: { username: owner.username, password: TEST_PASSWORD } });
        expect(login.statusCode, `login ${i + 1}`).toBe(200);
      }
      // Ten wrong passwords still close the account's budget for the window, the right one included.
      for (let i = 0; i < 10; i++)
        expect((await call(app.app, 'POST', '/api/auth/login', { payload: { username: owner.username, password: 'wrong-password' } })).statusCode).toBe(401);
      expect((await call(app.app, 'POST', '/api/auth/login', { payload: { username: owner.username, password: TEST_PASSWORD } })).statusCode).toBe(429);
    } finally {
      await app.app.close();
    }
  });
});

describe('5. two servers on one data folder', () => {
  it(
    'refuses a second server on the same DATA_DIR, and after a SIGKILL a restart takes over the lock and keeps every write',
    { timeout: 240_000 },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-lock-'));
      // Always the embedded database (the lock is about it), whatever engine this pass uses.
      const env = { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '0', PASSWORD_HASH_COST: '10' };
      let first: ServerProcess | undefined;
      try {
        first = await startServerProcess(env, await freePort());
        expect(readFileSync(join(dataDir, 'tablefair.lock'), 'utf8').trim()).toBe(String(first.child.pid));
        const signup = await fetch(`${first.baseUrl}/api/auth/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'before_the_crash', password: TEST_PASSWORD }),
        });
        expect(signup.status).toBe(201);

        // A second `npm start` on the same folder says why and exits instead of serving.
        await expect(startServerProcess(env, await freePort())).rejects.toThrow(/Another Tablefair \(PID \d+\) is already using DATA_DIR/);

        // Private: the folders owner-only, the files the app wrote not readable by others.
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
        expect(statSync(join(dataDir, 'pglite')).mode & 0o777).toBe(0o700);
        expect(statSync(join(dataDir, 'tablefair.lock')).mode & 0o777).toBe(0o600);
        expect(statSync(join(dataDir, 'pglite', 'PG_VERSION')).mode & 0o077).toBe(0);

        first.child.kill('SIGKILL');
        await first.exited;
        first = undefined;
        // The lock is left behind naming a dead process: the restart takes it over.
        expect(existsSync(join(dataDir, 'tablefair.lock'))).toBe(true);
        first = await startServerProcess(env, await freePort());
        const login = await fetch(`${first.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'before_the_crash', password: TEST_PASSWORD }),
        });
        expect(login.status).toBe(200);
        first.child.kill('SIGTERM');
        await first.exited;
        first = undefined;
        // A clean stop removes its lock.
        expect(existsSync(join(dataDir, 'tablefair.lock'))).toBe(false);
      } finally {
        if (first) {
          first.child.kill('SIGKILL');
          await first.exited;
        }
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe('6. slow clients', () => {
  it('answers a trickled body 408 and closes the connection within the request timeout', { timeout: 30_000 }, async () => {
    const slow = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1.5' }, database: t.database });
    try {
      await slow.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = slow.app.server.address() as AddressInfo;
      const socket = createConnection({ host: '127.0.0.1', port });
      await new Promise((resolve) => socket.once('connect', resolve));
      const startedAt = Date.now();
      socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{');
      // One byte every 100 ms: 200 bytes would take 20 s.
      const trickle = setInterval(() => !socket.destroyed && socket.write(' '), 100);
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      await new Promise((resolve) => socket.once('close', resolve));
      clearInterval(trickle);
      const took = Date.now() - startedAt;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('{"error":"The request took too long to arrive. Please try again."}');
      expect(took).toBeLessThan(4_000);
      expect(took).toBeGreaterThanOrEqual(1_400);
    } finally {
      await slow.app.close();
    }
  });

  it('does not time an injected request, which has no connection to close (the sandbox delivers its webhooks so)', async () => {
    const quick = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '0.2' }, database: t.database });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      // Refused by an onRequest hook (415), so its body is never read or validated.
      const refused = await quick.app.inject({ method: 'POST', url: '/dating/auth/signup', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
      expect(refused.statusCode).toBe(415);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      await quick.app.close();
    }
  });

  it('lets a diner hold 5 live-event streams; the 6th gets 429 with a reason, and closing one frees a place', { timeout: 30_000 }, async () => {
    const live = await createTestApp({ database: t.database });
    const open: AbortController[] = [];
    try {
      await live.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = live.app.server.address() as AddressInfo;
      const diner = await buildDiner(t.database.db);
      const stream = async () => {
        const controller = new AbortController();
        const response = await fetch(`http://127.0.0.1:${port}/api/me/events`, { headers: bearer(diner.token), signal: controller.signal });
        if (response.ok) open.push(controller);
        return { status: response.status, body: response.ok ? '' : await response.text() };
      };
      for (let i = 0; i < 5; i++) expect((await stream()).status).toBe(200);
      const sixth = await stream();
      expect(sixth.status).toBe(429);
      expect(JSON.parse(sixth.body)).toEqual({
        error: 'Too many live updates are open for this account (at most 5). Close another tab or window showing them and try again.',
      });
      open.shift()!.abort();
      let again = await stream();
      for (let tries = 0; again.status === 429 && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await stream();
      }
      expect(again.status).toBe(200);
    } finally {
      for (const controller of open) controller.abort();
      await live.app.close();
    }
  });

  it('caps streams per address across accounts (EVENT_STREAMS_PER_IP), the portal’s included', { timeout: 30_000 }, async () => {
    const live = await createTestApp({ env: { EVENT_STREAMS_PER_IP: '3' }, database: t.database });
    const open: AbortController[] = [];
    try {
      await live.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = live.app.server.address() as AddressInfo;
      const restaurant = await buildRestaurant(t.database.db);
      const staff = await buildStaff(t.database.db, restaurant.id);
      const statuses: number[] = [];
      for (const [path, token] of [
        ['/api/me/events', (await buildDiner(t.database.db)).token],
        ['/api/me/events', (await buildDiner(t.database.db)).token],
        ['/api/admin/events', staff.token],
        ['/api/me/events', (await buildDiner(t.database.db)).token],
        ['/api/admin/events', staff.token],
      ] as const) {
        const controller = new AbortController();
        const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: bearer(token), signal: controller.signal });
        statuses.push(response.status);
        if (response.ok) open.push(controller);
        else expect((await response.json()).error).toMatch(/^Too many live updates are open from this address \(at most 3\)/);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      for (const controller of open) controller.abort();
      await live.app.close();
    }
  });
});

describe('4. SMS pumping', () => {
  /** Apps on the shared database with their own caps and their own day, so counts from other tests never mix in. */
  async function smsApp(env: Record<string, string>, now: string) {
    return createTestApp({
      env: { SMS_MAX_PER_ACCOUNT_PER_DAY: '100', SMS_MAX_PER_IP_PER_DAY: '100', SMS_MAX_PER_HOUR: '100', ...env },
      database: t.database,
      now,
    });
  }
  const start = (app: TestApp, token: string, phone: string, remoteAddress = '198.51.100.40') =>
    app.app.inject({ method: 'POST', url: '/api/auth/phone/start', headers: bearer(token), payload: { phone }, remoteAddress });
  const textsTo = async (phone: string) => (await queryRows(t.database.db, sql`SELECT 1 FROM outbox_messages WHERE recipient = ${phone}`)).length;

  it('texts only the allowed countries (SMS_ALLOWED_COUNTRY_CODES, +91 by default): another number is 400 and nothing is sent', async () => {
    const app = await smsApp({}, '2026-12-01T04:30:00.000Z');
    const gulf = await smsApp({ SMS_ALLOWED_COUNTRY_CODES: '+91, +971' }, '2026-12-01T04:30:00.000Z');
    try {
      const diner = await buildDiner(t.database.db);
      const refused = await start(app, diner.token, '+1 415 555 0123');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'phone: Codes can only be sent to numbers starting +91' });
      expect(await textsTo('+14155550123')).toBe(0);
      expect((await start(gulf, diner.token, '+971 50 123 4567')).statusCode).toBe(202);
      expect(loadConfig({ SMS_ALLOWED_COUNTRY_CODES: '+91,+971' }).sms.allowedCountryCodes).toEqual(['+91', '+971']);
      expect(() => loadConfig({ SMS_ALLOWED_COUNTRY_CODES: '91' })).toThrow(/SMS_ALLOWED_COUNTRY_CODES/);
      expect(loadConfig({}).sms).toEqual({ allowedCountryCodes: ['+91'], maxPerAccountPerDay: 5, maxPerIpPerDay: 20, maxPerHour: 200 });
    } finally {
      await app.app.close();
      await gulf.app.close();
    }
  });

  it('caps texts per account per day, counted in the database so two instances share the cap; the next day it resets', async () => {
    const day = '2026-12-02T04:30:00.000Z';
    const one = await smsApp({ SMS_MAX_PER_ACCOUNT_PER_DAY: '2' }, day);
    const two = await smsApp({ SMS_MAX_PER_ACCOUNT_PER_DAY: '2' }, day);
    try {
      const diner = await buildDiner(t.database.db);
      expect((await start(one, diner.token, freshPhone())).statusCode).toBe(202);
      two.clock.advance(31_000);
      expect((await start(two, diner.token, freshPhone())).statusCode).toBe(202);
      one.clock.advance(62_000);
      const third = freshPhone();
      const refused = await start(one, diner.token, third);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'We have sent this account 2 codes today, the most we send in a day. Please try again tomorrow.' });
      expect(await textsTo(third)).toBe(0);
      // Midnight in Kolkata (18:30 UTC) starts a new day.
      one.clock.set('2026-12-02T18:30:00.000Z');
      expect((await start(one, diner.token, third)).statusCode).toBe(202);
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });

  it('caps texts per address per day across accounts', async () => {
    const app = await smsApp({ SMS_MAX_PER_IP_PER_DAY: '3' }, '2026-12-03T04:30:00.000Z');
    try {
      for (let i = 0; i < 3; i++) expect((await start(app, (await buildDiner(t.database.db)).token, freshPhone(), '198.51.100.41')).statusCode).toBe(202);
      const refused = await start(app, (await buildDiner(t.database.db)).token, freshPhone(), '198.51.100.41');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'Too many codes have been asked for from this network today. Please try again tomorrow.' });
      expect((await start(app, (await buildDiner(t.database.db)).token, freshPhone(), '198.51.100.42')).statusCode).toBe(202);
    } finally {
      await app.app.close();
    }
  });

  it('caps all texts per hour, whoever asks; the next hour sends again', async () => {
    const app = await smsApp({ SMS_MAX_PER_HOUR: '3' }, '2026-12-04T04:30:00.000Z');
    try {
      for (let i = 0; i < 3; i++)
        expect((await start(app, (await buildDiner(t.database.db)).token, freshPhone(), `198.51.100.${50 + i}`)).statusCode).toBe(202);
      const refused = await start(app, (await buildDiner(t.database.db)).token, freshPhone(), '198.51.100.60');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'We are sending too many texts right now. Please try again within the hour.' });
      app.clock.set('2026-12-04T05:00:00.000Z');
      expect((await start(app, (await buildDiner(t.database.db)).token, freshPhone(), '198.51.100.61')).statusCode).toBe(202);
    } finally {
      await app.app.close();
    }
  });
});

/*
 * Holes 2, 3 and 9 of docs/security.md's first table. Hole 3 (an expired hold skips the waitlist) also has a property test
 * over every way covers are freed: server/security-waitlist-first.property.db.test.ts.
 */
describe('holes in fairness: reservation ids, freed covers, recycled holds', () => {
  describe('2. A reservation id alone cancels an accepted booking', () => {
    const DATE = TEST_TODAY;
    let nextMinute = 0;

    /** A reservation of a fresh diner on a fresh slot, driven to `status` by its owner and the restaurant's staff. */
    async function bookingIn(status: 'HELD' | 'PENDING' | 'CONFIRMED') {
      const restaurant = await buildRestaurant(t.database.db);
      const staff = await buildStaff(t.database.db, restaurant.id);
      const owner = await buildDiner(t.database.db);
      const minute = nextMinute++;
      const time = `${String(19 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      await buildSlot(t.database.db, restaurant.id, { date: DATE, time, capacity: 4 });
      const held = await call(t.app, 'POST', '/api/reservations', {
        token: owner.token,
        payload: { restaurantSlug: restaurant.slug, date: DATE, time, partySize: 2 },
      });
      expect(held.statusCode, held.body).toBe(201);
      const id: string = held.json().id;
      if (status !== 'HELD') expect((await call(t.app, 'POST', `/api/reservations/${id}/confirm`, { token: owner.token, payload: {} })).statusCode).toBe(200);
      if (status === 'CONFIRMED') {
        const accepted = await t.app.inject({
          method: 'PATCH',
          url: `/api/admin/bookings/${id}`,
          headers: bearer(staff.token),
          payload: { status: 'CONFIRMED' },
        });
        expect(accepted.statusCode, accepted.body).toBe(200);
      }
      return { id, owner, staff, restaurant };
    }
    const statusOf = async (id: string) =>
      (await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`))[0].status;
    const dinerEvents = async (id: string) =>
      queryRows<{ to_status: string; actor_id: string | null }>(
        t.database.db,
        sql`SELECT to_status, actor_id FROM reservation_events WHERE reservation_id = ${id} AND actor_kind = 'diner' ORDER BY created_at, id`,
      );
    /** A dating account's session token, sent as a bearer where a diner's is expected. */
    async function datingToken(): Promise<string> {
      const [user] = await queryRows<{ id: string }>(
        t.database.db,
        sql`INSERT INTO dating_users (phone, password_hash, name, dob, date_budget, cuisines, first_date_types)
            VALUES (${freshPhone()}, 'not-a-login', 'Meera', '1995-05-05', 'INR_1000_2500', '{NORTH_INDIAN}', '{COFFEE}') RETURNING id`,
      );
      const token = randomBytes(32).toString('base64url');
      await t.database.db.execute(
        sql`INSERT INTO sessions (token_hash, kind, subject_id, expires_at) VALUES (${hashToken(token)}, 'dating', ${user.id}, ${new Date(Date.now() + 86_400_000).toISOString()})`,
      );
      return token;
    }

    it('refuses to cancel a PENDING or CONFIRMED booking without a token (401), changing nothing; the owner’s token cancels it', async () => {
      for (const status of ['PENDING', 'CONFIRMED'] as const) {
        const booking = await bookingIn(status);
        const refused = await call(t.app, 'POST', `/api/reservations/${booking.id}/cancel`, { payload: {} });
        expect(refused.statusCode, `${status}: ${refused.body}`).toBe(401);
        expect(refused.json()).toEqual({ error: `This reservation is ${status}: sign in as the diner who made it to cancel it.` });
        // Nor may it be confirmed again or otherwise moved with the id alone.
        const confirm = await call(t.app, 'POST', `/api/reservations/${booking.id}/confirm`, { payload: {} });
        expect(confirm.statusCode).toBe(401);
        expect(confirm.json()).toEqual({ error: `This reservation is ${status}: sign in as the diner who made it to confirm it.` });
        expect(await statusOf(booking.id)).toBe(status);

        const cancelled = await call(t.app, 'POST', `/api/reservations/${booking.id}/cancel`, { token: booking.owner.token, payload: {} });
        expect(cancelled.statusCode, cancelled.body).toBe(200);
        expect(cancelled.json().status).toBe('CANCELLED');
        expect((await dinerEvents(booking.id)).at(-1)).toEqual({ to_status: 'CANCELLED', actor_id: booking.owner.id });
      }
    });

    it('still lets the id alone read any reservation and confirm or cancel a HELD hold (the hold screen), written with no actor id', async () => {
      const confirmed = await bookingIn('CONFIRMED');
      const read = await call(t.app, 'GET', `/api/reservations/${confirmed.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json().status).toBe('CONFIRMED');

      const toConfirm = await bookingIn('HELD');
      expect((await call(t.app, 'POST', `/api/reservations/${toConfirm.id}/confirm`, { payload: {} })).json().status).toBe('PENDING');
      const toCancel = await bookingIn('HELD');
      expect((await call(t.app, 'POST', `/api/reservations/${toCancel.id}/cancel`, { payload: {} })).json().status).toBe('CANCELLED');
      expect((await dinerEvents(toConfirm.id)).at(-1)).toEqual({ to_status: 'PENDING', actor_id: null });
      expect((await dinerEvents(toCancel.id)).at(-1)).toEqual({ to_status: 'CANCELLED', actor_id: null });
    });

    it('never takes a staff or dating token for the diner, and refuses another diner’s token with 403; nothing is written as the diner', async () => {
      for (const status of ['HELD', 'PENDING', 'CONFIRMED'] as const) {
        const booking = await bookingIn(status);
        const before = await dinerEvents(booking.id);
        const stranger = await buildDiner(t.database.db);
        for (const action of ['cancel', 'confirm'] as const) {
          const url = `/api/reservations/${booking.id}/${action}`;
          for (const token of [booking.staff.token, await datingToken()]) {
            const refused = await call(t.app, 'POST', url, { token, payload: {} });
            expect(refused.statusCode, `${status} ${action}: ${refused.body}`).toBe(401);
            expect(refused.json()).toEqual({ error: 'This needs a diner sign-in' });
          }
          const notYours = await call(t.app, 'POST', url, { token: stranger.token, payload: {} });
          expect(notYours.statusCode).toBe(403);
          expect(notYours.json()).toEqual({ error: 'That reservation belongs to another account' });
        }
        expect(await statusOf(booking.id)).toBe(status);
        expect(await dinerEvents(booking.id)).toEqual(before);
      }
    });
  });

  // Every way of freeing covers, at random, is in server/security-waitlist-first.property.db.test.ts.
  describe('3. An expired hold skips the waitlist', () => {
    it('refuses a direct hold 192 ms after a hold lapsed (no sweep yet) while someone waits, and offers the table to the line', async () => {
      const restaurant = await buildRestaurant(t.database.db);
      const slot = await buildSlot(t.database.db, restaurant.id, { date: '2026-11-23', time: '20:00', capacity: 2 });
      const [holder, waiter, tapper] = [await buildDiner(t.database.db), await buildDiner(t.database.db), await buildDiner(t.database.db)];
      const hold = (token: string) =>
        call(t.app, 'POST', '/api/reservations', { token, payload: { restaurantSlug: restaurant.slug, date: '2026-11-23', time: '20:00', partySize: 2 } });
      const held = await hold(holder.token);
      expect(held.statusCode).toBe(201);
      const joined = await call(t.app, 'POST', '/api/waitlist', {
        token: waiter.token,
        payload: { restaurantSlug: restaurant.slug, date: '2026-11-23', partySize: 2, windowStart: '19:00', windowEnd: '21:00' },
      });
      expect(joined.statusCode, joined.body).toBe(201);
      t.clock.set(new Date(Date.parse(held.json().holdExpiresAt) + 192));
      const tapped = await hold(tapper.token);
      expect(tapped.statusCode).toBe(409);
      expect(tapped.json()).toEqual({
        error: 'That table has just come free and is being offered to the diners on its waitlist first. Please try another time.',
      });
      // The refusal sets the line moving at once, without waiting for the sweeper.
      const deadline = Date.now() + 5_000;
      let offers: { id: string }[] = [];
      while (offers.length === 0 && Date.now() < deadline) {
        offers = (await call(t.app, 'GET', '/api/waitlist', { token: waiter.token })).json().offers;
        if (offers.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(offers.map((offer) => offer.id)).toEqual([joined.json().id]);
      expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(2);
      expect((await hold(tapper.token)).statusCode).toBe(409);
    });
  });

  describe('9. Holds recycled to block tables', () => {
    const DATE = TEST_TODAY;
    /** 10:00:30 in Kolkata: half a minute past the hour, so the time to try again is rounded up. */
    const START = '2026-11-23T04:30:30.000Z';
    const limited = { MAX_HOLDS_PER_RESTAURANT_PER_HOUR: '4' };
    const holdAt = (app: TestApp, token: string, slug: string, partySize = 20) =>
      call(app.app, 'POST', '/api/reservations', { token, payload: { restaurantSlug: slug, date: DATE, time: '20:00', partySize } });
    async function heldThenCancelled(app: TestApp, token: string, slug: string, partySize = 20) {
      const held = await holdAt(app, token, slug, partySize);
      expect(held.statusCode, held.body).toBe(201);
      expect((await call(app.app, 'POST', `/api/reservations/${held.json().id}/cancel`, { token, payload: {} })).statusCode).toBe(200);
    }

    it('lets a diner start 4 holds an hour at one restaurant, counted in the database so two instances agree; the 5th is 429 saying when to try again', async () => {
      const one = await createTestApp({ env: limited, database: t.database, now: START });
      const two = await createTestApp({ env: limited, database: t.database, now: START });
      try {
        const x = await buildRestaurant(t.database.db);
        const y = await buildRestaurant(t.database.db);
        await buildSlot(t.database.db, x.id, { date: DATE, time: '20:00', capacity: 20 });
        await buildSlot(t.database.db, y.id, { date: DATE, time: '20:00', capacity: 20 });
        const blocker = await buildDiner(t.database.db);
        // Hold the whole evening, let it go, hold it again: alternately on two instances, two minutes apart.
        for (let i = 0; i < 4; i++) {
          await heldThenCancelled(i % 2 === 0 ? one : two, blocker.token, x.slug);
          for (const app of [one, two]) app.clock.advance(2 * 60_000);
        }
        for (const app of [one, two]) {
          const refused = await holdAt(app, blocker.token, x.slug);
          expect(refused.statusCode, refused.body).toBe(429);
          expect(refused.json()).toEqual({ error: 'You have started 4 holds at this restaurant in the last hour. Please try again after 11:01 AM.' });
        }
        // The table is open to everyone else, and the diner may still hold elsewhere.
        await heldThenCancelled(one, (await buildDiner(t.database.db)).token, x.slug);
        await heldThenCancelled(two, blocker.token, y.slug);
        // An hour after the first of the four, one place in the budget comes back.
        one.clock.set('2026-11-23T05:30:29.000Z');
        expect((await holdAt(one, blocker.token, x.slug)).statusCode).toBe(429);
        one.clock.set('2026-11-23T05:31:00.000Z');
        expect((await holdAt(one, blocker.token, x.slug)).statusCode).toBe(201);
        expect(loadConfig({}).maxHoldsPerRestaurantPerHour).toBe(4);
        expect(() => loadConfig({ MAX_HOLDS_PER_RESTAURANT_PER_HOUR: '0' })).toThrow(/MAX_HOLDS_PER_RESTAURANT_PER_HOUR/);
      } finally {
        await one.app.close();
        await two.app.close();
      }
    });

    it('does not count the holds the system places for the diner (waitlist and drop offers), and never refuses those', async () => {
      const app = await createTestApp({ env: limited, database: t.database, now: START });
      try {
        const restaurant = await buildRestaurant(t.database.db);
        const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '20:00', capacity: 2 });
        const diner = await buildDiner(t.database.db);
        const { reservations } = app.app.services;
        // Three offers placed for the diner, each let go.
        for (const reason of ['WAITLIST_OFFER', 'DROP_OFFER', 'WAITLIST_OFFER'] as const) {
          const outcome = await app.database.db.transaction((tx) =>
            reservations.createHoldForOffer(tx, { userId: diner.id, slotId: slot.id, partySize: 2, holdMinutes: 10, reason, gate: 'public' }),
          );
          if (!('held' in outcome)) throw new Error(`offer refused: ${outcome.refused}`);
          expect((await call(app.app, 'POST', `/api/reservations/${outcome.held.id}/cancel`, { token: diner.token, payload: {} })).statusCode).toBe(200);
        }
        // The diner's own four are still all theirs to start.
        for (let i = 0; i < 4; i++) await heldThenCancelled(app, diner.token, restaurant.slug, 2);
        expect((await holdAt(app, diner.token, restaurant.slug, 2)).statusCode).toBe(429);

        // At the limit, a table freed for them on the waitlist still reaches them.
        const other = await buildDiner(t.database.db);
        const taken = await holdAt(app, other.token, restaurant.slug, 2);
        expect(taken.statusCode).toBe(201);
        const joinedLine = await call(app.app, 'POST', '/api/waitlist', {
          token: diner.token,
          payload: { restaurantSlug: restaurant.slug, date: DATE, partySize: 2, windowStart: '19:00', windowEnd: '21:00' },
        });
        expect(joinedLine.statusCode, joinedLine.body).toBe(201);
        expect((await call(app.app, 'POST', `/api/reservations/${taken.json().id}/cancel`, { token: other.token, payload: {} })).statusCode).toBe(200);
        await app.app.services.waitlist.offerFreedCovers(slot.id);
        const line = (await call(app.app, 'GET', '/api/waitlist', { token: diner.token })).json();
        expect(line.offers.map((offer: { id: string }) => offer.id)).toEqual([joinedLine.json().id]);
      } finally {
        await app.app.close();
      }
    });
  });
});

// 12. Dating signup tells strangers who is on it: server/modules/dating/dating.db.test.ts,
// describe "12. Dating signup tells strangers who is on it" (it needs that file's browser and upload helpers).

describe('11. A draw nobody has to take on trust', () => {
  const OPENS = '2026-11-23T05:00:00.000Z';
  const CLOSES = '2026-11-24T05:00:00.000Z';
  const RELEASE = '2026-11-24T06:00:00.000Z';
  const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
  const listHash = (ids: string[]) =>
    createHash('sha256')
      .update([...ids].sort().join('\n'))
      .digest('hex');

  it('publishes a commitment to the seed at creation, keeps the seed secret until the draw, fixes the entries at close, and the audit recomputes', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const staff = await buildStaff(t.database.db, restaurant.id);
    const dropId = await createDrop(t, staff.token, {
      dateFrom: '2026-11-26',
      dateTo: '2026-11-26',
      times: ['19:00'],
      capacity: 4,
      entryOpensAt: OPENS,
      entryClosesAt: CLOSES,
      releaseAt: RELEASE,
    });

    // Before entries open: the commitment is public, the seed is not (not to diners, staff or the audit).
    const upcoming = (await call(t.app, 'GET', `/api/drops/${dropId}`)).json();
    expect(upcoming.phase).toBe('upcoming');
    expect(upcoming.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
    expect(upcoming.committedAt).toBe(TEST_NOW);
    expect(upcoming.entriesClosedAt).toBeNull();
    expect(JSON.stringify(upcoming)).not.toMatch(/"seed"/);
    const adminBefore = (await call(t.app, 'GET', `/api/admin/drops/${dropId}`, { token: staff.token })).json();
    expect(adminBefore.seed).toBeNull();
    expect(adminBefore.seedCommitment).toBe(upcoming.seedCommitment);
    expect((await call(t.app, 'GET', `/api/drops/${dropId}/draw`)).statusCode).toBe(409);

    // Entries: three diners; one withdraws after the close (and stays in the fixed list).
    const diners = [];
    for (let i = 0; i < 3; i++) diners.push(await buildVerifiedDiner(t.database.db, freshPhone()));
    t.clock.set(new Date(Date.parse(OPENS) + 60_000));
    for (const diner of diners) expect((await enterDrop(t, diner.token, dropId)).statusCode).toBe(201);
    const open = (await call(t.app, 'GET', `/api/drops/${dropId}`)).json();
    expect(open.seedCommitment).toBe(upcoming.seedCommitment);
    expect(JSON.stringify(open)).not.toMatch(/"seed"/);

    // At the close the entry list is fixed: its hash is published, still without the seed.
    t.clock.set(new Date(Date.parse(CLOSES) + 1_000));
    const closed = (await call(t.app, 'GET', `/api/drops/${dropId}`)).json();
    expect(closed.phase).toBe('closed');
    const entryIds = (await entriesOf(t.database.db, dropId)).map((entry) => entry.id);
    expect(closed.entriesClosedAt).toBe(new Date(Date.parse(CLOSES) + 1_000).toISOString());
    expect(closed.closedEntryCount).toBe(3);
    expect(closed.entriesHash).toBe(listHash(entryIds));
    expect(JSON.stringify(closed)).not.toMatch(/"seed"/);
    expect((await call(t.app, 'GET', `/api/drops/${dropId}/draw`)).statusCode).toBe(409);
    const leave = await t.app.inject({ method: 'DELETE', url: `/api/drops/${dropId}/entries`, headers: bearer(diners[2].token) });
    expect(leave.statusCode).toBe(200);

    // After the draw: the seed is revealed, it matches the commitment, and the order recomputes from the fixed list.
    t.clock.set(RELEASE);
    const audit = await call(t.app, 'GET', `/api/drops/${dropId}/draw`);
    expect(audit.statusCode).toBe(200);
    const body = audit.json();
    expect(body.seedCommitment).toBe(upcoming.seedCommitment);
    expect(body.committedAt).toBe(TEST_NOW);
    expect(sha256Hex(body.seed)).toBe(body.seedCommitment);
    expect([...body.entryIds].sort()).toEqual([...entryIds].sort());
    expect(listHash(body.entryIds)).toBe(body.entriesHash);
    expect(body.entriesHash).toBe(closed.entriesHash);
    expect(await drawOrder(body.seed, body.entryIds)).toEqual(body.order);
    expect(body.order).toHaveLength(3);
    const admin = (await call(t.app, 'GET', `/api/admin/drops/${dropId}`, { token: staff.token })).json();
    expect(admin.seed).toBe(body.seed);
  });
});
