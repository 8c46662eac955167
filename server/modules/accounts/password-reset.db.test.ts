import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PASSWORD_RESET_PER_ACCOUNT_PER_HOUR, PASSWORD_RESET_PER_ADDRESS_PER_HOUR, PASSWORD_RESET_SENT } from '#common/domain/password-reset.ts';
import { MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, setStaffPassword, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDatingMember, buildDiner, buildModerator, buildRestaurant, buildStaff } from '#server/test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

let counter = 0;
const freshPhone = () => `+9197${String(10_000_000 + counter++).padStart(8, '0')}`;
const NEW_PASSWORD = 'a-new-password-42';

function post(url: string, payload: object, token?: string) {
  return t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
}

/** Asks for a code and waits until the account (if any) has been looked up and its code queued. */
async function requestReset(account: 'diner' | 'staff' | 'dating', identifier: string) {
  // The test clock stands still: a second passes, so the code's message is the newest to its address.
  t.clock.advance(1000);
  const response = await post('/api/auth/password-reset', { account, identifier });
  await t.app.services.passwordReset.settled();
  return response;
}

/** The newest message the outbox holds for an address, as the phone or inbox receives it. */
async function lastMessageTo(recipient: string): Promise<{ channel: string; subject: string; body: string } | undefined> {
  const [row] = await queryRows<{ channel: string; subject: string; body: string }>(
    t.database.db,
    sql`SELECT channel, subject, body FROM outbox_messages WHERE recipient = ${recipient} ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  return row;
}
const codeIn = (message: { body: string } | undefined) => /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function verifyPhone(userId: string, phone: string) {
  await t.database.db.execute(sql`UPDATE users SET verified_phone = ${phone}, phone_verified_at = now() WHERE id = ${userId}`);
}

describe('forgot password', () => {
  it('a diner resets by the code texted to their verified phone: one use, and every old session ends', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await verifyPhone(diner.id, phone);
    const asked = await requestReset('diner', diner.username.toUpperCase());
    expect(asked.statusCode, asked.body).toBe(202);
    const { resetId, message } = asked.json();
    expect(message).toBe(PASSWORD_RESET_SENT);
    const sms = await lastMessageTo(phone);
    expect(sms?.channel).toBe('sms');
    const code = codeIn(sms)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(asked.body).not.toContain(code);

    const wrong = await post('/api/auth/password-reset/confirm', { resetId, code: wrongOf(code), password: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('code: That code is not right. 4 tries left.');
    // The old password still works until the right code is entered.
    expect((await post('/api/auth/login', { username: diner.username, password: diner.password })).statusCode).toBe(200);

    const done = await post('/api/auth/password-reset/confirm', { resetId, code, password: NEW_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(diner.token) })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { username: diner.username, password: diner.password })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { username: diner.username, password: NEW_PASSWORD })).statusCode).toBe(200);
    // Single use.
    const again = await post('/api/auth/password-reset/confirm', { resetId, code, password: 'another-password-1' });
    expect(again.statusCode).toBe(404);
  });

  it('answers an unknown account exactly as a known one, sends nothing, and no code ever works for it', async () => {
    const diner = await buildDiner(t.database.db);
    await verifyPhone(diner.id, freshPhone());
    const known = await requestReset('diner', diner.username);
    const unknown = await requestReset('diner', `nobody_${counter++}`);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(Object.keys(unknown.json()).sort()).toEqual(Object.keys(known.json()).sort());
    expect(unknown.json().message).toBe(known.json().message);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    const refused = await post('/api/auth/password-reset/confirm', { resetId: unknown.json().resetId, code: '123456', password: NEW_PASSWORD });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('code: That code is not right. 4 tries left.');
  });

  it("a diner's email counts once its welcome link is opened; before that nothing is sent to it", async () => {
    const username = `mail_${counter++}`;
    const email = `${username}@example.com`;
    const signup = await post('/api/auth/signup', { username, password: 'first-password', email });
    expect(signup.statusCode).toBe(201);
    const welcome = await lastMessageTo(email);
    expect(welcome?.subject).toContain('confirm your email');
    await requestReset('diner', email);
    expect((await lastMessageTo(email))?.subject).toBe(welcome?.subject);

    const token = new URL(/https?:\/\/\S+/.exec(welcome!.body)![0]).searchParams.get('token')!;
    const confirmed = await post('/api/auth/email/confirm', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await post('/api/auth/email/confirm', { token: `${token}x` })).statusCode).toBe(404);

    const asked = await requestReset('diner', email.toUpperCase());
    const mail = await lastMessageTo(email);
    expect(mail?.channel).toBe('email');
    const done = await post('/api/auth/password-reset/confirm', { resetId: asked.json().resetId, code: codeIn(mail)!, password: NEW_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect((await post('/api/auth/login', { username, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('staff reset by the email on file, and their portal sessions end', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const email = `kitchen${counter++}@example.com`;
    const staff = await buildStaff(t.database.db, restaurant.id, { email });
    const asked = await requestReset('staff', staff.username);
    const mail = await lastMessageTo(email);
    expect(mail?.subject).toContain('Tablefair for restaurants');
    const done = await post('/api/auth/password-reset/confirm', { resetId: asked.json().resetId, code: codeIn(mail)!, password: NEW_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/restaurant', headers: bearer(staff.token) })).statusCode).toBe(401);
    expect((await post('/api/auth/restaurant-login', { username: staff.username, password: NEW_PASSWORD })).statusCode).toBe(200);
    // A diner code cannot be asked for a staff username: another kind, no account.
    await requestReset('diner', staff.username);
    expect((await lastMessageTo(email))?.body).toBe(mail?.body);
  });

  it('a dating member resets by a text to their phone, and their dating sessions end', async () => {
    const memberId = await buildDatingMember(t.database.db);
    const [{ phone }] = await queryRows<{ phone: string }>(t.database.db, sql`SELECT phone FROM dating_users WHERE id = ${memberId}`);
    const session = await t.app.services.sessions.issueSession('dating', memberId);
    const asked = await requestReset('dating', phone.replace('+91', ''));
    const sms = await lastMessageTo(phone);
    expect(sms?.body).toContain('Tablefair Dating');
    const done = await post('/api/auth/password-reset/confirm', { resetId: asked.json().resetId, code: codeIn(sms)!, password: NEW_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(await t.app.services.sessions.resolvePrincipal(session)).toEqual({ kind: 'anonymous', hadInvalidCredential: true });
    const login = await post('/dating/auth/login', { phone, password: NEW_PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('a code lasts 15 minutes and 5 tries', async () => {
    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await verifyPhone(diner.id, phone);
    const first = await requestReset('diner', phone);
    const code = codeIn(await lastMessageTo(phone))!;
    t.clock.advance(16 * MINUTE_MS);
    const late = await post('/api/auth/password-reset/confirm', { resetId: first.json().resetId, code, password: NEW_PASSWORD });
    expect(late.statusCode).toBe(404);

    const second = await requestReset('diner', phone);
    const secondCode = codeIn(await lastMessageTo(phone))!;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await post('/api/auth/password-reset/confirm', { resetId: second.json().resetId, code: wrongOf(secondCode), password: NEW_PASSWORD })).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    const right = await post('/api/auth/password-reset/confirm', { resetId: second.json().resetId, code: secondCode, password: NEW_PASSWORD });
    expect(right.statusCode).toBe(429);
  });

  it('limits requests per typed address (the same 429 for accounts and strangers) and codes per account (silently)', async () => {
    const stranger = `ghost_${counter++}`;
    const statuses: number[] = [];
    for (let i = 0; i <= PASSWORD_RESET_PER_ADDRESS_PER_HOUR; i++) statuses.push((await requestReset('diner', stranger)).statusCode);
    expect(statuses).toEqual([...Array(PASSWORD_RESET_PER_ADDRESS_PER_HOUR).fill(202), 429]);

    const diner = await buildDiner(t.database.db);
    const phone = freshPhone();
    await verifyPhone(diner.id, phone);
    // Asked in turns by username and by phone: the account's own budget still caps what is sent.
    for (let i = 0; i < PASSWORD_RESET_PER_ACCOUNT_PER_HOUR + 2; i++) {
      expect((await requestReset('diner', i % 2 ? phone : diner.username)).statusCode).toBe(202);
    }
    const [{ count }] = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM outbox_messages WHERE recipient = ${phone}`);
    expect(count).toBe(PASSWORD_RESET_PER_ACCOUNT_PER_HOUR);
    t.clock.advance(61 * MINUTE_MS);
    await requestReset('diner', diner.username);
    const [{ count: later }] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM outbox_messages WHERE recipient = ${phone}`,
    );
    expect(later).toBe(PASSWORD_RESET_PER_ACCOUNT_PER_HOUR + 1);
  });

  it('a Tablefair moderator gives a restaurant login a new password; its sessions end and the change is kept with who made it', async () => {
    const restaurant = await buildRestaurant(t.database.db, { name: 'Moderated Masala House' });
    const staff = await buildStaff(t.database.db, restaurant.id);
    const moderator = await buildModerator(t.database.db);
    const found = await t.app.inject({ method: 'GET', url: '/api/moderation/staff-accounts?q=masala house', headers: bearer(moderator.token) });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().accounts.map((account: { id: string }) => account.id)).toContain(staff.id);
    const set = await setStaffPassword(t.app, moderator.token, staff.id, NEW_PASSWORD);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().sessionsEnded).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/restaurant', headers: bearer(staff.token) })).statusCode).toBe(401);
    expect((await post('/api/auth/restaurant-login', { username: staff.username, password: NEW_PASSWORD })).statusCode).toBe(200);
    const [audit] = await queryRows<{ moderator_id: string; channel: string }>(
      t.database.db,
      sql`SELECT moderator_id, channel FROM password_resets WHERE subject_id = ${staff.id}`,
    );
    expect(audit).toEqual({ moderator_id: moderator.id, channel: 'platform' });
    // Staff of the restaurant cannot do it for each other.
    const byStaff = await setStaffPassword(t.app, (await buildStaff(t.database.db, restaurant.id)).token, staff.id, NEW_PASSWORD);
    expect(byStaff.statusCode).toBe(401);
  });
});
