import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatingSignupBody } from '#common/contract/dating.ts';
import { makePng } from '#server/test/test-images.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';

/**
 * The dating tests' browser and signup steps (dating.db.test.ts, dating-uploads.db.test.ts): a
 * fresh app on a real database and the local object store per file. Call setUpDatingFixture()
 * once per test file; the bindings below are then live. "Now" is 2026-11-23 10:00 in Kolkata
 * (TEST_NOW).
 */
export let t: TestApp;
export let dataDir: string;

export function setUpDatingFixture(): void {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tablefair-dating-'));
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

export type Method = 'GET' | 'POST' | 'PUT';
export type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

/** A browser: a cookie jar that keeps what the server sets (and drops what it clears). */
export class Browser {
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

export const newBrowser = () => new Browser(() => t.app);
/** The address the S3 tests' browser calls come from. */
export const S3_CLIENT = '192.0.2.33';

let phoneCounter = 0;
export function uniquePhone(): string {
  phoneCounter += 1;
  return `+9198${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneCounter).padStart(2, '0')}`;
}

export function profile(photos: { objectKey: string }[], overrides: Partial<DatingSignupBody> = {}): DatingSignupBody {
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
    gender: 'WOMAN',
    wantsToMeet: 'EVERYONE',
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

export const PNGS = [makePng(12, 9), makePng(9, 12), makePng(10, 10)];

export async function presign(browser: Browser, count = 3, contentTypes = Array.from({ length: count }, () => 'image/png')) {
  const response = await browser.call('POST', '/dating/uploads/presign', { json: { count, contentTypes, userHint: 'signup' } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items as { uploadUrl: string; objectKey: string; contentType: string }[];
}

/** Presign and PUT `count` real PNGs from this browser. */
export async function uploadPhotos(browser: Browser, count = 3) {
  const items = await presign(browser, count);
  for (const [index, item] of items.entries()) {
    const put = await browser.call('PUT', item.uploadUrl, { body: PNGS[index % PNGS.length], contentType: item.contentType });
    expect(put.statusCode, put.body).toBe(204);
  }
  return items;
}

export async function signUp(browser: Browser, overrides: Partial<DatingSignupBody> = {}) {
  const items = await uploadPhotos(browser);
  const body = profile(items, overrides);
  return { body, items, browser, response: await browser.call('POST', '/dating/auth/signup', { json: body }) };
}

/** The text a signup sent, read as the demo reads it: the dev mailbox, by the signup's id. */
export async function textOf(started: Response, app = t.app): Promise<string> {
  const { signupId } = started.json() as { signupId: string };
  const mailbox = await app.inject({ method: 'GET', url: `/dating/dev/mailbox?signup=${signupId}` });
  expect(mailbox.statusCode, mailbox.body).toBe(200);
  return (mailbox.json() as { messages: { body: string }[] }).messages[0]?.body ?? '';
}

/** The code the signup's text carries (as the phone would). */
export async function codeSentTo(started: Response, app = t.app): Promise<string> {
  const code = /\b(\d{6})\b/.exec(await textOf(started, app))?.[1];
  if (!code) throw new Error(`no code was sent for ${started.body}`);
  return code;
}

/** Step 2 of a signup (decision 101): the code texted to the phone creates the account and signs in. */
export async function verifySignup(browser: Browser, started: Response, headers: Record<string, string> = {}, app = t.app): Promise<Response> {
  expect(started.statusCode, started.body).toBe(202);
  const { signupId } = started.json() as { signupId: string };
  return browser.call('POST', '/dating/auth/signup/verify', { json: { signupId, code: await codeSentTo(started, app) }, headers });
}

/** Both steps: the account exists and this browser is signed in. */
export async function signUpAndVerify(browser: Browser, overrides: Partial<DatingSignupBody> = {}) {
  const started = await signUp(browser, overrides);
  const response = await verifySignup(browser, started.response);
  expect(response.statusCode, response.body).toBe(201);
  return { ...started, response };
}

/** A finished signup on another app instance (same database): its three uploads. */
export async function signUpAndVerifyOn(app: TestApp['app']) {
  const browser = new Browser(() => app);
  const items = await uploadPhotos(browser);
  const started = await browser.call('POST', '/dating/auth/signup', { json: profile(items) });
  const done = await verifySignup(browser, started, {}, app);
  expect(done.statusCode, done.body).toBe(201);
  return items;
}
