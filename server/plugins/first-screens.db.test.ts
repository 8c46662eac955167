import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restaurantPageData } from '#common/contract/restaurants.ts';
import { PAGE_DATA_ELEMENT_ID } from '#common/domain/page-data.ts';
import { addDays } from '#common/domain/time.ts';
import { buildRestaurant, buildSlot } from '#server/test/factories.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';

/** A web build as Vite lays it out: the shell with its font preloads, and a manifest where the restaurant screen shares a chunk with the entry. */
function writeWebBuild(dir: string) {
  mkdirSync(join(dir, '.vite'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html>\n<html lang="en-IN">\n  <head>\n    <title>Tablefair · Bengaluru</title>\n    <script type="module" src="/assets/index-1.js"></script>\n${FONT_PRELOADS.map((href) => `    <link rel="preload" as="font" type="font/woff2" href="${href}" crossorigin="">\n`).join('')}  </head>\n  <body><div id="root"></div></body>\n</html>\n`,
  );
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/shell-9.js'), SHELL_SCRIPT);
  writeFileSync(join(dir, 'assets/shell-9.js.br'), brotliCompressSync(SHELL_SCRIPT, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(
    join(dir, '.vite/manifest.json'),
    JSON.stringify({
      'main.tsx': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared.js'] },
      '_shared.js': { file: 'assets/shared-2.js' },
      'routes/restaurant.tsx': { file: 'assets/restaurant-3.js', imports: ['_shared.js', '_booking.js'], css: ['assets/restaurant-4.css'] },
      '_booking.js': { file: 'assets/booking-5.js', css: ['assets/booking-6.css'] },
      'routes/home.tsx': { file: 'assets/home-7.js', imports: ['_shared.js'], css: ['assets/home-8.css'] },
    }),
  );
}

/** A script of the build, 40 KB of varied text: brotli's quick setting and its hardest give different bytes. */
const SHELL_SCRIPT = Array.from({ length: 2000 }, (_, i) => `export const name${i} = ${JSON.stringify((i * 7919).toString(36).repeat(1 + (i % 5)))};`).join(
  '\n',
);
const FONT_PRELOADS = ['/assets/fraunces-latin-wght-normal-ukD16Tqj.woff2', '/assets/inter-latin-wght-normal-Dx4-kXJ_.woff2'];
const fontPreloads = (html: string) => [...html.matchAll(/<link rel="preload" as="font"[^>]*href="([^"]+)"/g)].map((m) => m[1]);

/** The JSON block the page carries, parsed, or null when it has none. */
function pageData(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">([^<]*)</script>`).exec(html);
  return match ? JSON.parse(match[1]) : null;
}

const HOSTILE_NAME = `</script><script>alert(1)</script> "Tiffin" & $& co`;

let t: TestApp;
let webDir: string;
let restaurant: { id: string; slug: string };

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'tablefair-web-'));
  writeWebBuild(webDir);
  t = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
  restaurant = await buildRestaurant(t.database.db, { name: HOSTILE_NAME });
  const today = t.clock.now().toISOString().slice(0, 10);
  await buildSlot(t.database.db, restaurant.id, { date: addDays(today, 1), time: '19:00', capacity: 4 });
  await buildSlot(t.database.db, restaurant.id, { date: today, time: '20:00', capacity: 4 }); // within the home strip's 24 hours
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe('first screens in the HTML (decisions 078, 079)', () => {
  it('carries the same restaurant and calendar the API answers, by slug and by id', async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const api = async (path: string) => (await t.app.inject({ method: 'GET', url: `/api/restaurants/${restaurant.slug}${path}` })).json();
    const [apiRestaurant, apiCalendar] = [await api(''), await api('/calendar')];
    expect(apiCalendar.firstAvailableDate).toBe(today);
    for (const url of [`/r/${restaurant.slug}`, `/restaurant/${restaurant.id}`]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-cache');
      // The page opens on the first day with a free time, for two.
      const availability = { date: today, partySize: 2, entries: await api(`/availability?date=${today}&partySize=2`) };
      expect(pageData(page.body)).toEqual({ restaurant: apiRestaurant, calendar: apiCalendar, availability });
    }
    // A link's ?date=&party= chooses the day the page opens on, as on the phone.
    const tomorrow = addDays(today, 1);
    const linked = await t.app.inject({ method: 'GET', url: `/r/${restaurant.slug}?date=${tomorrow}&party=4` });
    expect((pageData(linked.body) as { availability: unknown }).availability).toEqual({
      date: tomorrow,
      partySize: 4,
      entries: await api(`/availability?date=${tomorrow}&partySize=4`),
    });
  });

  it('announces the hero image and only the scripts and styles the screen adds to the entry', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/r/${restaurant.slug}` });
    expect(page.body).toContain(`<link rel="preload" as="image" href="/api/restaurant/${restaurant.id}/hero-image" fetchpriority="high">`);
    const preloads = [...page.body.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloads).toEqual(['/assets/restaurant-3.js', '/assets/booking-5.js']);
    const styles = [...page.body.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
    expect(styles).toEqual(['/assets/restaurant-4.css', '/assets/booking-6.css']);
  });

  it("preloads only the restaurant name's face, so the cover photo and the scripts come first (decision 228); home keeps both", async () => {
    const page = await t.app.inject({ method: 'GET', url: `/r/${restaurant.slug}` });
    expect(fontPreloads(page.body)).toEqual(['/assets/fraunces-latin-wght-normal-ukD16Tqj.woff2']);
    expect(page.body).toContain('<script type="module" src="/assets/index-1.js"></script>\n    <link rel="preload" as="font"');
    expect(fontPreloads((await t.app.inject({ method: 'GET', url: '/' })).body)).toEqual(FONT_PRELOADS);
    // A page without a first screen of its own is the shell as built.
    expect(fontPreloads((await t.app.inject({ method: 'GET', url: '/login' })).body)).toEqual(FONT_PRELOADS);
  });

  it('keeps markup in the name as text: escaped in the title, unable to close the data block', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/r/${restaurant.slug}` });
    expect(page.body).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;Tiffin&quot; &amp; $&amp; co · Tablefair</title>');
    // One script element opens the data and the entry's is the only other: the name added none.
    expect(page.body.match(/<script/g)).toHaveLength(2);
    expect((pageData(page.body) as { restaurant: { name: string } }).restaurant.name).toBe(HOSTILE_NAME);
  });

  it("gives the home page the strip's first dozen as the API answers them, and the home screen's own chunk", async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/discover/available-today?limit=12' });
    expect(api.json().restaurants.map((entry: { restaurant: { slug: string } }) => entry.restaurant.slug)).toContain(restaurant.slug);
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(pageData(page.body)).toEqual({ availableToday: api.json() });
    expect(page.body).toContain('<title>Tablefair · Bengaluru</title>');
    expect([...page.body.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1])).toEqual(['/assets/home-7.js']);
    expect(page.body).not.toContain('rel="preload" as="image"');
  });

  it("is the contract's shape, and follows a write by the next page: a new name, a day that filled up", async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const open = async () => pageData((await t.app.inject({ method: 'GET', url: `/r/${restaurant.slug}` })).body) as Record<string, unknown>;
    const before = await open();
    expect(restaurantPageData.parse(before)).toEqual(before);
    expect((before.availability as { date: string }).date).toBe(today);

    // Kept texts (decision 186) must not outlive a write: the restaurants row and its slots both notify.
    await t.database.db.execute(sql`UPDATE restaurants SET name = 'Tiffin Two' WHERE id = ${restaurant.id}`);
    await t.database.db.execute(sql`UPDATE slots SET status = 'full' WHERE restaurant_id = ${restaurant.id} AND slot_date = ${today}`);
    try {
      const after = await open();
      const api = async (path: string) => (await t.app.inject({ method: 'GET', url: `/api/restaurants/${restaurant.slug}${path}` })).json();
      const tomorrow = addDays(today, 1);
      expect(after).toEqual({
        restaurant: await api(''),
        calendar: await api('/calendar'),
        availability: { date: tomorrow, partySize: 2, entries: await api(`/availability?date=${tomorrow}&partySize=2`) },
      });
      expect((after.restaurant as { name: string }).name).toBe('Tiffin Two');
    } finally {
      await t.database.db.execute(sql`UPDATE restaurants SET name = ${HOSTILE_NAME} WHERE id = ${restaurant.id}`);
      await t.database.db.execute(sql`UPDATE slots SET status = 'available' WHERE restaurant_id = ${restaurant.id} AND slot_date = ${today}`);
    }
  });

  it('sends the page compressed for a browser, the same text as uncompressed, and a write reaches the compressed page too', async () => {
    const url = `/r/${restaurant.slug}`;
    const ask = (encoding?: string) => t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    const plain = await ask();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const brotli = await ask('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const gzip = await ask('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);

    await t.database.db.execute(sql`UPDATE restaurants SET name = 'Tiffin Three' WHERE id = ${restaurant.id}`);
    try {
      const renamed = brotliDecompressSync((await ask('br')).rawPayload).toString('utf8');
      expect(renamed).toContain('<title>Tiffin Three · Tablefair</title>');
      expect(renamed).toBe((await ask()).body);
    } finally {
      await t.database.db.execute(sql`UPDATE restaurants SET name = ${HOSTILE_NAME} WHERE id = ${restaurant.id}`);
    }
  });

  it('sends a script as the build compressed it (decision 228), and as it is to a client that takes no brotli', async () => {
    const brotli = await t.app.inject({ method: 'GET', url: '/assets/shell-9.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.rawPayload.equals(readFileSync(join(webDir, 'assets/shell-9.js.br')))).toBe(true);
    expect(brotli.rawPayload.equals(brotliCompressSync(SHELL_SCRIPT, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }))).toBe(false);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SHELL_SCRIPT);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/shell-9.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SHELL_SCRIPT);
  });

  it('serves the plain page for an unknown restaurant or a malformed key, and keeps other routes plain', async () => {
    for (const url of ['/r/no-such-place', `/r/${'x'.repeat(200)}`, `/r/${restaurant.slug}/photos`, '/explore-tonight']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Tablefair · Bengaluru</title>');
      expect(pageData(page.body)).toBeNull();
      expect(page.body).not.toContain('modulepreload');
    }
  });

  it('keeps one page per screen, whatever parameters the address adds (decision 200): 200 junk addresses keep no new page', async () => {
    const keptPages = async () =>
      (await t.app.deps.metrics!.registry.getSingleMetric('tablefair_kept_answers')!.get()).values.find((value) => value.labels.store === 'pages')?.value;
    const first = await t.app.inject({ method: 'GET', url: `/r/${restaurant.slug}` });
    const before = await keptPages();
    expect(before).toBeGreaterThan(0);
    for (let n = 0; n < 200; n++) {
      // Unknown parameters, a party the day does not offer, another spelling of the key: the same screen.
      const url = n % 2 ? `/r/${restaurant.slug}?junk=${n}` : `/restaurant/${restaurant.id}?party=${1000 + n}&utm_source=${n}`;
      expect((await t.app.inject({ method: 'GET', url })).body, url).toBe(first.body);
    }
    expect(await keptPages()).toBe(before);
  });
});
