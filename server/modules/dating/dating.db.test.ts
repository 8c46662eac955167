import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { createTestApp } from '#server/test/app.ts';
import { normalizeDatingPhone } from '#common/domain/dating-profile.ts';
import { LOGIN_REFUSED } from './dating-account.ts';
import { DUPLICATE_PHONE } from './dating-signup.ts';
import { NOT_THIS_BROWSER } from './dating-uploads.ts';
import {
  Browser,
  codeSentTo,
  dataDir,
  newBrowser,
  PNGS,
  presign,
  profile,
  setUpDatingFixture,
  signUp,
  signUpAndVerify,
  t,
  textOf,
  uploadPhotos,
  verifySignup,
} from './dating.test-support.ts';

/**
 * The dating section's accounts through HTTP on a real database and the local object store:
 * presign → PUT → signup → cookie → who-am-I → logout → login, the signup's rules and code, and
 * every refusal with its message (the photos' own rules are dating-uploads.db.test.ts).
 */
setUpDatingFixture();

describe('the whole dating journey on local storage', () => {
  it('presign → PUT → signup → cookie → who-am-I → photos → logout → 401 → login', async () => {
    const browser = newBrowser();
    const items = await presign(browser);
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item.uploadUrl).toBe(
        `/dating/uploads/put/${item.objectKey.slice('dating/'.length)}?grant=${new URL(item.uploadUrl, 'http://x').searchParams.get('grant')}`,
      );
      expect(item.uploadUrl).toMatch(/\?grant=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(item.objectKey).toMatch(/^dating\/[0-9a-f-]{36}\.png$/);
      expect(item.contentType).toBe('image/png');
    }
    expect(browser.cookies.has('tf_dating_upload')).toBe(true);
    for (const [index, item] of items.entries()) {
      expect((await browser.call('PUT', item.uploadUrl, { body: PNGS[index], contentType: 'image/png' })).statusCode).toBe(204);
    }

    const body = profile(items, { phone: '+91 98450 11111' });
    const started = await browser.call('POST', '/dating/auth/signup', { json: body });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.cookies).toEqual([]);
    // Step 2 (decision 101): the code texted to the phone creates the account and signs in.
    const signup = await verifySignup(browser, started);
    expect(signup.statusCode, signup.body).toBe(201);
    const setCookie = String(signup.headers['set-cookie']);
    expect(setCookie).toMatch(/tf_dating_session=[A-Za-z0-9_-]{43}/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\/dating/);
    expect(setCookie).not.toMatch(/Secure/i);
    const created = signup.json();
    expect(created).toMatchObject({
      name: 'Meera',
      phone: '+919845011111',
      age: 31,
      dateBudget: 'INR_1000_2500',
      instagramHandle: 'meera.reads',
      cuisines: ['SOUTH_INDIAN', 'JAPANESE'],
      interests: ['Books', 'Jazz'],
      languages: ['Kannada', 'English'],
    });
    expect(JSON.stringify(created)).not.toMatch(/password/i);

    const me = await browser.call('GET', '/dating/auth/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const photos = me.json().photos as { url: string; sortOrder: number }[];
    expect(photos.map((photo) => photo.sortOrder)).toEqual([0, 1, 2]);
    for (const [index, photo] of photos.entries()) {
      const image = await browser.call('GET', photo.url);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(PNGS[index])).toBe(true);
    }

    expect((await browser.call('POST', '/dating/auth/logout', { json: {} })).statusCode).toBe(204);
    expect(browser.cookies.has('tf_dating_session')).toBe(false);
    const after = await browser.call('GET', '/dating/auth/me');
    expect(after.statusCode).toBe(401);
    expect(typeof after.json().error).toBe('string');

    const login = await browser.call('POST', '/dating/auth/login', { json: { phone: '9845011111', password: 'correct horse' } });
    expect(login.statusCode, login.body).toBe(200);
    expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i);
    expect((await browser.call('GET', '/dating/auth/me')).json().name).toBe('Meera');
  });

  it('keeps a session revoked by logout dead even if the old cookie is replayed', async () => {
    const browser = newBrowser();
    await signUpAndVerify(browser);
    const stolen = browser.cookies.get('tf_dating_session')!;
    await browser.call('POST', '/dating/auth/logout', { json: {} });
    const replay = await t.app.inject({ method: 'GET', url: '/dating/auth/me', headers: { cookie: `tf_dating_session=${stolen}` } });
    expect(replay.statusCode).toBe(401);
  });

  it('refuses a wrong password and an unknown phone with one message that tells neither', async () => {
    const browser = newBrowser();
    const { body } = await signUp(browser);
    const wrong = await newBrowser().call('POST', '/dating/auth/login', { json: { phone: body.phone, password: 'not the password' } });
    const unknown = await newBrowser().call('POST', '/dating/auth/login', { json: { phone: '+919000000001', password: 'whatever123' } });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json().error).toBe(LOGIN_REFUSED);
    expect(unknown.json().error).toBe(LOGIN_REFUSED);
  });

  it('checks login fields with the spec messages', async () => {
    const response = await newBrowser().call('POST', '/dating/auth/login', { json: { phone: '12345', password: 'longenough' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Enter a valid phone number');
    const short = await newBrowser().call('POST', '/dating/auth/login', { json: { phone: '9876543210', password: 'short' } });
    expect(short.json().error).toBe('Min 8 characters');
  });

  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const secure = await createTestApp({ env: { DATA_DIR: dataDir, TRUST_PROXY: '1' } });
    try {
      const browser = new Browser(() => secure.app);
      const items = await browser.call('POST', '/dating/uploads/presign', {
        json: { count: 3, contentTypes: ['image/png', 'image/png', 'image/png'], userHint: 'signup' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(String(items.headers['set-cookie'])).toMatch(/Secure/);
      for (const [index, item] of (items.json().items as { uploadUrl: string }[]).entries()) {
        expect((await browser.call('PUT', item.uploadUrl, { body: PNGS[index], contentType: 'image/png' })).statusCode).toBe(204);
      }
      const started = await browser.call('POST', '/dating/auth/signup', { json: profile(items.json().items), headers: { 'x-forwarded-proto': 'https' } });
      const signup = await verifySignup(browser, started, { 'x-forwarded-proto': 'https' }, secure.app);
      expect(signup.statusCode, signup.body).toBe(201);
      expect(String(signup.headers['set-cookie'])).toMatch(/tf_dating_session=.*; Secure/);
    } finally {
      await secure.app.close();
    }
  });
});

describe('signup rules enforced by the server with the form messages', () => {
  it.each([2, 4])('refuses %i photos: Add exactly 3 photos', async (count) => {
    const browser = newBrowser();
    const items = [...(await uploadPhotos(browser, Math.min(count, 3))), ...(count > 3 ? await uploadPhotos(browser, count - 3) : [])];
    const response = await browser.call('POST', '/dating/auth/signup', { json: profile(items.slice(0, count)) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Add exactly 3 photos');
  });

  it('refuses someone under 18 (Kolkata today) and accepts someone 18 today', async () => {
    const young = await signUp(newBrowser(), { dob: '2008-11-24' });
    expect(young.response.statusCode).toBe(400);
    expect(young.response.json().error).toBe('You must be 18 or older');
    const adult = await signUpAndVerify(newBrowser(), { dob: '2008-11-23' });
    expect(adult.response.statusCode, adult.response.body).toBe(201);
  });

  it('lets a phone sign up once, however it is written', async () => {
    const first = await signUpAndVerify(newBrowser(), { phone: '9812300001' });
    expect(first.response.statusCode).toBe(201);
    for (const phone of ['9812300001', '+919812300001', '+91 98123 00001', '09812300001']) {
      // Said only by text to the phone (decision 101): the answer is the usual 202, and no code comes.
      const again = await signUp(newBrowser(), { phone });
      expect(again.response.statusCode, phone).toBe(202);
      expect(await textOf(again.response)).toMatch(/already has a Tablefair Dating account/);
    }
    // Two signups for one free phone both get codes; the first to finish takes it, the second hears why.
    const a = await signUp(newBrowser(), { phone: '9812300002' });
    const aCode = await codeSentTo(a.response);
    const b = await signUp(newBrowser(), { phone: '9812300002' });
    const bCode = await codeSentTo(b.response);
    expect((await a.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId: a.response.json().signupId, code: aCode } })).statusCode).toBe(201);
    const late = await b.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId: b.response.json().signupId, code: bCode } });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe(DUPLICATE_PHONE);
  });

  it('takes the code only from the browser that started the signup, five wrong tries at most, for ten minutes', async () => {
    const started = await signUp(newBrowser());
    const { signupId } = started.response.json();
    const code = await codeSentTo(started.response);
    const wrongCode = code === '111111' ? '222222' : '111111';
    const other = await newBrowser().call('POST', '/dating/auth/signup/verify', { json: { signupId, code } });
    expect(other.statusCode).toBe(403);
    for (let i = 4; i >= 1; i--) {
      const wrong = await started.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId, code: wrongCode } });
      expect(wrong.json().error).toBe(`code: That code is not right. ${i} ${i === 1 ? 'try' : 'tries'} left.`);
    }
    const fifth = await started.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId, code: wrongCode } });
    expect(fifth.statusCode).toBe(429);
    expect((await started.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId, code } })).statusCode).toBe(429);

    const slow = await signUp(newBrowser());
    const slowCode = await codeSentTo(slow.response);
    t.clock.advance(11 * 60_000);
    try {
      const expired = await slow.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId: slow.response.json().signupId, code: slowCode } });
      expect(expired.statusCode).toBe(404);
    } finally {
      t.clock.advance(-11 * 60_000);
    }
  });

  it.each([
    [{ name: '  ' }, 'Name is required'],
    [{ dob: '' }, 'Date of birth required'],
    [{ cuisines: [] }, 'Pick at least one cuisine'],
    [{ firstDateTypes: [] }, 'Pick at least one preferred first date'],
    [{ dateBudget: '' as never }, 'Choose a date budget'],
    [{ dreams: 'x'.repeat(201) }, 'Max 200 characters'],
    [{ phone: '98765' }, 'Enter a valid phone number'],
    [{ password: 'short' }, 'Min 8 characters'],
    [{ cuisines: ['PIZZA' as never] }, 'Choose cuisines from the list'],
  ])('refuses %j with its message', async (overrides, message) => {
    const browser = newBrowser();
    const items = await uploadPhotos(browser);
    const response = await browser.call('POST', '/dating/auth/signup', { json: profile(items, overrides) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
  });
});

describe('JSON only on state-changing dating calls', () => {
  const calls: [string, unknown][] = [
    ['/dating/auth/signup', {}],
    ['/dating/auth/login', { phone: '9876543210', password: 'longenough' }],
    ['/dating/auth/logout', {}],
    ['/dating/uploads/presign', { count: 3, userHint: 'signup' }],
  ];

  it.each(calls)('%s refuses text/plain, a form post and multipart with 415', async (url, json) => {
    const browser = newBrowser();
    const plain = await browser.call('POST', url, { body: JSON.stringify(json), contentType: 'text/plain' });
    expect(plain.statusCode).toBe(415);
    expect(plain.json().error).toBe('Send the body as JSON (Content-Type: application/json)');
    const form = await browser.call('POST', url, { body: 'phone=9876543210&password=longenough', contentType: 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    const multipart = await browser.call('POST', url, {
      body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
      contentType: 'multipart/form-data; boundary=x',
    });
    expect(multipart.statusCode).toBe(415);
    const none = await browser.call('POST', url);
    expect(none.statusCode).toBe(415);
  });

  it('does not let a cross-site text/plain logout end a session', async () => {
    const browser = newBrowser();
    await signUpAndVerify(browser);
    expect((await browser.call('POST', '/dating/auth/logout', { body: '{}', contentType: 'text/plain' })).statusCode).toBe(415);
    expect((await browser.call('GET', '/dating/auth/me')).statusCode).toBe(200);
  });
});

// Hole 12 of docs/security.md's table; server/security.db.test.ts points here.
describe('12. Dating signup tells strangers who is on it', () => {
  it('answers a signup with a taken phone exactly as one with a free phone, after the same checks, and texts the owner instead', async () => {
    const owner = await signUpAndVerify(newBrowser());
    const takenPhone = owner.body.phone;

    const taken = await signUp(newBrowser(), { phone: takenPhone });
    const free = await signUp(newBrowser());
    expect(taken.response.statusCode).toBe(free.response.statusCode);
    expect(taken.response.statusCode).toBe(202);
    const shape = (body: Record<string, unknown>) => ({ ...body, signupId: typeof body.signupId, phone: typeof body.phone });
    expect(shape(taken.response.json())).toEqual(shape(free.response.json()));
    expect(taken.response.json().phone).toBe(takenPhone);
    expect(Object.keys(taken.response.headers).sort()).toEqual(Object.keys(free.response.headers).sort());
    expect(taken.response.cookies).toEqual([]);

    // No early exit on the phone: the photo and age checks answer first, the same for a taken phone.
    const stranger = newBrowser();
    const notHers = await uploadPhotos(newBrowser());
    const stolen = await stranger.call('POST', '/dating/auth/signup', { json: profile(notHers, { phone: takenPhone }) });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().error).toBe(NOT_THIS_BROWSER);
    const young = await signUp(newBrowser(), { phone: takenPhone, dob: '2008-11-24' });
    expect(young.response.statusCode).toBe(400);
    expect(young.response.json().error).toBe('You must be 18 or older');

    // The owner's phone is told (no code in it); the free phone gets its code.
    expect(await textOf(taken.response)).toMatch(/already has a Tablefair Dating account/);
    expect(await textOf(taken.response)).not.toMatch(/\b\d{6}\b/);
    expect(await textOf(free.response)).toMatch(/\b\d{6}\b/);
    const texts = await queryRows<{ recipient: string }>(
      t.database.db,
      sql`SELECT recipient FROM outbox_messages WHERE recipient IN (${takenPhone}, ${normalizeDatingPhone(free.body.phone)}) AND channel = 'sms'`,
    );
    expect(texts.filter((text) => text.recipient === takenPhone)).toHaveLength(2); // the owner's own code, then the warning

    // A guessed code fails the same way for both.
    for (const attempt of [taken, free]) {
      const guess = await attempt.browser.call('POST', '/dating/auth/signup/verify', { json: { signupId: attempt.response.json().signupId, code: '000000' } });
      expect(guess.statusCode).toBe(400);
      expect(guess.json().error).toBe('code: That code is not right. 4 tries left.');
    }
  });
});
