import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { makePng } from '#server/test/test-images.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';
import { NOT_THIS_BROWSER, NOT_UPLOADED } from './dating-uploads.ts';
import {
  Browser,
  dataDir,
  newBrowser,
  PNGS,
  presign,
  profile,
  S3_CLIENT,
  setUpDatingFixture,
  signUpAndVerify,
  signUpAndVerifyOn,
  t,
  uploadPhotos,
  verifySignup,
} from './dating.test-support.ts';

/**
 * Dating photos through HTTP on a real database: uploads bound to the browser that asked and
 * checked by their bytes, served to whom may see them, on local disk and on S3-compatible storage,
 * and the limits that keep the disk from filling.
 */
setUpDatingFixture();

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

// Hole 7 of docs/security.md's table.
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
