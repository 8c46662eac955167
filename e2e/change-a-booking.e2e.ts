import type { Browser } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner, expectAccessible, openAs, saveScreenshot, signInStaff } from './support/fixtures.ts';
import { depositStaff } from './support/deposits.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * A diner changes a booking on a deposit restaurant (decisions 280-284): 7:00 → 8:30 PM and 2 → 4
 * guests from /me at 375 px, reads the terms before confirming, pays exactly the difference on the
 * sandbox page, and /me (then 1280 px) shows the new booking; staff see the change on the booking.
 */
const RESTAURANT = 'chai-point-reserve';

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('change-a-booking', (environment) => ({ server, browser, api } = environment));

const asStaff = depositStaff(() => api, RESTAURANT, 120);

describe('changing a booking', () => {
  it('7:00 → 8:30 PM and 2 → 4 guests: the terms first, exactly the difference paid, the new booking on /me and in the portal', async () => {
    await asStaff();
    const date = addDays(todayInKolkata(), 1);
    const diner = await createDiner(api, { prefix: 'chg', name: 'Anika Rao' });
    const held = await api<{ id: string }>('/api/reservations', {
      method: 'POST',
      token: diner.token,
      body: { restaurantSlug: RESTAURANT, date, time: '19:00', partySize: 2 },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const id = held.body.id;
    const confirm = await api<{ payment: { intentId: string } }>(`/api/reservations/${id}/confirm`, { method: 'POST', token: diner.token, body: {} });
    expect((await api(`/api/payments/sandbox/${confirm.body.payment.intentId}/decision`, { method: 'POST', body: { decision: 'approve' } })).status).toBe(200);
    const status = async () => (await queryRows<{ status: string }>(server.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`))[0]!.status;
    await expect.poll(status, { timeout: 15_000 }).toBe('PENDING');

    // /me at 375 px: Change, pick 4 guests at 8:30 PM, and read what it costs before confirming.
    const page = await openAs(browser, diner.token, PHONE);
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/me`);
    await page.getByRole('button', { name: /^Change reservation at/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change booking' });
    await dialog.getByLabel('Guests').selectOption('4');
    await dialog.getByLabel('Time').selectOption('20:30');
    await dialog.getByText('Pay ₹1,000 more: your deposit becomes ₹2,000.', { exact: false }).waitFor();
    await expectAccessible(page, 'change booking terms (375 px)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, 'change-booking-terms-375');
    await dialog.getByRole('button', { name: 'Pay and change' }).click();

    // The sandbox page asks exactly the difference; approved, the booking moves.
    await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}\?returnTo=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('₹1,000');
    await page.getByRole('button', { name: 'Approve ₹1,000' }).click();
    await page.getByRole('link', { name: 'Back to Tablefair' }).click();
    await page.waitForURL(/\/me/);
    // The authorisation's webhook applies the change; then /me, read again, shows it.
    const partySize = async () =>
      (await queryRows<{ party_size: number }>(server.database.db, sql`SELECT party_size FROM reservations WHERE id = ${id}`))[0]!.party_size;
    await expect.poll(partySize, { timeout: 15_000 }).toBe(4);
    await page.reload();
    const card = page.locator(`[data-reservation-id="${id}"]`);
    await expect.poll(() => card.innerText(), { timeout: 15_000 }).toMatch(/8:30 PM · 4 guests/);
    await expectAccessible(page, '/me after the change (375 px)');
    await saveScreenshot(page, 'change-booking-me-375');
    expect(errors).toEqual([]);

    // At 1280 px /me shows the new booking, and the portal shows what changed.
    const wide = await openAs(browser, diner.token, LAPTOP);
    await wide.goto(`${server.baseUrl}/me`);
    await expect.poll(() => wide.locator(`[data-reservation-id="${id}"]`).innerText(), { timeout: 15_000 }).toMatch(/8:30 PM · 4 guests/);
    await expectAccessible(wide, '/me after the change (1280 px)');
    const portal = await openAs(browser, null, LAPTOP);
    await signInStaff(portal, server.baseUrl, { username: RESTAURANT, password: 'staff1234' });
    await portal.locator(`[data-booking-id="${id}"]`).getByText('Changed from 7:00 PM to 8:30 PM (party 2 → 4)').waitFor();
    await expectAccessible(portal, 'portal with a changed booking (1280 px)');
    await saveScreenshot(portal, 'change-booking-portal-1280');
  });
});
