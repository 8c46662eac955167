import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, formatDateShort, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, expectAccessible, saveScreenshot, signInStaff } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * A drop takes the restaurant's prime time (decision 226): staff tick "Take times we already
 * offer", are refused with the booked time named, leave it out, and the free time moves into
 * the drop, gone from normal booking. At 375 and 1280 px, axe clean.
 */
const STAFF = { username: 'sakura-lane', password: 'staff1234' };
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('drop-takes-existing-times', (environment) => ({ server, browser, api } = environment));

/** A diner holds a table for two at `time` on `date`: the time is booked. */
async function bookedBy(date: string, time: string): Promise<void> {
  const username = `prime_${Date.now() % 1_000_000}_${time.replace(':', '')}`;
  expect((await api('/api/auth/signup', { method: 'POST', body: { username, password: 'password123', name: 'Meera Iyer' } })).status).toBe(201);
  const login = await api<{ token: string }>('/api/auth/login', { method: 'POST', body: { username, password: 'password123' } });
  const held = await api('/api/reservations', { method: 'POST', token: login.body.token, body: { restaurantSlug: STAFF.username, date, time, partySize: 2 } });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
}

/** Whether anyone may book `time` on `date` at the restaurant now. */
async function isBookable(date: string, time: string): Promise<boolean> {
  const answer = await api<{ time: string; available: boolean }[]>(`/api/restaurants/${STAFF.username}/availability?date=${date}&partySize=2`);
  expect(answer.status).toBe(200);
  return answer.body.some((slot) => slot.time === time && slot.available);
}

async function addTime(page: Page, time: string) {
  await page.getByLabel('Add a time').fill(time);
  await page.getByRole('button', { name: 'Add time' }).click();
}

describe('a drop takes existing prime-time times', () => {
  for (const [viewport, days] of [
    [PHONE, 8],
    [LAPTOP, 9],
  ] as const) {
    it(`at ${viewport.width} px: refused naming the booked time, then takes the free one out of normal booking`, async () => {
      const date = addDays(todayInKolkata(), days);
      await bookedBy(date, '19:00');
      expect(await isBookable(date, '20:00')).toBe(true);

      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await signInStaff(page, server.baseUrl, STAFF);
      await page.getByRole('tab', { name: 'Drops' }).click();
      await page
        .getByRole('link', { name: /New drop|Create your first drop/ })
        .first()
        .click();
      await page.getByRole('heading', { name: 'New drop' }).waitFor();

      await page.getByLabel('Title').fill('Friday prime time');
      await page.getByLabel('First date').fill(date);
      await page.getByLabel('Last date').fill(date);
      await page.getByLabel('Take times we already offer').check();
      await addTime(page, '19:00');
      await addTime(page, '20:00');
      await page.getByText(`Takes 7:00 PM and 8:00 PM on ${formatDateShort(date)} out of normal booking. A time with a booking is refused.`).waitFor();
      await page.getByText('Puts 2 slots in the drop: 1 date × 2 times, 4 covers each.').waitFor();
      expect(await page.locator('.field__error').count()).toBe(0);
      await expectAccessible(page, `drop taking times ${viewport.width}`);
      await saveScreenshot(page, `drop-take-times-${viewport.width}`);

      await page.getByRole('button', { name: 'Create drop' }).click();
      const refusal = page.getByRole('alert').filter({ hasText: 'The drop was not created' });
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain(
        `These times have bookings, so they cannot go into a drop: ${formatDateShort(date)} at 7:00 PM (1 booking, 2 guests). Leave them out, or move or cancel those bookings first.`,
      );
      await expectAccessible(page, `drop refused ${viewport.width}`);
      await saveScreenshot(page, `drop-take-times-refused-${viewport.width}`);
      expect(await isBookable(date, '20:00')).toBe(true);

      await page.getByRole('button', { name: 'Remove 7:00 PM' }).click();
      await page.getByRole('button', { name: 'Create drop' }).click();
      await page.getByTestId('drop-detail').waitFor();
      await page.getByRole('heading', { name: 'Friday prime time', level: 2 }).waitFor();
      expect(await page.getByTestId('drop-slot').count()).toBe(1);
      await expectAccessible(page, `drop created from existing time ${viewport.width}`);
      // 8:00 PM left normal booking for the drop; the booked 7:00 PM stays as it was.
      expect(await isBookable(date, '20:00')).toBe(false);
      expect(await isBookable(date, '19:00')).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
