import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, type BuiltRestaurant } from '#server/test/factories.ts';

let t: TestApp;
let indira: BuiltRestaurant;

beforeAll(async () => {
  t = await createTestApp();
  indira = await buildRestaurant(t.database.db, {
    slug: 'dosa-point',
    name: 'Dosa Point',
    category: 'indian',
    emoji: '🍛',
    neighborhood: 'Indiranagar',
    hot: true,
    cuisineTags: ['South Indian', 'Breakfast'],
    lat: 12.978,
    lng: 77.64,
  });
  await buildRestaurant(t.database.db, { slug: 'aaha-cafe', name: 'Aaha Cafe', category: 'coffee', emoji: '☕', lat: null, lng: null });
});
afterAll(() => t.close());

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

describe('GET /api/restaurants', () => {
  it('lists every restaurant by name with the public fields', async () => {
    const response = await get('/api/restaurants');
    expect(response.statusCode).toBe(200);
    const list = response.json() as { slug: string; name: string }[];
    expect(list.map((r) => r.slug)).toEqual(['aaha-cafe', 'dosa-point']);
    expect(list[1]).toEqual({
      id: indira.id,
      slug: 'dosa-point',
      name: 'Dosa Point',
      emoji: '🍛',
      neighborhood: 'Indiranagar',
      hot: true,
      cuisineTags: ['South Indian', 'Breakfast'],
      category: 'indian',
      description: null,
      website: null,
      instagramUrl: null,
      heroImageUrl: `/api/restaurant/${indira.id}/hero-image`,
      position: { lat: 12.978, lng: 77.64 },
      diet: null,
      costForTwo: null,
    });
    expect(list[0]).toMatchObject({ position: null, hot: false });
  });

  it('answers an ETag, and 304 with no body to a matching If-None-Match', async () => {
    const first = await get('/api/restaurants');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get('/api/restaurants', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    for (const header of [`"stale", ${etag}`, `W/${etag}`, '*']) {
      expect((await get('/api/restaurants', { 'if-none-match': header })).statusCode, header).toBe(304);
    }
    expect((await get('/api/restaurants', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('keeps the ETag when the list is sent compressed, as browsers ask', async () => {
    // Enough restaurants for the list to pass the compression threshold.
    for (let i = 0; i < 6; i++) await buildRestaurant(t.database.db, { name: `Zz Filler ${i}` });
    const plain = await get('/api/restaurants');
    const gzip = await get('/api/restaurants', { 'accept-encoding': 'gzip' });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(gzip.headers.etag).toBeDefined();
    const revalidated = await get('/api/restaurants', { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag as string });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });

  it('changes the ETag when a restaurant changes', async () => {
    const before = await get('/api/restaurants');
    await t.database.db.execute(sql`UPDATE restaurants SET hot = NOT hot WHERE id = ${indira.id}`);
    const after = await get('/api/restaurants', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await t.database.db.execute(sql`UPDATE restaurants SET hot = NOT hot WHERE id = ${indira.id}`);
  });
});

describe('GET /api/restaurants/{slug}', () => {
  it('finds a restaurant by slug, whatever its case, and by id', async () => {
    const bySlug = await get('/api/restaurants/dosa-point');
    expect(bySlug.statusCode).toBe(200);
    expect(bySlug.json()).toMatchObject({ id: indira.id, slug: 'dosa-point', name: 'Dosa Point' });
    expect((await get('/api/restaurants/Dosa-Point')).json().id).toBe(indira.id);
    const byId = await get(`/api/restaurants/${indira.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(bySlug.json());
    expect((await get(`/api/restaurants/${indira.id.toUpperCase()}`)).json().id).toBe(indira.id);
  });

  it.each(['no-such-place', '00000000-0000-4000-8000-000000000000', 'dosa point', "x'; DROP TABLE restaurants; --"])(
    'answers 404 Restaurant not found for %s',
    async (key) => {
      const response = await get(`/api/restaurants/${encodeURIComponent(key)}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Restaurant not found' });
    },
  );

  it('answers a key too long for any slug with a sentence, not the framework’s echo of it', async () => {
    const response = await get(`/api/restaurants/${'a'.repeat(121)}`);
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ error: 'The address is too long' });
  });

  it('answers a broken percent-encoding with 400 and a sentence', async () => {
    const response = await get('/api/restaurants/%E0%A4%A');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The address is not valid' });
  });
});

describe('GET /api/restaurant/{id}/hero-image', () => {
  it('draws an SVG with the restaurant emoji', async () => {
    const response = await get(`/api/restaurant/${indira.id}/hero-image`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(response.body.trimEnd().endsWith('</svg>')).toBe(true);
    expect(response.body).toContain('>🍛</text>');
    expect(response.headers.etag).toBeDefined();
    expect((await get(`/api/restaurant/${indira.id}/hero-image`, { 'if-none-match': response.headers.etag as string })).statusCode).toBe(304);
  });

  it('is the same picture each time and differs between restaurants', async () => {
    const other = await buildRestaurant(t.database.db);
    const a = (await get(`/api/restaurant/${indira.id}/hero-image`)).body;
    expect((await get(`/api/restaurant/${indira.id}/hero-image`)).body).toBe(a);
    expect((await get(`/api/restaurant/${other.id}/hero-image`)).body).not.toBe(a);
  });

  it('escapes whatever is stored as the emoji, so it cannot add markup or break the XML', async () => {
    const hostile = await buildRestaurant(t.database.db, { emoji: `<script>alert("x")</script>&'\u0001\u001b` });
    const response = await get(`/api/restaurant/${hostile.id}/hero-image`);
    expect(response.statusCode).toBe(200);
    const svg = response.body;
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&apos;');
    // Characters XML 1.0 forbids would make the whole image unreadable.
    expect(svg).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const tags = svg.match(/<\/?[a-zA-Z][^>]*>/g) ?? [];
    expect(new Set(tags.map((tag) => tag.replace(/^<\/?([a-zA-Z]+).*$/s, '$1')))).toEqual(
      new Set(['svg', 'defs', 'linearGradient', 'stop', 'radialGradient', 'rect', 'circle', 'text']),
    );
  });

  it('finds the restaurant by slug too, and answers 404 for an unknown one', async () => {
    expect((await get('/api/restaurant/dosa-point/hero-image')).statusCode).toBe(200);
    const missing = await get('/api/restaurant/00000000-0000-4000-8000-000000000000/hero-image');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Restaurant not found' });
  });
});

describe('the OpenAPI document', () => {
  it('lists every diner endpoint at /docs/json', async () => {
    const response = await get('/docs/json');
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\./);
    const operations = new Set(
      Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)),
    );
    for (const operation of [
      'POST /api/auth/signup',
      'POST /api/auth/login',
      'GET /api/auth/me',
      'POST /api/auth/logout',
      'POST /api/auth/restaurant-login',
      'GET /api/restaurants',
      'GET /api/restaurants/{slug}',
      'GET /api/restaurants/{slug}/availability',
      'GET /api/restaurants/{slug}/calendar',
      'GET /api/restaurant/{id}/hero-image',
      'POST /api/reservations',
      'GET /api/reservations',
      'GET /api/reservations/status',
      'GET /api/reservations/{id}',
      'POST /api/reservations/{id}/confirm',
      'POST /api/reservations/{id}/cancel',
    ]) {
      expect(operations, operation).toContain(operation);
    }
    const create = document.paths['/api/reservations'].post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(create.requestBody.content['application/json'].schema.required.sort()).toEqual(['date', 'partySize', 'restaurantSlug', 'time']);
  });

  it('serves the interactive documentation at /docs', async () => {
    let response = await get('/docs');
    if (response.statusCode >= 300 && response.statusCode < 400) response = await get(response.headers.location as string);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toMatch(/swagger/i);
  });
});
