import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { DEMO_DINER_PASSWORD, DEMO_MODERATOR_PASSWORD, DEMO_STAFF_PASSWORD, PUBLISHED_PASSWORD_REFUSED } from '#server/modules/accounts/demo-passwords.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';
import { buildDatingMember } from '#server/test/factories.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import { LOGIN_REFUSED } from './dating-account.ts';
import { Browser, profile, uploadPhotos } from './dating.test-support.ts';

/**
 * Dating accounts on a production server (decision 201): a dating signup and a dating member's
 * password reset refuse the passwords the README publishes for the demo, with the message every
 * other signup and reset gives, and take a private one; and no member signs in with one, whatever
 * account holds it (one made before the rule, or written in by hand).
 */
let production: TestApp;
let dataDir: string;
const PUBLISHED = [DEMO_DINER_PASSWORD, DEMO_STAFF_PASSWORD, DEMO_MODERATOR_PASSWORD];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tablefair-dating-production-'));
  production = await createTestApp({ env: { NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1', DATA_DIR: dataDir } });
});
afterAll(async () => {
  await production?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const countRows = async (table: string) =>
  (await queryRows<{ count: number }>(production.database.db, sql`SELECT count(*)::int AS count FROM ${sql.raw(table)}`))[0]!.count;

/** The last text sent to `phone`, as the phone would read it. */
async function lastTextTo(phone: string): Promise<string> {
  const [row] = await queryRows<{ body: string }>(
    production.database.db,
    sql`SELECT body FROM outbox_messages WHERE recipient = ${phone} ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  return row?.body ?? '';
}

describe('dating accounts refuse the published demo passwords in production', () => {
  it('refuses a dating signup with a published password (400, nothing written, no text), and takes a private one', async () => {
    const browser = new Browser(() => production.app);
    const items = await uploadPhotos(browser);
    const signupsBefore = await countRows('dating_signups');
    const outboxBefore = await countRows('outbox_messages');
    for (const password of PUBLISHED) {
      const body = profile(items, { password });
      const answer = await browser.call('POST', '/dating/auth/signup', { json: body });
      expect(answer.statusCode, `${password}: ${answer.body}`).toBe(400);
      expect(answer.json()).toEqual({ error: PUBLISHED_PASSWORD_REFUSED });
    }
    expect(await countRows('dating_signups')).toBe(signupsBefore);
    expect(await countRows('outbox_messages')).toBe(outboxBefore);

    // The same photos and profile with a private password: the code comes and the account is made.
    const body = profile(items, { password: 'a private dating password' });
    const started = await browser.call('POST', '/dating/auth/signup', { json: body });
    expect(started.statusCode, started.body).toBe(202);
    const code = /\b(\d{6})\b/.exec(await lastTextTo(body.phone))?.[1];
    expect(code, 'the signup code').toBeDefined();
    const verified = await browser.call('POST', '/dating/auth/signup/verify', { json: { signupId: started.json().signupId, code } });
    expect(verified.statusCode, verified.body).toBe(201);
    const login = await production.app.inject({
      method: 'POST',
      url: '/dating/auth/login',
      payload: { phone: body.phone, password: 'a private dating password' },
    });
    expect(login.statusCode, login.body).toBe(200);
  });

  it("refuses a published password as a dating member's new password by reset; the code stays good for a private one", async () => {
    const memberId = await buildDatingMember(production.database.db);
    const [{ phone }] = await queryRows<{ phone: string }>(production.database.db, sql`SELECT phone FROM dating_users WHERE id = ${memberId}`);
    const asked = await production.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { account: 'dating', identifier: phone } });
    expect(asked.statusCode, asked.body).toBe(202);
    await production.app.services.passwordReset.settled();
    const code = /\b(\d{6})\b/.exec(await lastTextTo(phone))?.[1];
    expect(code, 'the reset code').toBeDefined();
    const confirm = (password: string) =>
      production.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { resetId: asked.json().resetId, code, password } });
    const hashBefore = await queryRows(production.database.db, sql`SELECT password_hash FROM dating_users WHERE id = ${memberId}`);
    for (const password of PUBLISHED) {
      const answer = await confirm(password);
      expect(answer.statusCode, password).toBe(400);
      expect(answer.json()).toEqual({ error: PUBLISHED_PASSWORD_REFUSED });
    }
    expect(await queryRows(production.database.db, sql`SELECT password_hash FROM dating_users WHERE id = ${memberId}`)).toEqual(hashBefore);
    expect((await confirm('a private dating password 2')).statusCode).toBe(200);
    const login = await production.app.inject({ method: 'POST', url: '/dating/auth/login', payload: { phone, password: 'a private dating password 2' } });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('refuses a dating sign-in with a published password, with the refusal of a wrong one, and signs in a private one', async () => {
    const memberId = await buildDatingMember(production.database.db);
    const [{ phone }] = await queryRows<{ phone: string }>(production.database.db, sql`SELECT phone FROM dating_users WHERE id = ${memberId}`);
    const logIn = (password: string) => production.app.inject({ method: 'POST', url: '/dating/auth/login', payload: { phone, password } });
    for (const password of PUBLISHED) {
      const hash = await hashPassword(password, production.config.passwordHashCost);
      await production.database.db.execute(sql`UPDATE dating_users SET password_hash = ${hash} WHERE id = ${memberId}`);
      const answer = await logIn(password);
      expect(answer.statusCode, `${password}: ${answer.body}`).toBe(401);
      expect(answer.json()).toEqual({ error: LOGIN_REFUSED });
    }
    const privateHash = await hashPassword('a private dating password 3', production.config.passwordHashCost);
    await production.database.db.execute(sql`UPDATE dating_users SET password_hash = ${privateHash} WHERE id = ${memberId}`);
    expect((await logIn('a private dating password 3')).statusCode).toBe(200);
  });
});
