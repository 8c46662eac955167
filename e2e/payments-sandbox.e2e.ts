import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner, expectAccessible, openAs, saveScreenshot } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * The sandbox gateway's approval page in Chromium: a diner approves a
 * deposit with the keyboard at 375 px, and the signed webhook authorises the intent; another
 * declines at 1280 px and may approve again. Both screens pass axe. The hold screen's
 * "Pay ₹X and confirm" that leads here is in deposits.e2e.ts.
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('payments', (environment) => ({ server, browser, api } = environment));

async function startIntent(): Promise<{ intentId: string; accountId: string }> {
  const diner = await createDiner(api, { prefix: 'pay', name: 'Asha Rao' });
  const me = await api<{ id: string }>('/api/auth/me', { token: diner.token });
  const [restaurant] = await queryRows<{ id: string }>(server.database.db, sql`SELECT id FROM restaurants WHERE slug = 'chai-point-reserve'`);
  const started = await server.app.services.payments.startAuthorisation({
    accountId: me.body.id,
    restaurantId: restaurant.id,
    reservationId: randomUUID(),
    amountPaise: 60_000,
    purpose: 'reservation_deposit',
    idempotencyKey: `e2e:${randomUUID()}`,
  });
  expect(started.approvalUrl).toBe(`/pay/sandbox/${started.intentId}`);
  return { intentId: started.intentId, accountId: me.body.id };
}

async function statusOf(intentId: string): Promise<string> {
  const [row] = await queryRows<{ status: string }>(server.database.db, sql`SELECT status FROM payment_intents WHERE id = ${intentId}`);
  return row.status;
}

describe('the sandbox approval page', () => {
  it('approves with the keyboard at 375 px, and the webhook authorises the payment', async () => {
    const { intentId } = await startIntent();
    const page = await openAs(browser, null, PHONE);
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/pay/sandbox/${intentId}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('₹600');
    expect(await page.getByText('Pay Chai Point Reserve').isVisible()).toBe(true);
    await expectAccessible(page, 'sandbox approval (375 px)');
    await saveScreenshot(page, 'pay-sandbox-375');
    // Keyboard only: the first control on the page is Approve.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approve ₹600');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('is blocked. You can go back to Tablefair.').isVisible()).toBe(true);
    await expect.poll(() => statusOf(intentId), { timeout: 10_000 }).toBe('AUTHORISED');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    expect(errors).toEqual([]);
  });

  it('declines at 1280 px, leaves nothing blocked, and lets the diner approve again', async () => {
    const { intentId } = await startIntent();
    const page = await openAs(browser, null, LAPTOP);
    await page.goto(`${server.baseUrl}/pay/sandbox/${intentId}`);
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => page.getByText('Nothing was blocked.').isVisible()).toBe(true);
    await expect.poll(() => statusOf(intentId), { timeout: 10_000 }).toBe('FAILED');
    await expectAccessible(page, 'sandbox approval, declined (1280 px)');
    await saveScreenshot(page, 'pay-sandbox-declined-1280');
    await page.getByRole('button', { name: 'Approve ₹600' }).click();
    await expect.poll(() => statusOf(intentId), { timeout: 10_000 }).toBe('AUTHORISED');
  });

  it('says so when the payment does not exist', async () => {
    const page = await openAs(browser, null, PHONE);
    await page.goto(`${server.baseUrl}/pay/sandbox/${randomUUID()}`);
    await expect.poll(() => page.getByText('Payment not found').isVisible()).toBe(true);
    await expectAccessible(page, 'sandbox approval, not found');
  });
});
