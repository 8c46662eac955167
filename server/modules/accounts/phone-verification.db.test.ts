import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff } from '#server/test/factories.ts';
import { MINUTE_MS } from '#common/domain/time.ts';

let t: TestApp;
beforeAll(async () => {
  // These tests read any phone's code, as the phone would: the whole outbox (decision 093).
  t = await createTestApp({ env: { DEV_MAILBOX: 'all' } });
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

let phoneCounter = 0;
/** A fresh Indian mobile number per test, so tests never share a phone. */
const freshPhone = () => `+9198${String(10_000_000 + phoneCounter++).padStart(8, '0')}`;

function call(method: 'GET' | 'POST', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}
const start = (token: string, phone: string) => call('POST', '/api/auth/phone/start', token, { phone });
const verify = (token: string, phone: string, code: string) => call('POST', '/api/auth/phone/verify', token, { phone, code });

/** The code as the phone received it: the SMS in the outbox (the dev mailbox shows the same). */
async function codeSentTo(phone: string): Promise<string> {
  const response = await call('GET', `/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`);
  expect(response.statusCode).toBe(200);
  const [latest] = response.json().messages as { channel: string; body: string }[];
  expect(latest.channel).toBe('sms');
  const match = /\b(\d{6})\b/.exec(latest.body);
  expect(match, latest.body).not.toBeNull();
  return match![1];
}

/** A wrong code: any 6 digits other than the right one. */
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('phone verification', () => {
  it('sends a 6-digit code by SMS that never appears in a response, and the right code verifies the phone', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    const started = await start(diner.token, phone);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toEqual({
      phone,
      expiresAt: new Date(Date.parse(TEST_NOW) + 10 * MINUTE_MS).toISOString(),
      resendAt: new Date(Date.parse(TEST_NOW) + 30_000).toISOString(),
    });
    const code = await codeSentTo(phone);
    expect(started.body).not.toContain(code);
    // Only a salted HMAC is stored.
    const [stored] = await queryRows<{ code_hash: string; code_salt: string }>(
      t.database.db,
      sql`SELECT code_hash, code_salt FROM phone_verifications WHERE user_id = ${diner.id}`,
    );
    expect(stored.code_hash).not.toContain(code);
    expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/);

    const status = await call('GET', '/api/auth/phone', diner.token);
    expect(status.json()).toMatchObject({ verifiedPhone: null, pending: { phone, attemptsLeft: 5 } });
    expect(status.body).not.toContain(code);

    const verified = await verify(diner.token, phone, code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ verifiedPhone: phone, verifiedAt: TEST_NOW, pending: null });
    expect(verified.body).not.toContain(code);
    const [user] = await queryRows<{ verified_phone: string; phone: string }>(
      t.database.db,
      sql`SELECT verified_phone, phone FROM users WHERE id = ${diner.id}`,
    );
    expect(user).toEqual({ verified_phone: phone, phone });
    // The code is used up.
    expect((await verify(diner.token, phone, code)).statusCode).toBe(409);
  });

  it('accepts the number as people write it and keeps +91…', async () => {
    const diner = await buildDiner(t.database.db);
    const digits = freshPhone().slice(3);
    const started = await start(diner.token, `${digits.slice(0, 5)} ${digits.slice(5)}`);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().phone).toBe(`+91${digits}`);
    expect((await verify(diner.token, `0${digits}`, await codeSentTo(`+91${digits}`))).statusCode).toBe(200);
    const bad = await start((await buildDiner(t.database.db)).token, '12345');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Enter a valid phone number');
  });

  it('refuses a wrong code, counting down the tries left', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await start(diner.token, phone);
    const code = await codeSentTo(phone);
    const wrong = await verify(diner.token, phone, wrongOf(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'code: That code is not right. 4 tries left.' });
    const malformed = await verify(diner.token, phone, '12ab');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('Enter the 6-digit code');
    expect((await verify(diner.token, phone, code)).statusCode).toBe(200);
  });

  it('refuses a code after 10 minutes', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await start(diner.token, phone);
    const code = await codeSentTo(phone);
    t.clock.advance(10 * MINUTE_MS);
    const late = await verify(diner.token, phone, code);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'This code has expired. Ask for a new code.' });
    // A new code works.
    expect((await start(diner.token, phone)).statusCode).toBe(202);
    expect((await verify(diner.token, phone, await codeSentTo(phone))).statusCode).toBe(200);
  });

  it('allows 5 tries: after 5 wrong codes even the right one is refused until a new code is sent', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await start(diner.token, phone);
    const code = await codeSentTo(phone);
    for (let attempt = 1; attempt <= 4; attempt++) expect((await verify(diner.token, phone, wrongOf(code))).statusCode).toBe(400);
    const fifth = await verify(diner.token, phone, wrongOf(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({ error: 'Too many wrong codes. Ask for a new code.' });
    const right = await verify(diner.token, phone, code);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ error: 'Too many wrong codes. Ask for a new code.' });
    t.clock.advance(30_000);
    expect((await start(diner.token, phone)).statusCode).toBe(202);
    const fresh = await codeSentTo(phone);
    expect((await verify(diner.token, phone, fresh)).statusCode).toBe(200);
  });

  it('sends a new code at most every 30 seconds, and only the newest code counts', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await start(diner.token, phone);
    const first = await codeSentTo(phone);
    const again = await start(diner.token, phone);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual({ error: 'Please wait 30 seconds before asking for another code.' });
    t.clock.advance(30_000);
    expect((await start(diner.token, phone)).statusCode).toBe(202);
    const second = await codeSentTo(phone);
    if (second !== first) expect((await verify(diner.token, phone, first)).statusCode).toBe(400);
    expect((await verify(diner.token, phone, second)).statusCode).toBe(200);
  });

  it('refuses a code entered for another phone than the one it was sent to', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await start(diner.token, phone);
    const response = await verify(diner.token, freshPhone(), await codeSentTo(phone));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'No code is waiting for this phone number. Ask for a new code.' });
  });

  it('keeps one verified phone per account and one account per phone', async () => {
    const first = await buildDiner(t.database.db);
    const second = await buildDiner(t.database.db);
    const phone = freshPhone();
    // Both ask for a code before either verifies: the second verification is refused.
    await start(first.token, phone);
    // A second apart, so "the newest message" is the second code (the test clock does not move by itself).
    t.clock.advance(1_000);
    await start(second.token, phone);
    const secondsCode = await codeSentTo(phone);
    const firstsCode = (
      await queryRows<{ body: string }>(
        t.database.db,
        sql`SELECT o.body FROM outbox_messages o WHERE o.recipient = ${phone} ORDER BY o.created_at, o.id LIMIT 1`,
      )
    )[0].body.slice(0, 6);
    expect((await verify(second.token, phone, secondsCode)).statusCode).toBe(200);
    const taken = await verify(first.token, phone, firstsCode);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'This phone number is already verified on another account' });
    // Asking for a code for a phone another account verified is refused at once.
    const third = await buildDiner(t.database.db);
    const refused = await start(third.token, phone);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'This phone number is already verified on another account' });
    // An account with a verified phone cannot verify another one.
    const other = await start(second.token, freshPhone());
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: 'Your account already has a verified phone number' });
    expect((await start(second.token, phone)).json()).toEqual({ error: 'This phone number is already verified on your account' });
  });

  it('is for signed-in diners only', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const staff = await buildStaff(t.database.db, restaurant.id);
    const phone = freshPhone();
    for (const token of [undefined, staff.token, 'not-a-token']) {
      expect((await call('POST', '/api/auth/phone/start', token, { phone })).statusCode).toBe(401);
      expect((await call('POST', '/api/auth/phone/verify', token, { phone, code: '123456' })).statusCode).toBe(401);
      expect((await call('GET', '/api/auth/phone', token)).statusCode).toBe(401);
    }
    const none = await queryRows(t.database.db, sql`SELECT 1 FROM outbox_messages WHERE recipient = ${phone}`);
    expect(none).toEqual([]);
  });
});

describe('the dev mailbox', () => {
  it('is not served in production unless DEV_MAILBOX=1, and then only to a diner for their own messages', async () => {
    const production = await createTestApp({ env: { NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' }, database: t.database });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found' });
    } finally {
      await production.app.close();
    }
    const forced = await createTestApp({
      env: { NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1', DEV_MAILBOX: '1' },
      database: t.database,
    });
    try {
      expect((await forced.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).statusCode).toBe(401);
      const diner = await buildDiner(t.database.db);
      expect((await forced.app.inject({ method: 'GET', url: '/api/dev/mailbox', headers: bearer(diner.token) })).json()).toEqual({ messages: [] });
    } finally {
      await forced.app.close();
    }
  });
});
