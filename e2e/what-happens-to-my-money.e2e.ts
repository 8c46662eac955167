import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner, expectAccessible, holdFirstFreeTable, openAs, saveScreenshot, toastTexts } from './support/fixtures.ts';
import { depositStaff } from './support/deposits.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * What a diner is told about their money, in Chromium at 375 and 1280 px (decision 220): the
 * restaurant page and Explore Tonight say which times ask a deposit, a paid hold says the booking
 * is made and links its receipt, the receipt has what a person can use, the cancel dialog says
 * what happens to the deposit before the cancel and /me shows it at once after, and the journey's
 * notes say what is true (no raw status, a declined payment's notice in view on a phone).
 */
const RESTAURANT = 'chai-point-reserve';

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('what-happens-to-my-money', (environment) => ({ server, browser, api } = environment));

/** ₹500 a guest, free to cancel until two hours before. */
const asStaff = depositStaff(() => api, RESTAURANT, 120);

/** Pay on the hold screen, answer on the sandbox page, and come back. */
async function payOnSandbox(page: Page, answer: 'Approve ₹1,000' | 'Decline'): Promise<void> {
  await page.getByRole('button', { name: 'Pay ₹1,000 and confirm' }).click();
  await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}\?returnTo=/);
  // The "table held" note stays behind: it does not follow the diner onto the payment page.
  expect(await toastTexts(page)).not.toContain('Table held for you');
  await page.getByRole('button', { name: answer }).click();
  await page.getByRole('link', { name: 'Back to Tablefair' }).click();
  await page.waitForURL(/\/hold\/[0-9a-f-]{36}\?payment=/);
}

describe('what happens to my money', () => {
  it('on a phone: a declined payment in view, the booking made, its receipt, and a cancel that says what is released', async () => {
    await asStaff();
    const diner = await createDiner(api, { prefix: 'money', name: 'Asha Rao' });
    const page = await openAs(browser, diner.token, PHONE);
    const errors = collectPageErrors(page);

    // The restaurant page never says "No deposit required" under times that ask one.
    await page.goto(`${server.baseUrl}/r/${RESTAURANT}`);
    await page.locator('.time-chip__deposit').first().waitFor();
    expect(await page.locator('.booking__policy').innerText()).not.toContain('No deposit required');
    await expectAccessible(page, 'restaurant page with deposit times (375 px)');

    const id = await holdFirstFreeTable(api, diner.token, RESTAURANT, addDays(todayInKolkata(), 1));
    await page.goto(`${server.baseUrl}/hold/${id}`);
    // The second button keeps its words on one line at 375 px.
    const cancelHold = page.getByRole('button', { name: 'Cancel Hold' });
    await cancelHold.waitFor();
    expect(await cancelHold.evaluate((element) => element.scrollWidth <= element.clientWidth && element.getClientRects().length === 1)).toBe(true);
    expect((await cancelHold.boundingBox())!.height).toBeLessThan(60);
    await payOnSandbox(page, 'Decline');
    // The decline's notice is on the first screen of a phone, not below the fold.
    const notice = page.getByText('Your payment was declined');
    await notice.waitFor();
    const box = (await notice.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);

    await payOnSandbox(page, 'Approve ₹1,000');
    await page.getByRole('heading', { name: 'Your booking is made' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).not.toContain('already confirmed');
    expect(await page.getByTestId('hold-paid').innerText()).toContain('₹1,000 blocked, not taken');
    await expectAccessible(page, 'booking made after paying (375 px)');
    await saveScreenshot(page, 'money-booking-made-375');

    // The receipt: what happened, the payment id, how and when it was paid (IST), the amount.
    await page.getByRole('link', { name: 'See your receipt' }).click();
    const receipt = page.getByTestId('deposit-receipt');
    await receipt.waitFor();
    const receiptText = await receipt.innerText();
    expect(receiptText).toContain('₹1,000 blocked on your account until your visit; nothing taken.');
    for (const fact of ['Payment id', 'Method', 'Paid', 'IST', 'Amount']) expect(receiptText).toContain(fact);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Before the cancel, the dialog says what happens to the money; after it, the toast and the receipt say so at once.
    await page.getByRole('button', { name: /^Cancel reservation at / }).click();
    const money = page.getByTestId('cancel-money');
    await money.waitFor();
    expect(await money.innerText()).toBe('Your ₹1,000 deposit will be released in full; nothing is kept.');
    await expectAccessible(page, 'cancel dialog with its deposit (375 px)');
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect.poll(() => toastTexts(page)).toContain('Reservation cancelled. Your ₹1,000 deposit is being released in full.');
    await expect.poll(() => receipt.innerText(), { timeout: 15_000 }).toMatch(/Being released|Released/);
    expect(await receipt.innerText()).not.toContain('Held');
    await expectAccessible(page, '/me after the cancel (375 px)');
    await saveScreenshot(page, 'money-me-after-cancel-375');

    // Home's "Your Reservations" lists what is ahead, not the cancelled booking.
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Your Reservations' }).waitFor();
    await expect.poll(() => page.locator('section[aria-labelledby="your-reservations-title"]').innerText()).not.toContain('Chai Point');
    expect(errors).toEqual([]);
  });

  it('on a laptop: Explore Tonight and the booking panel say the deposit, and the held note shows no raw status', async () => {
    await asStaff();
    const diner = await createDiner(api, { prefix: 'money', name: 'Dev Menon' });
    const page = await openAs(browser, diner.token, LAPTOP);
    const errors = collectPageErrors(page);

    await page.goto(`${server.baseUrl}/explore-tonight`);
    const card = page.locator(`[data-testid="explore-card"][data-slug="${RESTAURANT}"]`);
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator('.explore-time__deposit').first().innerText()).toBe('Deposit ₹500 a guest');
    await expectAccessible(page, 'Explore Tonight with deposits (1280 px)');
    await saveScreenshot(page, 'money-explore-1280');

    await card.locator('.explore-time').first().click();
    await page.waitForURL(/\/r\/chai-point-reserve/);
    await page.getByRole('button', { name: /Reserve Now/ }).click();
    await page.waitForURL(/\/hold\/[0-9a-f-]{36}$/);
    const toasts = await toastTexts(page);
    expect(toasts).toContain('Table held for you');
    expect(toasts).not.toContain('Status:');
    await page.getByTestId('hold-deposit').waitFor();
    await expectAccessible(page, 'hold screen with its deposit (1280 px)');
    await saveScreenshot(page, 'money-hold-1280');

    // The map page has the site's sections and the account menu.
    await page.goto(`${server.baseUrl}/map`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tonight' }).waitFor();
    // The name arrives with the diner's profile, a moment after the header first paints ("Account").
    await expect.poll(() => page.locator('.site-header').innerText()).toContain('Dev');
    await expectAccessible(page, 'map page with the site header (1280 px)');
    expect(errors).toEqual([]);
  });
});
