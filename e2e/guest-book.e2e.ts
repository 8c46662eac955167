import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { toKolkata } from '#common/domain/time.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff } from '#server/test/factories.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, expectAccessible, openAs, saveScreenshot } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Knowing your guests in Chromium (decisions 260–265): a diner tells the restaurant an occasion,
 * an allergy and a request on the hold screen and sees it in /me; staff see it on the booking's
 * guest card and tonight's brief, tag the guest and write a note, and find them in the guest
 * list. Markup and a leading "=" stay text on every screen and in the CSV. Phone and laptop, axe
 * clean.
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('guest-book', (environment) => ({ server, browser, api } = environment));

const HOSTILE_REQUEST = '=HYPERLINK("http://evil") <img src=x onerror="window.__pwned=1"> peanut allergy';
const HOSTILE_NOTE = '=1+1 <b>likes</b> the window';

async function expectNothingRan(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img[src="x"], b:has-text("likes")').count()).toBe(0);
}

async function openStaff(token: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  await context.addInitScript((value) => localStorage.setItem('tablefair.restaurantToken', value), token);
  return context.newPage();
}

describe('the guest book', () => {
  it('a request told at booking reaches the guest card and the brief; staff tag, note and find the guest', async () => {
    const db = server.database.db;
    const restaurant = await buildRestaurant(db, { name: 'Guest Book Kitchen', emoji: '🍛' });
    const staff = await buildStaff(db, restaurant.id);
    const { date, time } = toKolkata(new Date(Math.ceil((Date.now() + 3 * 3_600_000) / 300_000) * 300_000));
    await buildSlot(db, restaurant.id, { date, time, capacity: 6 });
    const asha = await buildDiner(db, { name: 'Asha Rao', phone: '+919845012345' });
    const held = await api<{ id: string }>('/api/reservations', {
      method: 'POST',
      token: asha.token,
      body: { restaurantSlug: restaurant.slug, date, time, partySize: 3 },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);

    // The diner, on a phone: the hold screen takes an occasion, quick picks and a request.
    const diner = await openAs(browser, asha.token, PHONE);
    const dinerErrors = collectPageErrors(diner);
    await diner.goto(`${server.baseUrl}/hold/${held.body.id}`);
    await diner.getByRole('button', { name: 'Add a request' }).click();
    await diner.getByLabel('Occasion').selectOption('birthday');
    await diner.getByLabel('Allergies').check();
    await diner.getByLabel('Jain').check();
    await diner.getByLabel('Special request').fill(HOSTILE_REQUEST);
    await diner.getByRole('button', { name: 'Save request' }).click();
    const told = diner.getByTestId('booking-request');
    await expect.poll(() => told.textContent()).toContain(`Birthday · Allergies · Jain · “${HOSTILE_REQUEST}”`);
    await expectNothingRan(diner);
    await expectAccessible(diner, 'the hold screen with a request');
    await saveScreenshot(diner, 'guest-book-hold-375', { dismissToasts: true });
    await diner.getByRole('button', { name: 'Confirm', exact: true }).click();
    await diner.waitForURL(/\/me$/);
    await expect.poll(() => diner.getByTestId('booking-request').first().textContent()).toContain('peanut allergy');
    await expectAccessible(diner, '/me with a request');
    expect(dinerErrors).toEqual([]);

    // Staff, on a laptop: the booking's guest card shows the request; they tag and note the guest.
    const portal = await openStaff(staff.token, LAPTOP);
    const portalErrors = collectPageErrors(portal);
    await portal.goto(`${server.baseUrl}/admin/${restaurant.id}`);
    await portal.getByRole('button', { name: /^Guest card: Asha Rao/ }).click();
    const card = portal.getByTestId('guest-card');
    await expect.poll(() => card.getByTestId('guest-request').textContent()).toContain(HOSTILE_REQUEST);
    await card.getByLabel('VIP').check();
    await card.getByLabel('Allergy').check();
    await card.getByLabel('Staff note').fill(HOSTILE_NOTE);
    await card.getByRole('button', { name: 'Save tags and note' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('Saved.');
    await expectNothingRan(portal);
    await expectAccessible(portal, 'the guest card on a booking');
    await saveScreenshot(portal, 'guest-book-card-1280');

    // Tonight's brief: by time, with party, table, tags, the request and the allergy flagged.
    await portal.goto(`${server.baseUrl}/admin/${restaurant.id}/brief?date=${date}`);
    const arrival = portal.getByTestId('brief-arrival');
    await expect.poll(() => arrival.textContent()).toContain('⚠ Allergy');
    const row = (await arrival.textContent()) ?? '';
    for (const text of ['Asha Rao', '3', '—', 'VIP, Allergy', 'Birthday · Allergies · Jain', HOSTILE_REQUEST, `Note: ${HOSTILE_NOTE}`])
      expect(row).toContain(text);
    await expectNothingRan(portal);
    await expectAccessible(portal, "tonight's brief at 1280");
    await portal.setViewportSize(PHONE);
    await expectAccessible(portal, "tonight's brief at 375");
    await saveScreenshot(portal, 'guest-book-brief-375');

    // The guest list finds her by phone and by tag; the CSV keeps the text as text.
    await portal.setViewportSize(LAPTOP);
    await portal.goto(`${server.baseUrl}/admin/${restaurant.id}?tab=guests`);
    await portal.getByLabel('Search').fill('45012');
    await portal.getByLabel('Tag').selectOption('vip');
    await expect.poll(() => portal.getByTestId('guest-list-item').allTextContents()).toEqual([expect.stringContaining('Asha Rao')]);
    await portal.getByTestId('guest-list-item').getByRole('button').click();
    await expect.poll(() => portal.getByTestId('guest-card').getByLabel('Staff note').inputValue()).toBe(HOSTILE_NOTE);
    await expectAccessible(portal, 'the guest list');
    await saveScreenshot(portal, 'guest-book-list-1280');
    expect(portalErrors).toEqual([]);

    const csv = await fetch(`${server.baseUrl}/api/admin/guests.csv?tag=vip`, { headers: { authorization: `Bearer ${staff.token}` } });
    const [, line] = (await csv.text()).split('\r\n');
    expect(line).toContain(`"'${HOSTILE_NOTE}"`);
    expect(line).toContain(`"'+919845012345"`);
  });
});
