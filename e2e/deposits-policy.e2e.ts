import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner, expectAccessible, holdFirstFreeTable, openAs, signInStaff, toastTexts } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Deposit policies in Chromium: staff set a policy in the portal's Deposits tab
 * (errors beside the field, axe clean at 375 px); the restaurant page then says "Deposit ₹X a
 * guest" on its times, and the hold screen shows the amount and the policy in plain words.
 */
const STAFF = { username: 'sakura-lane', password: 'staff1234' };
const SLUG = 'sakura-lane';
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('deposits-policy', (environment) => ({ server, browser, api } = environment));

describe('deposit policy', () => {
  it('staff save a deposit in the Deposits tab; diners see it on the restaurant page and the hold screen', async () => {
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signInStaff(page, server.baseUrl, STAFF);
    await page.getByRole('tab', { name: 'Deposits' }).click();
    await page.getByRole('heading', { name: 'Deposit policy' }).waitFor();
    await page.getByRole('button', { name: 'Save deposit policy' }).waitFor();
    await expectAccessible(page, 'portal deposits tab (375 px)');

    await page.getByLabel('Kind').selectOption('deposit');
    const amount = page.getByLabel('Amount a guest (₹)');
    await amount.fill('five hundred');
    await page.getByRole('button', { name: 'Save deposit policy' }).click();
    await expect.poll(() => page.getByText('Enter rupees, e.g. 500 or 249.50').count()).toBe(1);
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'portal deposits tab with an error');

    await amount.fill('300');
    await page.getByRole('button', { name: 'Save deposit policy' }).click();
    await expect.poll(() => toastTexts(page)).toContain('Deposit policy saved');
    const staffLogin = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: STAFF });
    const saved = await api<{ defaultCharge: unknown }>('/api/admin/deposit-policy', { token: staffLogin.body.token });
    expect(saved.body.defaultCharge).toEqual({ kind: 'deposit', perCoverPaise: 30_000 });
    expect(errors).toEqual([]);
    await context.close();

    // The diner's side, on a laptop.
    const diner = await createDiner(api, { prefix: 'deposit', name: 'Kavya Rao' });
    const restaurantPage = await openAs(browser, diner.token, LAPTOP);
    await restaurantPage.goto(`${server.baseUrl}/r/${SLUG}`);
    await restaurantPage.getByRole('heading', { level: 1, name: 'Sakura Lane' }).waitFor();
    await restaurantPage.locator('.time-chip__deposit').first().waitFor();
    expect(await restaurantPage.locator('.time-chip__deposit').first().innerText()).toBe('Deposit ₹300 a guest');
    await expectAccessible(restaurantPage, 'restaurant page with deposits');

    const holdId = await holdFirstFreeTable(api, diner.token, SLUG, addDays(todayInKolkata(), 1));
    await restaurantPage.goto(`${server.baseUrl}/hold/${holdId}`);
    const deposit = restaurantPage.getByTestId('hold-deposit');
    await deposit.waitFor();
    const words = await deposit.innerText();
    expect(words).toContain('Deposit ₹600');
    expect(words).toContain('A deposit of ₹600 (₹300 a guest) is blocked on your card or UPI now.');
    expect(words).toMatch(/Cancel before \d{1,2}:\d{2} [AP]M on \w{3}, \d{1,2} \w{3} and it is released in full/);
    expect(await restaurantPage.getByText('No deposit required').count()).toBe(0);
    await expectAccessible(restaurantPage, 'hold screen with a deposit');

    // Back to no deposit: the hold screen keeps the spec's words.
    const reset = await api('/api/admin/deposit-policy', {
      method: 'PUT',
      token: staffLogin.body.token,
      body: { defaultCharge: { kind: 'none', perCoverPaise: 0 }, rules: [], freeCancelMinutes: 120, lateCancelKeepPercent: 100, noShowKeepPercent: 100 },
    });
    expect(reset.status).toBe(200);
    await restaurantPage.reload();
    await restaurantPage.getByText('No deposit required').waitFor();
    await restaurantPage.context().close();
  });
});
