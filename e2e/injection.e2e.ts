import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { buildSlot } from '#server/test/factories.ts';
import { collectPageErrors, connectBrowser, PHONE, withJourneyDefaults } from './support/browser.ts';
import { startE2eServer, type E2eServer } from './support/server.ts';

/**
 * Text people type is shown as text. A restaurant whose name and description carry
 * markup must render that markup literally on every public page, and none of it may run.
 * (The CSP would also block inline script; the checks below look for the injected
 * elements themselves, so an escaping bug fails even with the CSP in place.)
 */
const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>Evil Eats`;

let server: E2eServer;
let browser: Browser;
let slug: string;

beforeAll(async () => {
  server = await startE2eServer();
  browser = withJourneyDefaults(await connectBrowser(), { serviceWorker: true });
  const [row] = await queryRows<{ id: string; slug: string }>(
    server.database.db,
    sql`INSERT INTO restaurants (slug, name, emoji, neighborhood, category, cuisine_tags, description, lat, lng, hot)
        VALUES ('evil-eats', ${HOSTILE_NAME}, '🍛', ${'<b>Bold</b> Nagar'}, 'indian', ${'{"<i>tag</i>"}'}::text[], ${'<iframe src="//evil"></iframe>'}, 12.97, 77.6, true)
        RETURNING id, slug`,
  );
  slug = row.slug;
  const today = todayInKolkata();
  for (const day of [today, addDays(today, 1)]) {
    for (const time of ['19:00', '21:00', '22:30', '23:30']) await buildSlot(server.database.db, row.id, { date: day, time, capacity: 10 });
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('markup typed into restaurant fields', () => {
  for (const path of ['/r/evil-eats', '/', '/explore-tonight', '/map']) {
    it(`is shown as text and never runs on ${path}`, async () => {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await page.route(/basemaps|tile/, (route) => route.abort());
      const apiCalls: string[] = [];
      page.on('request', (request) => apiCalls.push(new URL(request.url()).pathname));
      await page.goto(`${server.baseUrl}${path.replace('evil-eats', slug)}`);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.locator('iframe[src="//evil"]').count()).toBe(0);
      expect(await page.locator('script:has-text("__pwned")').count()).toBe(0);
      if (path === '/r/evil-eats') {
        await expect.poll(() => page.getByText('Evil Eats', { exact: false }).first().textContent()).toContain('<script>');
        // The name reached the screen through the page's own data block (decision 078), not the API.
        expect(apiCalls).not.toContain(`/api/restaurants/${slug}`);
        expect(apiCalls).not.toContain(`/api/restaurants/${slug}/calendar`);
        expect(apiCalls).not.toContain(`/api/restaurants/${slug}/availability`);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
