import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import type { DatingSignupBody } from '#common/contract/dating.ts';
import { normalizeDatingPhone } from '#common/domain/dating-profile.ts';
import { makePng } from '#server/test/test-images.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';
import { LOGIN_REFUSED } from './dating-account.ts';
import { DUPLICATE_PHONE } from './dating-signup.ts';
import { NOT_THIS_BROWSER, NOT_UPLOADED } from './dating-uploads.ts';

/**
 * The dating section through HTTP on a real database and the local object store: presign →
 * PUT → signup → cookie → who-am-I → logout → login, and every refusal with its message.
 * "Now" is 2026-11-23 10:00 in Kolkata (TEST_NOW).
 */

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tablefair-dating-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Method = 'GET' | 'POST' | 'PUT';
type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

/** A browser: a cookie jar that keeps what the server sets (and drops what it clears). */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: () => TestApp['app'],
    /** The client address every call comes from, unless a call says otherwise. */
    private readonly address?: string,
  ) {}

  cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {};
  }

  async call(
    method: Method,
    url: string,
    options: { json?: unknown; body?: Buffer | string; contentType?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...this.cookieHeader(), ...options.headers };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.contentType) headers['content-type'] = options.contentType;
    const response = await this.app().inject({
      method,
      url,
      headers,
      remoteAddress: options.remoteAddress ?? this.address,
      payload: options.json !== undefined ? JSON.stringify(options.json) : options.body,
    });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const cleared = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (cleared) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }
}

const newBrowser = () => new Browser(() => t.app);
/** The address the S3 tests' browser calls come from. */
const S3_CLIENT = '192.0.2.33';

let phoneCounter = 0;
function uniquePhone(): string {
  phoneCounter += 1;
  return `+9198${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneCounter).padStart(2, '0')}`;
}

function profile(photos: { objectKey: string }[], overrides: Partial<DatingSignupBody> = {}): DatingSignupBody {
  return {
    phone: uniquePhone(),
    password: 'correct horse',
    name: 'Meera',
    dob: '1995-06-15',
    profession: 'Product designer',
    dreams: 'Open a reading room',
    fiveYearGoal: 'Learn Carnatic violin',
    whatIWantInPartner: 'Curiosity',
    whyPartnerWouldLikeMe: 'I plan great Sundays',
    physicalActivity: 'REGULAR',
    dateBudget: 'INR_1000_2500',
    instagramHandle: '@meera.reads',
    diet: 'EGG',
    drinking: 'SOCIALLY',
    smoking: 'NO',
    photos: photos.map((photo, sortOrder) => ({ objectKey: photo.objectKey, sortOrder })),
    cuisines: ['SOUTH_INDIAN', 'JAPANESE'],
    interests: ['Books', 'Jazz'],
    languages: ['Kannada', 'English'],
    firstDateTypes: ['COFFEE', 'MUSEUM_WALK'],
    ...overrides,
  };
}

const PNGS = [makePng(12, 9), makePng(9, 12), makePng(10, 10)];

async function presign(browser: Browser, count = 3, contentTypes = Array.from({ length: count }, () => 'image/png')) {
  const response = await browser.call('POST', '/dating/uploads/presign', { json: { count, contentTypes, userHint: 'signup' } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items as { uploadUrl: string; objectKey: string; contentType: string }[];
}

/** Presign and PUT `count` real PNGs from this browser. */
async function uploadPhotos(browser: Browser, count = 3) {
  const items = await presign(browser, count);
  for (const [index, item] of items.entries()) {
    const put = await browser.call('PUT', item.uploadUrl, { body: PNGS[index % PNGS.length], contentType: item.contentType });
    expect(put.statusCode, put.body).toBe(204);
  }
  return items;
}

async function signUp(browser: Browser, overrides: Partial<DatingSignupBody> = {}) {
  const items = await uploadPhotos(browser);
  const body = profile(items, overrides);
  return { body, items, browser, response: await browser.call('POST', '/dating/auth/signup', { json: body }) };
}

/** The text a signup sent, read as the demo reads it: the dev mailbox, by the signup's id. */
async function textOf(started: Response, app = t.app): Promise<string> {
  const { signupId } = started.json() as { signupId: string };
  const mailbox = await app.inject({ method: 'GET', url: `/dating/dev/mailbox?signup=${signupId}` });
  expect(mailbox.statusCode, mailbox.body).toBe(200);
  return (mailbox.json() as { messages: { body: string }[] }).messages[0]?.body ?? '';
}

/** The code the signup's text carries (as the phone would). */
async function codeSentTo(started: Response, app = t.app): Promise<string> {
  const code = /\b(\d{6})\b/.exec(await textOf(started, app))?.[1];
  if (!code) throw new Error(`no code was sent for ${started.body}`);
  return code;
}

/** Step 2 of a signup (decision 101): the code texted to the phone creates the account and signs in. */
async function verifySignup(browser: Browser, started: Response, headers: Record<string, string> = {}, app = t.app): Promise<Response> {
  expect(started.statusCode, started.body).toBe(202);
  const { signupId } = started.json() as { signupId: string };
  return browser.call('POST', '/dating/auth/signup/verify', { json: { signupId, code: await codeSentTo(started, app) }, headers });
}

/** Both steps: the account exists and this browser is signed in. */
async function signUpAndVerify(browser: Browser, overrides: Partial<DatingSignupBody> = {}) {
  const started = await signUp(browser, overrides);
  const response = await verifySignup(browser, started.response);
  expect(response.statusCode, response.body).toBe(201);
  return { ...started, response };
}

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

describe('photo uploads are bound to the browser and checked by their bytes', () => {
  it('refuses a signup that claims keys presigned for another browser', async () => {
    const owner = newBrowser();
    const items = await uploadPhotos(owner);
    const thief = newBrowser();
    await presign(thief); // the thief has an upload cookie of its own
    const response = await thief.call('POST', '/dating/auth/signup', { json: profile(items) });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(NOT_THIS_BROWSER);
    const noCookie = await newBrowser().call('POST', '/dating/auth/signup', { json: profile(items) });
    expect(noCookie.statusCode).toBe(403);
    // The owner can still use them.
    expect((await verifySignup(owner, await owner.call('POST', '/dating/auth/signup', { json: profile(items) }))).statusCode).toBe(201);
  });

  it('refuses one photo of someone else mixed with two of ours', async () => {
    const other = await uploadPhotos(newBrowser());
    const browser = newBrowser();
    const ours = await uploadPhotos(browser);
    const response = await browser.call('POST', '/dating/auth/signup', { json: profile([ours[0], ours[1], other[2]]) });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a non-image upload with 415, whatever type it claims', async () => {
    const browser = newBrowser();
    const [item] = await presign(browser, 1);
    const response = await browser.call('PUT', item.uploadUrl, { body: Buffer.from('<html>not a photo</html>'), contentType: 'image/png' });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toBe('Only JPEG, PNG or WebP images are accepted');
  });

  it('refuses more than 8 MB with 413', async () => {
    const browser = newBrowser();
    const [item] = await presign(browser, 1);
    const big = Buffer.concat([makePng(), Buffer.alloc(8 * 1024 * 1024)]);
    const response = await browser.call('PUT', item.uploadUrl, { body: big, contentType: 'image/png' });
    expect(response.statusCode).toBe(413);
    expect(typeof response.json().error).toBe('string');
  });

  it('refuses a signup whose photos were presigned but never uploaded', async () => {
    const browser = newBrowser();
    const items = await presign(browser);
    await browser.call('PUT', items[0].uploadUrl, { body: PNGS[0], contentType: 'image/png' });
    const response = await browser.call('POST', '/dating/auth/signup', { json: profile(items) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(NOT_UPLOADED);
  });

  it('refuses a forged or expired upload URL, and a photo already in a profile', async () => {
    const browser = newBrowser();
    const forged = await browser.call('PUT', '/dating/uploads/put/x.png?grant=eyJrZXkiOiJkYXRpbmcveC5wbmcifQ.AAAA', {
      body: PNGS[0],
      contentType: 'image/png',
    });
    expect(forged.statusCode).toBe(403);
    // A genuine grant for one key cannot write another.
    const [mine] = await presign(browser, 1);
    const elsewhere = mine.uploadUrl.replace(/put\/[^?]+/, 'put/00000000-0000-0000-0000-000000000000.png');
    expect((await browser.call('PUT', elsewhere, { body: PNGS[0], contentType: 'image/png' })).statusCode).toBe(403);

    const [late] = await presign(browser, 1);
    t.clock.advance(16 * 60_000);
    try {
      expect((await browser.call('PUT', late.uploadUrl, { body: PNGS[0], contentType: 'image/png' })).statusCode).toBe(403);
    } finally {
      t.clock.advance(-16 * 60_000);
    }

    const { items, response } = await signUpAndVerify(browser);
    expect(response.statusCode).toBe(201);
    const overwrite = await browser.call('PUT', items[0].uploadUrl, { body: PNGS[1], contentType: 'image/png' });
    expect(overwrite.statusCode).toBe(409);
    const reuse = await browser.call('POST', '/dating/auth/signup', { json: profile(items) });
    expect(reuse.statusCode).toBe(409);
  });

  it('refuses a presign that is not for a signup or asks for a non-image type', async () => {
    const browser = newBrowser();
    expect((await browser.call('POST', '/dating/uploads/presign', { json: { count: 3, userHint: 'profile' } })).statusCode).toBe(400);
    const pdf = await browser.call('POST', '/dating/uploads/presign', { json: { count: 1, contentTypes: ['application/pdf'], userHint: 'signup' } });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().error).toBe('Only JPEG, PNG or WebP images are accepted');
    const defaults = await browser.call('POST', '/dating/uploads/presign', { json: { count: 2, userHint: 'signup' } });
    expect(defaults.json().items.map((item: { contentType: string }) => item.contentType)).toEqual(['image/jpeg', 'image/jpeg']);
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

describe('photos are served to their owner only', () => {
  it('401 without a session, 404 to another dating user, 401 to a diner token', async () => {
    const owner = newBrowser();
    await signUpAndVerify(owner);
    const url = (await owner.call('GET', '/dating/auth/me')).json().photos[0].url as string;

    const anonymous = await t.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/json/);

    const other = newBrowser();
    await signUpAndVerify(other);
    const stranger = await other.call('GET', url);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error).toBe('Photo not found');

    expect((await owner.call('GET', '/dating/photos/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    expect((await owner.call('GET', url)).statusCode).toBe(200);
  });

  it('does not read the dating cookie on diner calls', async () => {
    const browser = newBrowser();
    await signUpAndVerify(browser);
    const diner = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: browser.cookieHeader() });
    expect(diner.statusCode).toBe(401);
    expect(diner.json().error).toBe('Please sign in to continue');
  });
});

describe('S3-compatible storage: presigned PUT straight to the bucket, checked at signup', () => {
  let bucket: Server;
  let s3App: TestApp;
  const objects = new Map<string, { body: Buffer; contentType?: string }>();

  beforeAll(async () => {
    bucket = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://bucket');
      if (!url.searchParams.get('X-Amz-Signature')) {
        res.writeHead(403).end();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'PUT') {
          // A signed content-type must match what the browser sends, as on S3.
          if (url.searchParams.get('X-Amz-SignedHeaders')?.includes('content-type') && !req.headers['content-type']) {
            res.writeHead(403).end();
            return;
          }
          objects.set(url.pathname, { body: Buffer.concat(chunks), contentType: req.headers['content-type'] });
          res.writeHead(200).end();
          return;
        }
        const object = objects.get(url.pathname);
        if (!object) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-length': String(object.body.length) });
        res.end(req.method === 'HEAD' ? undefined : object.body);
      });
    });
    await new Promise<void>((resolve) => bucket.listen(0, '127.0.0.1', resolve));
    const { port } = bucket.address() as AddressInfo;
    s3App = await createTestApp({
      database: t.database,
      env: {
        DATA_DIR: dataDir,
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'tablefair-test',
        S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret-example',
        S3_FORCE_PATH_STYLE: '1',
        // On S3 each presigned photo counts its 8 MB maximum against the address's daily quota (item 7):
        // these tests presign many, from their own address (S3_CLIENT) so the other tests' quota is untouched.
        UPLOAD_BYTES_PER_IP_PER_DAY: String(1024 * 1024 * 1024),
      },
    });
  });
  afterAll(async () => {
    await s3App?.app.close();
    await new Promise<void>((resolve) => bucket.close(() => resolve()));
  });

  it('hands out presigned bucket URLs, verifies the bytes at signup and serves them back', async () => {
    const browser = new Browser(() => s3App.app, S3_CLIENT);
    const response = await browser.call('POST', '/dating/uploads/presign', {
      json: { count: 3, contentTypes: ['image/png', 'image/png', 'image/png'], userHint: 'signup' },
    });
    const items = response.json().items as { uploadUrl: string; objectKey: string; contentType: string }[];
    for (const [index, item] of items.entries()) {
      const url = new URL(item.uploadUrl);
      expect(url.pathname).toBe(`/tablefair-test/${item.objectKey}`);
      expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
      const put = await fetch(item.uploadUrl, { method: 'PUT', headers: { 'content-type': item.contentType }, body: new Uint8Array(PNGS[index]) });
      expect(put.status).toBe(200);
    }
    const signup = await verifySignup(browser, await browser.call('POST', '/dating/auth/signup', { json: profile(items) }));
    expect(signup.statusCode, signup.body).toBe(201);
    const photo = await browser.call('GET', signup.json().photos[1].url);
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(PNGS[1])).toBe(true);
  });

  it('refuses at signup a bucket object that is not an image, or was never uploaded', async () => {
    const browser = new Browser(() => s3App.app, S3_CLIENT);
    const response = await browser.call('POST', '/dating/uploads/presign', {
      json: { count: 3, contentTypes: ['image/png', 'image/png', 'image/png'], userHint: 'signup' },
    });
    const items = response.json().items as { uploadUrl: string; contentType: string }[];
    await fetch(items[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: 'not an image at all' });
    await fetch(items[1].uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(PNGS[1]) });
    const bad = await browser.call('POST', '/dating/auth/signup', { json: profile(items as never) });
    expect(bad.statusCode).toBe(415);
    await fetch(items[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(PNGS[0]) });
    const missing = await browser.call('POST', '/dating/auth/signup', { json: profile(items as never) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(NOT_UPLOADED);
  });
});

// Listed in server/security.db.test.ts with the other holes of issue 12.
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

// Listed in server/security.db.test.ts with the other holes of issue 12.
describe('7. Disk filling', () => {
  const MB = 1024 * 1024;
  /** A PNG by its magic number, padded to about `size` bytes. */
  const bigPng = (size: number) => Buffer.concat([makePng(), Buffer.alloc(size - makePng().length)]);

  async function putPhoto(browser: Browser, remoteAddress: string, size: number) {
    const response = await browser.call('POST', '/dating/uploads/presign', {
      json: { count: 1, contentTypes: ['image/png'], userHint: 'signup' },
      remoteAddress,
    });
    const [item] = response.json().items as { uploadUrl: string; objectKey: string }[];
    return { item, put: await browser.call('PUT', item.uploadUrl, { body: bigPng(size), contentType: 'image/png', remoteAddress }) };
  }

  it('caps the bytes one address uploads per day (UPLOAD_BYTES_PER_IP_PER_DAY), counted in the database so two instances agree', async () => {
    const env = { DATA_DIR: dataDir, UPLOAD_BYTES_PER_IP_PER_DAY: String(20 * MB) };
    const one = await createTestApp({ env, database: t.database });
    const two = await createTestApp({ env, database: t.database });
    try {
      const address = '198.51.100.77';
      // 8 MB through each instance: 16 MB of 20.
      expect((await putPhoto(new Browser(() => one.app), address, 8 * MB)).put.statusCode).toBe(204);
      expect((await putPhoto(new Browser(() => two.app), address, 8 * MB)).put.statusCode).toBe(204);
      // The third 8 MB from that address is refused on either instance, with a reason, and nothing is stored.
      const third = await putPhoto(new Browser(() => one.app), address, 8 * MB);
      expect(third.put.statusCode).toBe(429);
      expect(third.put.json().error).toBe('This network has uploaded 20 MB of photos today, the most we take in a day. Please try again tomorrow.');
      expect(existsSync(join(dataDir, 'uploads', third.item.objectKey))).toBe(false);
      // A small one still fits; another address has its own allowance; the next day starts again.
      expect((await putPhoto(new Browser(() => two.app), address, 2 * MB)).put.statusCode).toBe(204);
      expect((await putPhoto(new Browser(() => two.app), '198.51.100.78', 8 * MB)).put.statusCode).toBe(204);
      one.clock.advance(24 * 3_600_000);
      expect((await putPhoto(new Browser(() => one.app), address, 8 * MB)).put.statusCode).toBe(204);
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });

  it('deletes uploads nobody claimed within UNCLAIMED_UPLOAD_TTL_MINUTES from the sweep, keeps claimed ones, and reports the storage in use', async () => {
    const sweeper = await createTestApp({ env: { DATA_DIR: dataDir, UNCLAIMED_UPLOAD_TTL_MINUTES: '60' }, database: t.database });
    try {
      const browser = new Browser(() => sweeper.app);
      const abandoned = await putPhoto(browser, '198.51.100.90', 64 * 1024);
      expect(abandoned.put.statusCode).toBe(204);
      const path = join(dataDir, 'uploads', abandoned.item.objectKey);
      expect(existsSync(path)).toBe(true);
      const kept = await signUpAndVerifyOn(sweeper.app);

      // Within the hour (and its grace for a code in flight) nothing goes.
      sweeper.clock.advance(60 * 60_000);
      expect((await sweeper.app.services.dating.sweepUploads()).deleted).toBe(0);
      expect(existsSync(path)).toBe(true);

      sweeper.clock.advance(16 * 60_000);
      const swept = await sweeper.app.services.dating.sweepUploads();
      expect(swept.deleted).toBeGreaterThanOrEqual(1);
      expect(existsSync(path)).toBe(false);
      const rows = await queryRows(t.database.db, sql`SELECT 1 FROM dating_uploads WHERE object_key = ${abandoned.item.objectKey}`);
      expect(rows).toHaveLength(0);
      // The finished signup's photos stay, and are counted in the storage in use.
      for (const item of kept) expect(existsSync(join(dataDir, 'uploads', item.objectKey))).toBe(true);
      expect(swept.storage.files).toBeGreaterThanOrEqual(3);
      expect(swept.storage.bytes).toBeGreaterThan(0);
      expect(swept.storage.unclaimedBytes).toBeLessThan(swept.storage.bytes);
    } finally {
      await sweeper.app.close();
    }
  });
});

/** A finished signup on another app instance (same database): its three uploads. */
async function signUpAndVerifyOn(app: TestApp['app']) {
  const browser = new Browser(() => app);
  const items = await uploadPhotos(browser);
  const started = await browser.call('POST', '/dating/auth/signup', { json: profile(items) });
  const done = await verifySignup(browser, started, {}, app);
  expect(done.statusCode, done.body).toBe(201);
  return items;
}
