import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDateShort, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, connectBrowser, PHONE } from './support/browser.ts';
import { apiClient, expectAccessible, toastTexts } from './support/fixtures.ts';
import { startE2eServer, type E2eServer } from './support/server.ts';

/**
 * The diner's journey in Chromium on a phone: sign up, log in, pick a table on a
 * restaurant page, confirm the hold against its countdown, follow it on /me and on the
 * home panel, and cancel it there; and a hold that runs out.
 */
const RESTAURANT = { slug: 'toit-tandoor', name: 'Toit & Tandoor' };
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

let browser: Browser;

// The browser as it is, the app's service worker included: the diner's main journey runs as on
// their phone (the other journeys block the worker; decision 290).
beforeAll(async () => {
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
});

function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

async function countdownSeconds(page: Page): Promise<number> {
  const text = await page.getByTestId('hold-countdown').innerText();
  const [minutes, seconds] = text.trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

/** On the restaurant page: a date two days ahead, the given party size and time. */
async function pickTable(page: Page, date: string, party: number, time: string) {
  await page.locator(`button[data-date="${date}"]`).click();
  expect(await page.locator(`button[data-date="${date}"]`).getAttribute('aria-pressed')).toBe('true');
  await page.getByRole('button', { name: `${party} guests` }).click();
  expect(await page.getByRole('button', { name: `${party} guests` }).getAttribute('aria-pressed')).toBe('true');
  const slot = page.getByRole('button', { name: time, exact: true });
  await slot.click();
  expect(await slot.getAttribute('aria-pressed')).toBe('true');
}

describe('diner journey', () => {
  let server: E2eServer;

  beforeAll(async () => {
    server = await startE2eServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('signs up, logs in, holds a table, confirms it against the countdown, and cancels it from the home panel', async () => {
    const api = apiClient(server.baseUrl);
    // bypassCSP only lets the test inject axe-core; the app itself runs under its real policy.
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const base = server.baseUrl;

    // Home, signed out: the hero, a Log in link, and the Today Near You strip (at most 2 times each).
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Find a table today' }).first().getAttribute('href')).toBe('/explore-tonight');
    expect(await page.getByRole('link', { name: 'Log in' }).first().getAttribute('href')).toBe('/login');
    expect(await page.locator('a[href="/dating"]').count()).toBeGreaterThan(0);
    expect(await page.locator('a[href="/map"]').count()).toBeGreaterThan(0);
    expect(await page.locator('footer a[href="/restaurant-login"]').count()).toBe(1);
    await page.getByTestId('today-card').first().waitFor();
    const timesPerCard = await page.getByTestId('today-card').evaluateAll((cards) => cards.map((card) => card.querySelectorAll('.today-card__time').length));
    expect(timesPerCard.length).toBeGreaterThan(0);
    expect(Math.max(...timesPerCard)).toBeLessThanOrEqual(2);
    // Each time opens the restaurant page with that date and time chosen, for two.
    expect(await page.locator('.today-card__time').first().getAttribute('href')).toMatch(
      /^\/r\/[a-z0-9-]+\?date=\d{4}-\d{2}-\d{2}&time=\d{2}%3A\d{2}&party=2$/,
    );
    expect(await page.getByRole('heading', { name: 'Your Reservations' }).count()).toBe(0);
    await expectAccessible(page, 'home signed out');

    // Signup: the shared schema's messages, then the success view.
    const username = uniqueName('asha');
    await page.goto(`${base}/signup`);
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    await page.getByText('Join the product to make reservations').waitFor();
    await expectAccessible(page, 'signup');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('tablefair-2026');
    await page.getByLabel('Full Name').fill('Asha Rao');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Enter a valid email address').waitFor();
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Preferred Neighborhood').selectOption('Indiranagar');
    // The server's refusal shows in the banner; editing a field clears it.
    await page.getByLabel('Username').fill('demo');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('alert').getByText('Username already taken').waitFor();
    await page.getByLabel('Username').fill(username);
    expect(await page.getByText('Username already taken').count()).toBe(0);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Account Created!' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
    await page.getByRole('link', { name: 'Click Here to Log In' }).click();
    await page.waitForURL(`${base}/login`);

    // Login: the server's refusal first, then in, back to home with a greeting and the panel.
    await expectAccessible(page, 'login');
    await page.getByText('Demo credentials').waitFor();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Invalid username or password').waitFor();
    await page.getByLabel('Password').fill('tablefair-2026');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByTestId('greeting').getByText('Asha').waitFor();
    await page.getByRole('heading', { name: 'Your Reservations' }).waitFor();
    await page.getByText('No reservations yet.').waitFor();
    await expectAccessible(page, 'home signed in');

    // The user menu has My Profile and Sign Out.
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('link', { name: 'My Profile' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    await page.keyboard.press('Escape');

    // The restaurant page: date, party size, time, Reserve Now.
    const date = addDays(todayInKolkata(), 2);
    await page.goto(`${base}/r/${RESTAURANT.slug}`);
    await page.getByRole('heading', { name: RESTAURANT.name, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    await page.getByRole('button', { name: '6:00 PM', exact: false }).first().waitFor();
    await expectAccessible(page, 'restaurant page');
    await page.locator(`button[data-date="${date}"]`).click();
    await page.getByRole('button', { name: 'Reserve Now' }).click();
    await expect.poll(() => toastTexts(page)).toContain('Please select a time slot');
    await pickTable(page, date, 4, '7:30 PM');
    // Changing the party size clears the chosen time.
    await page.getByRole('button', { name: '2 guests' }).click();
    expect(await page.getByRole('button', { name: '7:30 PM', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await pickTable(page, date, 4, '7:30 PM');
    await page.getByRole('button', { name: 'Reserve Now' }).click();

    // The hold screen: the alert, the summary, a countdown that ticks.
    await page.waitForURL(new RegExp(`/r/${RESTAURANT.slug}/hold/${UUID}$`));
    const reservationId = page.url().split('/hold/')[1];
    await expect.poll(() => toastTexts(page)).toContain('Table held for you: confirm before the timer runs out.');
    await page.getByRole('heading', { name: 'Confirm your table' }).waitFor();
    await page.getByText(formatDateShort(date)).first().waitFor();
    await page.getByText('7:30 PM').first().waitFor();
    await page.getByText('4 guests').first().waitFor();
    await page.getByText('No deposit required').waitFor();
    await page.getByText(/arrive within 15 minutes/).waitFor();
    await page.getByText(/at least 2 hours ahead/).waitFor();
    await page.getByText('No-show fees may apply.').waitFor();
    const first = await countdownSeconds(page);
    expect(first).toBeGreaterThan(500);
    expect(first).toBeLessThanOrEqual(600);
    await expect.poll(() => countdownSeconds(page), { timeout: 4_000 }).toBeLessThan(first);
    expect(await page.locator('[aria-live="polite"]', { hasText: 'minutes left to confirm your table' }).count()).toBe(1);
    await expectAccessible(page, 'hold screen');

    // Confirm: the alert, then /me with the reservation Pending.
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => toastTexts(page)).toContain('Requested: the restaurant confirms soon.');
    await page.waitForURL(`${base}/me`);
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    const onMe = page.locator(`[data-testid="reservation"][data-reservation-id="${reservationId}"]`);
    await onMe.getByText('Pending', { exact: true }).waitFor();
    expect(await onMe.innerText()).toContain(RESTAURANT.name);
    for (const tile of ['/drops', '/waitlist', '/']) expect(await page.locator(`nav[aria-label="Shortcuts"] a[href="${tile}"]`).count()).toBe(1);
    await expectAccessible(page, '/me');

    // Home panel: the same reservation, cancelled through the spec's dialog.
    await page.goto(`${base}/`);
    const onHome = page.locator(`section[aria-labelledby="your-reservations-title"] [data-reservation-id="${reservationId}"]`);
    await onHome.getByText('Pending', { exact: true }).waitFor();
    await onHome.getByRole('button', { name: /^Cancel reservation at/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to cancel this reservation? This action cannot be undone.').waitFor();
    await dialog.getByRole('button', { name: 'Yes, cancel' }).click();
    await onHome.getByText('Cancelled', { exact: true }).waitFor();
    expect(await onHome.getAttribute('data-status')).toBe('CANCELLED');
    expect(await onHome.getByRole('button', { name: /^Cancel/ }).count()).toBe(0);

    // The server agrees.
    const token = await page.evaluate(() => localStorage.getItem('tablefair.customerToken'));
    const mine = await api<{ id: string; status: string }[]>('/api/reservations', { token: token! });
    expect(mine.body.find((reservation) => reservation.id === reservationId)?.status).toBe('CANCELLED');

    // Signing out from /me returns to /.
    await page.goto(`${base}/me`);
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${base}/`);
    expect(await page.evaluate(() => localStorage.getItem('tablefair.customerToken'))).toBeNull();
    await page.goto(`${base}/me`);
    await page.waitForURL(/\/login\?next=%2Fme$/);

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a hold that runs out', () => {
  let server: E2eServer;

  beforeAll(async () => {
    // Six-second holds.
    server = await startE2eServer({ HOLD_MINUTES: '0.1' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('sends a signed-out diner to log in and back with the slot kept, then expires the hold: Confirm disabled, back to the restaurant, Expired on /me', async () => {
    const api = apiClient(server.baseUrl);
    const base = server.baseUrl;
    const username = uniqueName('ravi');
    expect((await api('/api/auth/signup', { method: 'POST', body: { username, password: 'tablefair-2026', name: 'Ravi Kumar' } })).status).toBe(201);

    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    // Signed out: Reserve Now goes to /login, and back to the same choice after.
    const date = addDays(todayInKolkata(), 3);
    await page.goto(`${base}/r/${RESTAURANT.slug}`);
    await page.getByRole('heading', { name: RESTAURANT.name, level: 1 }).waitFor();
    await pickTable(page, date, 2, '8:00 PM');
    await page.getByRole('button', { name: 'Reserve Now' }).click();
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('tablefair-2026');
    // No answer at all: the spec's network message.
    await page.route('**/api/auth/login', (route) => route.abort());
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Login failed. Please try again.').waitFor();
    await page.unroute('**/api/auth/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/r/${RESTAURANT.slug}?date=${date}&time=20%3A00&party=2`);
    const slot = page.getByRole('button', { name: '8:00 PM', exact: true });
    await expect.poll(() => slot.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator(`button[data-date="${date}"]`).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'Reserve Now' }).click();
    await page.waitForURL(new RegExp(`/r/${RESTAURANT.slug}/hold/${UUID}$`));
    const reservationId = page.url().split('/hold/')[1];
    const confirm = page.getByRole('button', { name: 'Confirm', exact: true });
    await confirm.waitFor();
    expect(await countdownSeconds(page)).toBeLessThanOrEqual(6);

    // The countdown reaches zero: Confirm is disabled, then the diner is back on the restaurant page.
    await expect.poll(() => countdownSeconds(page), { timeout: 10_000, interval: 200 }).toBe(0);
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByRole('heading', { name: 'This hold has run out' }).waitFor();
    await page.waitForURL(`${base}/r/${RESTAURANT.slug}?date=${date}&party=2`, { timeout: 10_000 });
    await page.getByRole('heading', { name: RESTAURANT.name, level: 1 }).waitFor();

    // The hero image falls back to a drawn placeholder when no picture loads; /restaurant/{id} is the same page.
    const restaurant = await api<{ id: string }>(`/api/restaurants/${RESTAURANT.slug}`);
    await page.route('**/hero-image', (route) => route.abort());
    await page.route('**/api/restaurant-photos/**', (route) => route.abort());
    await page.goto(`${base}/restaurant/${restaurant.body.id}`);
    await page.getByRole('heading', { name: RESTAURANT.name, level: 1 }).waitFor();
    await page.locator('.hero-image--placeholder').waitFor();
    await page.unroute('**/hero-image');
    await page.unroute('**/api/restaurant-photos/**');

    // /me shows it Expired (not Cancelled: the diner did not cancel it); its hold screen says it expired, calmly.
    await page.goto(`${base}/me`);
    const onMe = page.locator(`[data-testid="reservation"][data-reservation-id="${reservationId}"]`);
    await onMe.getByText('Expired', { exact: true }).waitFor();
    await page.goto(`${base}/hold/${reservationId}`);
    await page.getByRole('heading', { name: 'This hold has expired' }).waitFor();
    await page.getByRole('link', { name: 'Pick another time' }).waitFor();

    // A reservation that does not exist.
    await page.goto(`${base}/hold/00000000-0000-4000-8000-000000000000`);
    await page.getByText('Reservation not found – This reservation may have expired or been cancelled.').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });
});
