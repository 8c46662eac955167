import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { DEMO_DINER, DEMO_STAFF_PASSWORD, seedDemoData } from '#server/db/seed/seed.ts';
import { DEMO_MODERATOR, seedDemoModerator } from '#server/db/seed/moderator.ts';
import { DEMO_MODERATOR_PASSWORD, demoAccountsAllowed } from '#server/modules/accounts/demo-passwords.ts';
import { hashPassword, verifyPassword } from '#server/modules/accounts/password.ts';
import { bearer, createTestApp, setStaffPassword, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildModerator, buildRestaurant, buildStaff } from '#server/test/factories.ts';
import { freePort } from '#server/test/server-process.ts';
import { loadConfig } from '#server/config.ts';

/**
 * A production start (decision 201): never on the payments sandbox unless a demo names it on
 * purpose, and never with the demo accounts whose passwords the README publishes.
 */
let production: TestApp;

beforeAll(async () => {
  production = await createTestApp({ env: { NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' } });
});
afterAll(() => production.close());

const signIn = (app: TestApp, url: string, username: string, password: string) => app.app.inject({ method: 'POST', url, payload: { username, password } });

describe('a production start', () => {
  it('with NODE_ENV=production and nothing else, refuses to start and names the variables, before touching DATA_DIR', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tablefair-production-')), 'data');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      // A server that starts anyway is stopped, and the test fails on its exit code.
      const stop = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      clearTimeout(stop);
      expect(code, output).toBe(1);
      expect(output).toMatch(/^Tablefair could not start: Invalid configuration: PAYMENTS_DRIVER=sandbox .*PAYMENTS_SANDBOX_DEMO=1/m);
      expect(output).toMatch(/SMS_DRIVER=log \(the default\) with WHATSAPP_DRIVER=log sends no text to any phone/);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  });

  it('refuses log drivers for texts (decision 214), naming the variable, and starts with a real SMS or WhatsApp driver or a named demo', () => {
    const demoMoney = { NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1' };
    expect(() => loadConfig(demoMoney)).toThrow(
      /^Invalid configuration: SMS_DRIVER=log \(the default\) with WHATSAPP_DRIVER=log .*SMS_DRIVER=exotel.*TEXTS_LOG_DEMO=1/,
    );
    expect(() => loadConfig({ ...demoMoney, SMS_DRIVER: 'log', WHATSAPP_DRIVER: 'log' })).toThrow(/SMS_DRIVER=log/);
    const exotel = {
      EXOTEL_ACCOUNT_SID: 'sid',
      EXOTEL_API_KEY: 'key',
      EXOTEL_API_TOKEN: 'token',
      EXOTEL_SENDER_ID: 'TBLFAR',
      EXOTEL_DLT_ENTITY_ID: '1101',
      EXOTEL_DLT_TEMPLATE_CODE: '1107-1',
      EXOTEL_DLT_TEMPLATE_NOTICE: '1107-2',
      EXOTEL_DLT_TEMPLATE_REMINDER: '1107-3',
      EXOTEL_DLT_TEMPLATE_OFFER: '1107-4',
      EXOTEL_CALLBACK_TOKEN: 'x'.repeat(32),
    };
    expect(loadConfig({ ...demoMoney, SMS_DRIVER: 'exotel', ...exotel }).notifications.exotel?.senderId).toBe('TBLFAR');
    expect(() => loadConfig({ ...demoMoney, SMS_DRIVER: 'exotel', ...exotel, EXOTEL_DLT_ENTITY_ID: '' })).toThrow(
      /SMS_DRIVER=exotel needs EXOTEL_DLT_ENTITY_ID/,
    );
    const cloud = { WHATSAPP_PHONE_NUMBER_ID: '1065', WHATSAPP_ACCESS_TOKEN: 'EAAJB', WHATSAPP_APP_SECRET: 'secret', WHATSAPP_VERIFY_TOKEN: 'verify' };
    expect(loadConfig({ ...demoMoney, WHATSAPP_DRIVER: 'cloud', ...cloud }).notifications.whatsappDriver).toBe('cloud');
    expect(loadConfig({ ...demoMoney, TEXTS_LOG_DEMO: '1' }).notifications.smsDriver).toBe('log');
  });

  it('seeds the demo city without a single account whose password is published', async () => {
    await seedDemoData(production.database.db, { now: new Date(TEST_NOW), passwordHashCost: 10, demoAccounts: demoAccountsAllowed(production.config.nodeEnv) });
    const count = async (table: string) =>
      (await queryRows<{ count: number }>(production.database.db, sql`SELECT count(*)::int AS count FROM ${sql.raw(table)}`))[0].count;
    expect(await count('restaurants')).toBeGreaterThan(10);
    expect({ staff: await count('staff_accounts'), moderators: await count('platform_moderators') }).toEqual({ staff: 0, moderators: 0 });
    // Whatever accounts exist (the dating platform's own, from its migration), none opens with a published password.
    const hashes = await queryRows<{ password_hash: string }>(
      production.database.db,
      sql`SELECT password_hash FROM users UNION ALL SELECT password_hash FROM staff_accounts UNION ALL SELECT password_hash FROM platform_moderators`,
    );
    for (const { password_hash } of hashes) {
      for (const published of [DEMO_DINER.password, DEMO_STAFF_PASSWORD, DEMO_MODERATOR.password])
        expect(await verifyPassword(published, password_hash)).toBe(false);
    }
    expect(await queryRows(production.database.db, sql`SELECT 1 FROM users WHERE lower(username) = ${DEMO_DINER.username}`)).toEqual([]);
  });

  it('refuses the published demo passwords at every sign-in, even for accounts a demo seed made before, and at signup', async () => {
    // A database seeded as a demo, then started in production.
    const db = production.database.db;
    const restaurant = await buildRestaurant(db);
    await db.execute(
      sql`INSERT INTO users (username, password_hash, name) VALUES (${DEMO_DINER.username}, ${await hashPassword(DEMO_DINER.password, 10)}, ${DEMO_DINER.name})`,
    );
    await db.execute(
      sql`INSERT INTO staff_accounts (restaurant_id, username, password_hash) VALUES (${restaurant.id}, ${restaurant.slug}, ${await hashPassword(DEMO_STAFF_PASSWORD, 10)})`,
    );
    expect(await seedDemoModerator(db, { passwordHashCost: 10 })).toBe(true);
    const refusal = { error: 'Invalid username or password' };
    for (const [url, username, password] of [
      ['/api/auth/login', DEMO_DINER.username, DEMO_DINER.password],
      ['/api/auth/restaurant-login', restaurant.slug, DEMO_STAFF_PASSWORD],
      ['/api/moderation/auth/login', DEMO_MODERATOR.username, DEMO_MODERATOR.password],
    ]) {
      const response = await signIn(production, url, username, password);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toEqual(refusal);
    }
    const signup = await production.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { username: 'new_diner', password: DEMO_STAFF_PASSWORD } });
    expect(signup.statusCode).toBe(400);
    expect(signup.json().error).toBe('password: This password is published for the demo; choose another');
    expect(
      (await production.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { username: 'new_diner', password: 'a private one' } })).statusCode,
    ).toBe(201);
    expect((await signIn(production, '/api/auth/login', 'new_diner', 'a private one')).statusCode).toBe(200);

    // The same accounts sign in outside production: the refusal is production's, not a broken account.
    const demo = await createTestApp({ database: production.database });
    try {
      expect((await signIn(demo, '/api/auth/login', DEMO_DINER.username, DEMO_DINER.password)).statusCode).toBe(200);
      expect((await signIn(demo, '/api/auth/restaurant-login', restaurant.slug, DEMO_STAFF_PASSWORD)).statusCode).toBe(200);
      expect((await signIn(demo, '/api/moderation/auth/login', DEMO_MODERATOR.username, DEMO_MODERATOR.password)).statusCode).toBe(200);
    } finally {
      await demo.app.close();
    }
  });

  it("a password reset and the platform's new password refuse the published demo passwords; the code stays good for a private one", async () => {
    const db = production.database.db;
    const refused = 'password: This password is published for the demo; choose another';
    const diner = await buildDiner(db);
    const phone = '+919700000101';
    await db.execute(sql`UPDATE users SET verified_phone = ${phone}, phone_verified_at = now() WHERE id = ${diner.id}`);
    const asked = await production.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { account: 'diner', identifier: diner.username } });
    expect(asked.statusCode, asked.body).toBe(202);
    await production.app.services.passwordReset.settled();
    const [text] = await queryRows<{ body: string }>(db, sql`SELECT body FROM outbox_messages WHERE recipient = ${phone} ORDER BY created_at DESC LIMIT 1`);
    const code = /\b(\d{6})\b/.exec(text.body)![1];
    const confirm = (password: string) =>
      production.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { resetId: asked.json().resetId, code, password } });
    for (const published of [DEMO_DINER.password, DEMO_STAFF_PASSWORD, DEMO_MODERATOR_PASSWORD]) {
      const answer = await confirm(published);
      expect(answer.statusCode, published).toBe(400);
      expect(answer.json().error).toBe(refused);
    }
    // Nothing was set, no session ended and the code was not spent: the diner chooses a private one.
    expect((await production.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(diner.token) })).statusCode).toBe(200);
    expect((await confirm('a private password 7')).statusCode).toBe(200);
    expect((await signIn(production, '/api/auth/login', diner.username, 'a private password 7')).statusCode).toBe(200);

    const restaurant = await buildRestaurant(db);
    const staff = await buildStaff(db, restaurant.id);
    const moderator = await buildModerator(db);
    const setByPlatform = (password: string) => setStaffPassword(production.app, moderator.token, staff.id, password);
    const platform = await setByPlatform(DEMO_STAFF_PASSWORD);
    expect(platform.statusCode).toBe(400);
    expect(platform.json().error).toBe(refused);
    expect((await signIn(production, '/api/auth/restaurant-login', staff.username, staff.password)).statusCode).toBe(200);
    expect((await setByPlatform('a private staff password')).statusCode).toBe(200);

    // Outside production the demo may reset to a demo password.
    const demo = await createTestApp({ database: production.database });
    try {
      const staffAgain = await setStaffPassword(demo.app, moderator.token, staff.id, DEMO_STAFF_PASSWORD);
      expect(staffAgain.statusCode, staffAgain.body).toBe(200);
    } finally {
      await demo.app.close();
    }
  });
});
