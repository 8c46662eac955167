import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { preferredHoods } from '#common/domain/restaurants.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, type TestApp, requestHold } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff } from '#server/test/factories.ts';

let t: TestApp;
let counter = 0;
/** A fresh, valid username for each signup. */
const freshName = (prefix = 'asha') => `${prefix}_${process.pid % 1000}_${counter++}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function signup(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
}
function login(username: string, password: string, url = '/api/auth/login') {
  return t.app.inject({ method: 'POST', url, payload: { username, password } });
}
function me(token?: string) {
  return t.app.inject({ method: 'GET', url: '/api/auth/me', headers: token ? bearer(token) : {} });
}
async function countRows(table: 'users' | 'sessions'): Promise<number> {
  const [row] = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM ${sql.raw(table)}`);
  return row.count;
}

describe('POST /api/auth/signup', () => {
  it('creates a diner with every field and answers the profile, never the password', async () => {
    const username = freshName('Asha.K');
    const response = await signup({
      username,
      password: 'correct horse',
      name: 'Asha Kumar',
      email: 'Asha@Example.com',
      phone: '+91 98765-43210',
      preferredHood: 'HSR Layout',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      username,
      name: 'Asha Kumar',
      email: 'asha@example.com',
      phone: '+919876543210',
      preferredHood: 'HSR Layout',
    });
    expect(response.body).not.toContain('correct horse');
    expect(response.body).not.toMatch(/scrypt|password/i);
    const [stored] = await queryRows<{ password_hash: string }>(t.database.db, sql`SELECT password_hash FROM users WHERE id = ${body.id}`);
    expect(stored.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(stored.password_hash).not.toContain('correct horse');
  });

  it('needs only a username and a password; blank optional fields are absent', async () => {
    const username = freshName();
    const response = await signup({ username, password: '12345678', name: '', email: '', phone: '', preferredHood: '' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ username, name: username, email: null, phone: null, preferredHood: null });
  });

  it('accepts usernames of 3 and 32 characters of letters, digits, _ and .', async () => {
    for (const username of ['a_b', `x.${'9'.repeat(21)}_${String(counter++).padStart(8, '0')}`.slice(0, 32)]) {
      const response = await signup({ username, password: 'password123' });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  it.each(preferredHoods)('accepts the preferred neighbourhood %s', async (hood) => {
    const response = await signup({ username: freshName(), password: 'password123', preferredHood: hood });
    expect(response.statusCode).toBe(201);
    expect(response.json().preferredHood).toBe(hood);
  });

  it.each([
    [{ password: 'password123' }, 'Username is required'],
    [{ username: 'ab', password: 'password123' }, 'Username must be 3-32 characters'],
    [{ username: 'a'.repeat(33), password: 'password123' }, 'Username must be 3-32 characters'],
    [{ username: 'asha-kumar', password: 'password123' }, 'Username may use only letters, digits, _ and .'],
    [{ username: 'asha kumar', password: 'password123' }, 'Username may use only letters, digits, _ and .'],
    [{ username: 'ñandú', password: 'password123' }, 'Username may use only letters, digits, _ and .'],
    [{ username: 'asha<script>', password: 'password123' }, 'Username may use only letters, digits, _ and .'],
    [{ username: 'valid_name_1' }, 'Password is required'],
    [{ username: 'valid_name_1', password: '1234567' }, 'Password must be at least 8 characters'],
    [{ username: 'valid_name_1', password: 'password123', email: 'not-an-email' }, 'Enter a valid email address'],
    [{ username: 'valid_name_1', password: 'password123', email: 'a@b' }, 'Enter a valid email address'],
    [{ username: 'valid_name_1', password: 'password123', preferredHood: 'Mars' }, 'Choose one of the listed neighbourhoods'],
    [{ username: 'valid_name_1', password: 'password123', preferredHood: 'indiranagar' }, 'Choose one of the listed neighbourhoods'],
    [{ username: 'valid_name_1', password: 'password123', phone: 'call me' }, 'Enter a valid phone number'],
    [{ username: 42, password: 'password123' }, 'Username is required'],
  ])('refuses %j with 400 "%s" and writes nothing', async (payload, message) => {
    const before = await countRows('users');
    const response = await signup(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
    expect(await countRows('users')).toBe(before);
  });

  it('refuses a taken username with 409, also when only the case differs', async () => {
    const username = freshName('Priya');
    expect((await signup({ username, password: 'password123' })).statusCode).toBe(201);
    const before = await countRows('users');
    for (const variant of [username, username.toLowerCase(), username.toUpperCase()]) {
      const response = await signup({ username: variant, password: 'another-password' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'Username already taken' });
    }
    expect(await countRows('users')).toBe(before);
  });

  it('lets exactly one of several racing signups for one name win', async () => {
    const username = freshName('race');
    const responses = await Promise.all(
      [username, username.toUpperCase(), username, username.toUpperCase(), username].map((name) => signup({ username: name, password: 'password123' })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) expect(response.json()).toEqual({ error: 'Username already taken' });
    const [row] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM users WHERE lower(username) = ${username.toLowerCase()}`,
    );
    expect(row.count).toBe(1);
  });

  it('answers a body that is not JSON with 400 and an error sentence', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body is not valid JSON' });
  });
});

describe('POST /api/auth/login', () => {
  let username: string;
  beforeAll(async () => {
    username = freshName('Login.Me');
    expect((await signup({ username, password: 'right-password' })).statusCode).toBe(201);
  });

  it('answers a 256-bit opaque token, stored only as a hash', async () => {
    const response = await login(username, 'right-password');
    expect(response.statusCode).toBe(200);
    const { token } = response.json();
    expect(Object.keys(response.json())).toEqual(['token']);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const raw = await queryRows(t.database.db, sql`SELECT 1 FROM sessions WHERE token_hash = ${token}`);
    expect(raw).toHaveLength(0);
    expect((await me(token)).json().username).toBe(username);
  });

  it('matches the username whatever its case, and trims it', async () => {
    expect((await login(username.toUpperCase(), 'right-password')).statusCode).toBe(200);
    expect((await login(`  ${username.toLowerCase()} `, 'right-password')).statusCode).toBe(200);
  });

  it('never tells which of the two was wrong', async () => {
    const wrongPassword = await login(username, 'wrong-password');
    const unknownUser = await login(freshName('nobody'), 'right-password');
    const both = await login(freshName('nobody'), 'wrong-password');
    for (const response of [wrongPassword, unknownUser, both]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid username or password' });
    }
    expect(wrongPassword.body).toBe(unknownUser.body);
  });

  it('needs both fields', async () => {
    const before = await countRows('sessions');
    for (const [payload, message] of [
      [{ username }, 'Password is required'],
      [{ password: 'x' }, 'Username is required'],
      [{ username: '', password: 'right-password' }, 'Username is required'],
      [{ username, password: '' }, 'Password is required'],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(message);
    }
    expect(await countRows('sessions')).toBe(before);
  });

  it('does not sign staff in as diners', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const staff = await buildStaff(t.database.db, restaurant.id);
    const response = await login(staff.username, staff.password);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Invalid username or password' });
  });
});

describe('GET /api/auth/me and POST /api/auth/logout', () => {
  it('answers the signed-in diner, with the name defaulting to the username', async () => {
    const username = freshName();
    expect((await signup({ username, password: 'password123', preferredHood: 'CBD' })).statusCode).toBe(201);
    const { token } = (await login(username, 'password123')).json();
    const response = await me(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: expect.any(String), username, name: username, email: null, phone: null, preferredHood: 'CBD' });
  });

  it('refuses no token, a malformed header and an unknown token with 401', async () => {
    const cases: Record<string, string>[] = [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, bearer('x'.repeat(43)), bearer('y'.repeat(500))];
    for (const headers of cases) {
      const response = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(response.statusCode).toBe(401);
      expect(typeof response.json().error).toBe('string');
    }
  });

  it('revokes the token on logout: it then gets 401, while other sessions stay', async () => {
    const username = freshName();
    await signup({ username, password: 'password123' });
    const first = (await login(username, 'password123')).json().token as string;
    const second = (await login(username, 'password123')).json().token as string;
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(first) });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    const refused = await me(first);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'Your session has expired. Please sign in again.' });
    const list = await t.app.inject({ method: 'GET', url: '/api/reservations', headers: bearer(first) });
    expect(list.statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
    const [session] = await queryRows<{ revoked_at: unknown }>(
      t.database.db,
      sql`SELECT revoked_at FROM sessions WHERE kind = 'diner' AND subject_id = (SELECT id FROM users WHERE username = ${username}) AND revoked_at IS NOT NULL`,
    );
    expect(session.revoked_at).not.toBeNull();
  });

  it('answers logout without a token, or with a dead one, with 204', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer('nope') })).statusCode).toBe(204);
  });
});

describe('POST /api/auth/restaurant-login', () => {
  it('answers a staff token and the restaurant it belongs to', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const staff = await buildStaff(t.database.db, restaurant.id, { username: freshName('Staff.Desk') });
    const response = await login(staff.username.toUpperCase(), staff.password, '/api/auth/restaurant-login');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), restaurantId: restaurant.id });
  });

  it('refuses wrong credentials, and a diner account, with the same 401', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const staff = await buildStaff(t.database.db, restaurant.id);
    const diner = await buildDiner(t.database.db);
    for (const [username, password] of [
      [staff.username, 'wrong-password'],
      [freshName('ghost'), staff.password],
      [diner.username, diner.password],
    ]) {
      const response = await login(username, password, '/api/auth/restaurant-login');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid username or password' });
    }
  });

  it('gives a token that every diner endpoint refuses with 401', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-23', time: '19:00' });
    const staff = await buildStaff(t.database.db, restaurant.id);
    const { token } = (await login(staff.username, staff.password, '/api/auth/restaurant-login')).json();
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: '2026-11-23', time: '19:00', partySize: 2 });
    expect(held.statusCode).toBe(201);
    const id = held.json().id;
    const calls = [
      { method: 'GET', url: '/api/auth/me' },
      { method: 'GET', url: '/api/reservations' },
      { method: 'GET', url: '/api/reservations/status' },
      { method: 'POST', url: '/api/reservations', payload: { restaurantSlug: restaurant.slug, date: '2026-11-23', time: '19:00', partySize: 2 } },
      { method: 'GET', url: `/api/reservations/${id}` },
      { method: 'POST', url: `/api/reservations/${id}/confirm`, payload: {} },
      { method: 'POST', url: `/api/reservations/${id}/cancel`, payload: {} },
    ] as const;
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: bearer(token) });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(response.json()).toEqual({ error: 'This needs a diner sign-in' });
    }
    const after = await t.app.inject({ method: 'GET', url: `/api/reservations/${id}` });
    expect(after.json().status).toBe('HELD');
  });
});

describe('session expiry', () => {
  it('turns a token away once SESSION_TTL_HOURS have passed', async () => {
    const username = freshName();
    await signup({ username, password: 'password123' });
    const { token } = (await login(username, 'password123')).json();
    t.clock.advance(t.config.sessionTtlHours * 3_600_000 - 1000);
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await me(token)).statusCode).toBe(401);
  });
});
