import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { makePng } from '#server/test/test-images.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, createDiner as createDinerByApi, seriousAxeViolations, signInStaff as signInStaffAt } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * The restaurant manager's journey in Chromium: sign in, add an afternoon of slots, watch a
 * diner's booking arrive without a reload, move it to the end while the diner's /me follows,
 * edit the public profile and the hero photo.
 */
const STAFF = { username: 'toit-tandoor', password: 'staff1234', slug: 'toit-tandoor' };

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('portal', (environment) => ({ server, browser, api } = environment));

async function createDiner(name: string): Promise<string> {
  return (await createDinerByApi(api, { prefix: 'e2e', name, phone: '+919812345678' })).token;
}

const signInStaff = (page: Page) => signInStaffAt(page, server.baseUrl, STAFF);

/** The diner's /me, signed in with their token in localStorage, in its own browser context. */
async function openDinerProfile(token: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE });
  await context.addInitScript((value) => localStorage.setItem('tablefair.customerToken', value), token);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/me`);
  return { context, page };
}

async function expectDinerSees(page: Page, label: string) {
  await page.reload();
  await page.getByText(label, { exact: true }).first().waitFor({ timeout: 10_000 });
}

function bookingRow(page: Page, id: string): Locator {
  return page.locator(`[data-testid="booking-row"][data-booking-id="${id}"]`);
}

// Every row carries a Guest card toggle (the guest card is on every booking); the status actions are the rest.
async function rowButtons(row: Locator): Promise<string[]> {
  return (await row.getByRole('button').allInnerTexts()).map((text) => text.trim());
}

describe('restaurant portal', () => {
  it('sign-in → bulk slots → a diner books → live on the dashboard → Confirm, Seat, Complete, with the diner following on /me', async () => {
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const restaurantId = await signInStaff(page);
    expect(await page.evaluate(() => localStorage.getItem('tablefair.restaurantToken'))).toBeTruthy();

    // An afternoon of slots, three days ahead (the evening is seeded already).
    const date = addDays(todayInKolkata(), 3);
    await page.getByLabel('Date', { exact: true }).fill(date);
    await page.getByLabel('Start').fill('15:00');
    await page.getByLabel('End').fill('16:00');
    await page.getByLabel('Interval (min)').fill('30');
    await page.getByLabel('Capacity (covers)').fill('6');
    await page.getByRole('button', { name: 'Add slots' }).click();
    await page.getByText('Added 3 slots.').waitFor();
    for (const time of ['3:00 PM', '3:30 PM', '4:00 PM']) {
      await expect.poll(() => page.locator(`[data-testid="slot-row"]:has-text("${time}")`).count()).toBe(1);
    }
    // Adding them again skips every time.
    await page.getByRole('button', { name: 'Add slots' }).click();
    await page.getByText('Added 0 slots; 3 already existed.').waitFor();

    // A diner holds one of them; the dashboard shows it within 2 seconds, without a reload.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const dinerToken = await createDiner('Kavya Reddy');
    const held = await api<{ id: string; status: string }>('/api/reservations', {
      method: 'POST',
      token: dinerToken,
      body: { restaurantSlug: STAFF.slug, date, time: '15:30', partySize: 2 },
    });
    expect(held.status).toBe(201);
    const id = held.body.id;
    const row = bookingRow(page, id);
    await row.waitFor({ timeout: 2_000 });
    await expect.poll(() => row.getAttribute('data-status')).toBe('HELD');
    await expect.poll(() => row.innerText()).toContain('Kavya Reddy');
    expect(await rowButtons(row)).toEqual(['Guest card']);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // The diner confirms the hold: PENDING, with Confirm and Cancel only.
    expect((await api(`/api/reservations/${id}/confirm`, { method: 'POST', body: {}, token: dinerToken })).status).toBe(200);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 2_000 }).toBe('PENDING');
    await expect.poll(() => rowButtons(row)).toEqual(['Confirm', 'Cancel', 'Guest card']);

    const diner = await openDinerProfile(dinerToken);
    await expectDinerSees(diner.page, 'Pending');

    const steps: [string, string, string][] = [
      ['Confirm', 'CONFIRMED', 'Accepted'],
      ['Seat', 'SEATED', 'Seated'],
      ['Complete', 'COMPLETED', 'Completed'],
    ];
    for (const [button, status, dinerLabel] of steps) {
      await row.getByRole('button', { name: new RegExp(`^${button}`) }).click();
      await expect.poll(() => row.getAttribute('data-status')).toBe(status);
      const summary = await api<{ pending: number; ongoing: number; completed: number }>('/api/reservations/status', { token: dinerToken });
      expect(summary.body).toEqual(status === 'COMPLETED' ? { pending: 0, ongoing: 0, completed: 1 } : { pending: 0, ongoing: 1, completed: 0 });
      await expectDinerSees(diner.page, dinerLabel);
    }
    expect(await rowButtons(row)).toEqual(['Guest card']);
    await diner.context.close();

    expect(restaurantId).toMatch(/^[0-9a-f-]{36}$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a staff cancel frees the covers, and the live counts follow', async () => {
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    await signInStaff(page);
    const date = addDays(todayInKolkata(), 4);
    await page.getByLabel('Date', { exact: true }).fill(date);
    await page.getByLabel('Start').fill('12:00');
    await page.getByLabel('End').fill('12:30');
    await page.getByLabel('Interval (min)').fill('60');
    await page.getByLabel('Capacity (covers)').fill('2');
    await page.getByRole('button', { name: 'Add slots' }).click();
    await page.getByText('Added 1 slot.').waitFor();

    const first = await createDiner('Arjun Das');
    const held = await api<{ id: string }>('/api/reservations', {
      method: 'POST',
      token: first,
      body: { restaurantSlug: STAFF.slug, date, time: '12:00', partySize: 2 },
    });
    await api(`/api/reservations/${held.body.id}/confirm`, { method: 'POST', body: {}, token: first });
    const second = await createDiner('Neha Kulkarni');
    expect(
      (await api('/api/reservations', { method: 'POST', token: second, body: { restaurantSlug: STAFF.slug, date, time: '12:00', partySize: 2 } })).status,
    ).toBe(409);

    const row = bookingRow(page, held.body.id);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 5_000 }).toBe('PENDING');
    await row.getByRole('button', { name: /^Cancel/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel booking' }).click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('CANCELLED');
    expect(
      (await api('/api/reservations', { method: 'POST', token: second, body: { restaurantSlug: STAFF.slug, date, time: '12:00', partySize: 2 } })).status,
    ).toBe(201);
    await context.close();
  });

  it('profile edits and the hero photo show on the public page at once', async () => {
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const restaurantId = await signInStaff(page);

    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Restaurant Profile' }).waitFor();
    await page.getByLabel('Name').fill('Toit & Tandoor Rooftop');
    await page.getByLabel('Website').fill('https://toit-rooftop.example.in');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    // Back to the Dashboard after 1 second.
    await expect.poll(() => page.getByRole('tab', { name: 'Dashboard' }).getAttribute('aria-selected'), { timeout: 3_000 }).toBe('true');
    await page.getByRole('heading', { name: /Toit & Tandoor Rooftop/ }).waitFor();

    const publicPage = await context.newPage();
    await publicPage.goto(`${server.baseUrl}/r/${STAFF.slug}`);
    await publicPage
      .getByRole('heading', { name: /Toit & Tandoor Rooftop/ })
      .first()
      .waitFor({ timeout: 10_000 });

    // A real photo through the image picker.
    await page.getByRole('tab', { name: 'Profile' }).click();
    const picker = page.getByRole('button', { name: 'Upload a new photo' });
    expect(await picker.getAttribute('accept')).toBe('image/*');
    const png = makePng(240, 126);
    await picker.setInputFiles({ name: 'rooftop.png', mimeType: 'image/png', buffer: png });
    await page.getByText('Photo uploaded. It is already live on your public page.').waitFor();
    const heroField = await page.getByLabel('Hero image URL').inputValue();
    expect(heroField).toMatch(new RegExp(`/api/restaurant/${restaurantId}/hero-image\\?v=[0-9a-f]{8}$`));
    const served = await fetch(heroField);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), png)).toBe(0);
    const publicRestaurant = await api<{ heroImageUrl: string }>(`/api/restaurants/${STAFF.slug}`);
    expect(heroField.endsWith(publicRestaurant.body.heroImageUrl)).toBe(true);
    await publicPage.reload();
    await expect.poll(() => publicPage.locator(`img[src*="/api/restaurant/${restaurantId}/hero-image?v="]`).count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // Text renamed .jpg is refused with the spec's alert and the server's reason.
    await picker.setInputFiles({ name: 'menu.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo at all') });
    await page.getByText('Failed to upload photo: Only JPEG, PNG or WebP images are accepted').waitFor();

    // Saving keeps the uploaded photo.
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/admin/restaurant') && response.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save profile' }).click();
    expect((await saved).status()).toBe(200);
    expect((await api<{ heroImageUrl: string }>(`/api/restaurants/${STAFF.slug}`)).body.heroImageUrl).toBe(publicRestaurant.body.heroImageUrl);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends visitors without a working token to sign-in, and Logout revokes the token', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/00000000-0000-4000-8000-000000000000`);
    await page.waitForURL(/\/restaurant-login$/);

    await page.evaluate(() => localStorage.setItem('tablefair.restaurantToken', 'expired-or-forged'));
    await page.goto(`${server.baseUrl}/admin/00000000-0000-4000-8000-000000000000`);
    await page.waitForURL(/\/restaurant-login$/);
    expect(await page.evaluate(() => localStorage.getItem('tablefair.restaurantToken'))).toBeNull();

    // A wrong password: the server's sentence as the alert.
    await page.getByLabel('Username').fill(STAFF.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('toast').getByText('Invalid username or password').waitFor();

    const restaurantId = await signInStaff(page);
    const token = await page.evaluate(() => localStorage.getItem('tablefair.restaurantToken'));
    // The address follows the token's restaurant.
    await page.goto(`${server.baseUrl}/admin/00000000-0000-4000-8000-000000000000`);
    await page.waitForURL(new RegExp(`/admin/${restaurantId}$`));
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/restaurant-login$/);
    expect(await page.evaluate(() => localStorage.getItem('tablefair.restaurantToken'))).toBeNull();
    await expect.poll(async () => (await api('/api/admin/restaurant', { token: token! })).status).toBe(401);
    await context.close();
  });

  it('hosts Tablefair dates from the Profile tab: what is missing is said, the profile is saved, and hosting can stop', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signInStaff(page);
    await page.getByRole('tab', { name: 'Profile' }).click();
    const status = page.getByTestId('date-partner-status');
    await expect.poll(() => status.innerText()).toBe('Not hosting Tablefair dates.');

    await page.getByRole('button', { name: 'Host Tablefair dates' }).click();
    await page.getByText('Pick at least one cuisine').waitFor();
    await page.getByText('Pick at least one kind of date').waitFor();
    await page.getByLabel('A date for two here costs').selectOption('INR_2500_5000');
    await page.getByLabel('Neighbourhood').selectOption('Koramangala');
    await page.getByRole('checkbox', { name: /North Indian/ }).check();
    await page.getByRole('checkbox', { name: /Dinner/ }).check();
    await page.getByRole('button', { name: 'Host Tablefair dates' }).click();
    await expect.poll(() => status.innerText()).toMatch(/^Hosting Tablefair dates since /);
    const staff = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: STAFF.username, password: STAFF.password } });
    const saved = await api<{ partner: unknown }>('/api/admin/date-partner', { token: staff.body.token });
    expect(saved.body.partner).toMatchObject({ budget: 'INR_2500_5000', neighbourhood: 'Koramangala', cuisines: ['NORTH_INDIAN'], dateTypes: ['DINNER'] });

    await page.getByRole('button', { name: 'Stop hosting dates' }).click();
    await expect.poll(() => status.innerText()).toBe('Not hosting Tablefair dates.');
    expect((await api<{ partner: unknown }>('/api/admin/date-partner', { token: staff.body.token })).body.partner).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no serious or critical accessibility violations on sign-in, dashboard and profile, at 1280 and 375', async () => {
    for (const viewport of [LAPTOP, PHONE]) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/restaurant-login`);
      await page.getByRole('heading', { name: 'Restaurant sign-in' }).waitFor();
      expect(await seriousAxeViolations(page), `sign-in ${viewport.width}`).toEqual([]);
      await signInStaff(page);
      await page.locator('[data-testid="slot-row"], .bookings__empty').first().waitFor();
      expect(await seriousAxeViolations(page), `dashboard ${viewport.width}`).toEqual([]);
      // The seven tabs: every label whole, and each tab clear of the one before it (on a phone the
      // row scrolls sideways inside its pill rather than squeezing the labels together).
      const tabs = await page
        .getByRole('tablist', { name: 'Admin sections' })
        .getByRole('tab')
        .evaluateAll((elements) => elements.map((tab) => ({ ...tab.getBoundingClientRect().toJSON(), clipped: tab.scrollWidth > tab.clientWidth })));
      expect(tabs, `tabs ${viewport.width}`).toHaveLength(7);
      for (const [index, tab] of tabs.entries()) {
        expect(tab.clipped, `tab ${index} label whole at ${viewport.width}`).toBe(false);
        if (index > 0) expect(tab.left, `tab ${index} apart at ${viewport.width}`).toBeGreaterThanOrEqual(tabs[index - 1]!.right - 0.5);
      }
      await page.getByRole('tab', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'Restaurant Profile' }).waitFor();
      await page.getByTestId('date-partner-status').waitFor();
      expect(await seriousAxeViolations(page), `profile ${viewport.width}`).toEqual([]);
      // Nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await context.close();
    }
  });

  it("moderation shares the portal's frame: the demo moderator signs in, switches tabs by keyboard and logs out, with no violations at 1280 and 375", async () => {
    for (const viewport of [LAPTOP, PHONE]) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await page.goto(`${server.baseUrl}/moderation/login`);
      await page.getByRole('heading', { name: 'Moderator sign-in' }).waitFor();
      expect(await seriousAxeViolations(page), `moderator sign-in ${viewport.width}`).toEqual([]);
      await page.getByRole('button', { name: 'Fill in the demo account' }).click();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Moderation' }).waitFor();
      const openReports = page.getByRole('tab', { name: 'Open reports' });
      await openReports.waitFor();
      expect(await seriousAxeViolations(page), `moderation ${viewport.width}`).toEqual([]);
      // The two-word tab keeps to one line (one line box for its text).
      const lines = await openReports.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
      expect(lines).toBe(1);
      await openReports.focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'Reviewed' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('heading', { name: 'Moderator sign-in' }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
