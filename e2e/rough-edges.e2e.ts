import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AdminSlot } from '#common/contract/portal.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors } from './support/browser.ts';
import { apiClient, openAs as openPageAs, saveScreenshot } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Issue 13's rough edges a diner hits, each in Chromium: a page wider than the phone, pages that
 * open scrolled down, Sign Out's landing, a cut-off time in the Reserve Now bar, toasts over the
 * buttons and stale toasts, and the small ones (a form's own bounds, titles, console noise).
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('rough-edges', (environment) => ({ server, browser, api } = environment));

const openAs = (token: string | null, viewport: { width: number; height: number }): Promise<Page> => openPageAs(browser, token, viewport);

/** Staff mark every slot of each date full, through the portal's API. */
async function markDatesFull(slug: string, dates: string[]): Promise<void> {
  const staff = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: slug, password: 'staff1234' } });
  expect(staff.status).toBe(200);
  for (const date of dates) {
    const slots = await api<AdminSlot[]>(`/api/admin/slots?date=${date}`, { token: staff.body.token });
    expect(slots.status).toBe(200);
    for (const slot of slots.body)
      expect((await api(`/api/admin/slots/${slot.id}`, { method: 'PATCH', token: staff.body.token, body: { status: 'full' } })).status).toBe(200);
  }
}

describe('rough edges a diner hits', () => {
  it('1. a restaurant with full dates never scrolls sideways on a phone', async () => {
    const slug = 'the-filter-room';
    const today = todayInKolkata();
    await markDatesFull(slug, [addDays(today, 2), addDays(today, 12), addDays(today, 27)]);
    for (const width of [375, 320]) {
      const page = await openAs(null, { width, height: 740 });
      const errors = collectPageErrors(page);
      await page.goto(`${server.baseUrl}/r/${slug}`);
      await page.locator('.date-chip--full').first().waitFor();
      expect(await page.locator('.date-chip--full').count()).toBeGreaterThanOrEqual(3);
      const { scrollWidth, innerWidth, bodyWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        bodyWidth: document.body.scrollWidth,
      }));
      expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(innerWidth);
      expect(bodyWidth, `body width at ${width} px`).toBeLessThanOrEqual(innerWidth);
      // The hidden words still reach a screen reader.
      expect(await page.locator(`.date-chip[data-date="${addDays(today, 2)}"]`).getAttribute('aria-pressed')).toBe('false');
      expect(await page.locator(`.date-chip[data-date="${addDays(today, 2)}"]`).textContent()).toContain('fully booked: join the waitlist');
      await saveScreenshot(page, `rough-full-dates-${width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
