import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AdminFloor } from '#common/contract/floor.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, expectAccessible, saveScreenshot, signInStaff } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * The floor (decision 240) in Chromium: a demo restaurant's staff open the Floor tab, see their
 * tables by section, add one and save; at 375 px the same tab reads and works. Diners are offered
 * what the tables seat: never a party of 20.
 */
const STAFF = { username: 'smoke-copper', password: 'staff1234', slug: 'smoke-copper' };

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('floor', (environment) => ({ server, browser, api } = environment));

describe('the floor', () => {
  it('staff edit their tables by section at 1280 and 375 px, and diners are offered only what the tables seat', async () => {
    const date = addDays(todayInKolkata(), 2);
    const availability = async (partySize: number) =>
      (await api<{ time: string; available: boolean }[]>(`/api/restaurants/${STAFF.slug}/availability?date=${date}&partySize=${partySize}`)).body;
    expect((await availability(20)).some((entry) => entry.available)).toBe(false);
    expect((await availability(2)).some((entry) => entry.available)).toBe(true);

    for (const viewport of [LAPTOP, PHONE]) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await signInStaff(page, server.baseUrl, STAFF);
      await page.getByRole('tab', { name: 'Floor' }).click();
      await page.getByRole('heading', { name: 'Bar' }).waitFor();
      await page.getByRole('heading', { name: 'Indoor' }).waitFor();
      await expectAccessible(page, `the Floor tab at ${viewport.width} px`);

      if (viewport === LAPTOP) {
        await page.getByRole('button', { name: 'Add a table' }).click();
        // The new table's name field has the focus, whichever section lists it.
        await page.locator('input:focus').fill('Window 1');
        await page.getByRole('button', { name: 'Save tables' }).click();
        await page.getByText('Your floor is saved.', { exact: false }).waitFor();
        const token = await page.evaluate(() => localStorage.getItem('tablefair.restaurantToken'));
        const floor = (await api<AdminFloor>('/api/admin/floor', { token: token! })).body;
        expect(floor.tables.some((table) => table.name === 'Window 1' && table.section === 'indoor' && table.maxCovers === 2)).toBe(true);
      } else {
        // On a phone the rows wrap; nothing runs off the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        expect(await page.getByLabel('Name').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toContain('Window 1');
      }
      await saveScreenshot(page, `floor-${viewport.width}`, { dismissToasts: true });
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
