import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DinerReservation } from '#common/contract/reservations.ts';
import type { WaitlistEntry, WaitlistResponse } from '#common/contract/waitlist.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import {
  apiClient,
  createDiner as createDinerByApi,
  expectAccessible,
  openAs as openPageAs,
  saveScreenshot,
  SCREENSHOT_DIR,
  toastTexts,
} from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { fillTheEvening } from './support/full-evening.ts';
import { startE2eServer, type E2eServer } from './support/server.ts';

/**
 * The waitlist in Chromium (decisions 085, 090, 099): a restaurant is full on an evening; a diner joins its waitlist
 * from the restaurant page, sees their place on /waitlist, and when the blocking booking is
 * cancelled the table is held for them at once: /waitlist shows the offer with its countdown,
 * they confirm it, and the booking is PENDING. The offer's email is in the dev mailbox.
 */
const RESTAURANT = 'chai-point-reserve'; // 10 covers a slot
const RESTAURANT_NAME = 'Chai Point Reserve';
const BLOCKED_TIME = '19:30';

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('waitlist', (environment) => ({ server, browser, api } = environment));

const createDiner = (name: string) => createDinerByApi(api, { prefix: 'wl', name });
const fillTheEveningAt = (date: string) => fillTheEvening(api, { restaurant: RESTAURANT, date, time: BLOCKED_TIME, prefix: 'wl' });
const openAs = (token: string | null, viewport = LAPTOP): Promise<Page> => openPageAs(browser, token, viewport);

/** A full-page picture from the top, with no toast over it. */
const shot = (page: Page, name: string) => saveScreenshot(page, name, { dismissToasts: true });

describe('the waitlist, in the browser', () => {
  it('joins from a full evening, is offered the freed table at once, confirms it, and finds the email in the dev mailbox', async () => {
    const today = todayInKolkata();
    const date = addDays(today, 2);
    const otherDate = addDays(today, 3);
    const rival = await fillTheEveningAt(date);

    const diner = await createDiner('Asha');
    const page = await openAs(diner.token, PHONE);
    const errors = collectPageErrors(page);

    // A day with free tables: the quiet way in, and the server's refusal shown as it says it.
    await page.goto(`${server.baseUrl}/r/${RESTAURANT}?date=${otherDate}&party=2`);
    await page.getByRole('heading', { name: RESTAURANT_NAME }).waitFor();
    await page
      .getByRole('button', { name: /^\d{1,2}:\d\d (AM|PM)$/ })
      .first()
      .waitFor();
    if (SCREENSHOT_DIR) await page.locator('.restaurant__booking').screenshot({ path: join(SCREENSHOT_DIR, 'restaurant-quiet-link-375.png') });
    await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    await page
      .getByRole('alert')
      .getByText(/^A table for 2 is free at \d{1,2}:\d\d (AM|PM) on that date\. Book it instead of waiting\.$/)
      .waitFor();
    await page.getByRole('button', { name: 'Not now' }).click();

    // The full evening: marked Full, still pickable, and no time is free for any party.
    const fullDay = page.locator(`.date-chip[data-date="${date}"]`);
    expect(await fullDay.innerText()).toContain('Full');
    await fullDay.click();
    await page.getByRole('button', { name: '2 guests' }).click();
    await page.getByText('Every table is taken on this day for your party.', { exact: false }).waitFor();
    expect(await page.locator('.time-chip:not([disabled])').count()).toBe(0);
    await page.getByRole('heading', { name: 'Wait for a table' }).waitFor();
    // The thumb bar offers the waitlist instead of Reserve Now.
    await page.getByRole('button', { name: 'Join waitlist', exact: true }).click();

    // The form: a window of start times, dinner hours by default, checked before sending.
    const earliest = page.getByLabel('Earliest');
    const latest = page.getByLabel('Latest');
    await expect.poll(() => earliest.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await earliest.inputValue()).toBe('19:00');
    expect(await latest.inputValue()).toBe('22:00');
    expect(await earliest.locator('option').allInnerTexts()).toEqual([
      '6:00 PM',
      '6:30 PM',
      '7:00 PM',
      '7:30 PM',
      '8:00 PM',
      '8:30 PM',
      '9:00 PM',
      '9:30 PM',
      '10:00 PM',
    ]);
    await latest.selectOption('18:30');
    await page.getByText('The latest time must be at or after the earliest time').waitFor();
    await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    expect((await api<WaitlistResponse>('/api/waitlist', { token: diner.token })).body.entries).toEqual([]);
    await latest.selectOption('22:00');
    expect(await page.getByText('The latest time must be at or after the earliest time').count()).toBe(0);
    await expectAccessible(page, 'the restaurant page with the waitlist form open');
    await shot(page, 'restaurant-waitlist-form-375');

    // The thumb bar's button sends the open form.
    await page.getByRole('button', { name: 'Join waitlist', exact: true }).click();
    await page.getByRole('heading', { name: 'You’re on the waitlist' }).waitFor();
    await page.getByRole('link', { name: 'See waitlist', exact: true }).waitFor();
    await page.getByText(/We’ll hold a table for you the moment one frees up — 2 guests on .*, 7:00 PM – 10:00 PM\. You are number 1 in line\./).waitFor();
    await shot(page, 'restaurant-waitlist-joined-375');
    // A second entry for the same restaurant and date is refused by the server.
    const again = await api<{ error: string }>('/api/waitlist', {
      method: 'POST',
      token: diner.token,
      body: { restaurantSlug: RESTAURANT, date, partySize: 2, windowStart: '19:00', windowEnd: '22:00' },
    });
    expect(again).toEqual({ status: 409, body: { error: 'You are already on the waitlist for that restaurant on that date' } });

    // /waitlist: the entry, waiting, first in line.
    await page.getByRole('link', { name: 'See your waitlist' }).click();
    await page.getByRole('heading', { name: 'Your waitlist' }).waitFor();
    const entry = page.getByTestId('waitlist-entry').filter({ hasText: RESTAURANT_NAME });
    expect(await entry.getByTestId('waitlist-entry-state').innerText()).toBe('You are number 1 in line');
    expect(await entry.innerText()).toContain('7:00 PM – 10:00 PM · 2 guests');
    await expectAccessible(page, '/waitlist while waiting');
    await shot(page, 'waitlist-waiting-375');

    // The blocking booking is cancelled: the covers go to the first in line, and the page hears it.
    const cancelledAt = Date.now();
    expect((await api(`/api/reservations/${rival.reservationId}/cancel`, { method: 'POST', token: rival.rivalToken, body: {} })).status).toBe(200);
    const countdown = page.getByTestId('offer-countdown');
    await countdown.waitFor({ timeout: 10_000 });
    const offeredWithinMs = Date.now() - cancelledAt;
    expect(offeredWithinMs, 'the offer reached the page').toBeLessThan(10_000);
    const first = await countdown.innerText();
    expect(first).toMatch(/^(10:00|9:[0-5]\d)$/);
    // It ticks.
    await expect.poll(() => countdown.innerText(), { timeout: 4_000, interval: 250 }).not.toBe(first);
    const offer = page.getByTestId('waitlist-offer');
    expect(await offer.innerText()).toContain('7:30 PM');
    expect(await offer.innerText()).toContain('2 guests');
    expect(await toastTexts(page)).toContain(`A table is held for you at ${RESTAURANT_NAME}, 7:30 PM for 2.`);
    await expectAccessible(page, '/waitlist with an offer');
    await shot(page, 'waitlist-offer-375');

    // Confirm in place: the hold becomes a PENDING booking.
    await offer.getByRole('button', { name: 'Confirm booking' }).click();
    await page
      .getByTestId('waitlist-entry-state')
      .getByText(/^You booked the table at 7:30 PM on /)
      .waitFor();
    expect(await page.getByTestId('waitlist-offer').count()).toBe(0);
    const mine = await api<DinerReservation[]>('/api/reservations', { token: diner.token });
    expect(mine.body.map(({ status, restaurant, partySize, slot }) => ({ status, slug: restaurant.slug, partySize, time: slot.time }))).toEqual([
      { status: 'PENDING', slug: RESTAURANT, partySize: 2, time: BLOCKED_TIME },
    ]);
    expect((await api<WaitlistResponse>('/api/waitlist', { token: diner.token })).body.entries.map((item) => item.state)).toEqual(['booked']);

    // Leaving: a second entry (another full evening) goes after a confirm dialog.
    const later = addDays(today, 4);
    await fillTheEveningAt(later);
    const joined = await api<WaitlistEntry>('/api/waitlist', {
      method: 'POST',
      token: diner.token,
      body: { restaurantSlug: RESTAURANT, date: later, partySize: 4, windowStart: '18:00', windowEnd: '21:00' },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const waiting = page.getByTestId('waitlist-entry').filter({ hasText: '6:00 PM – 9:00 PM · 4 guests' });
    await waiting.getByText('You are number 1 in line').waitFor();
    await waiting.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('dialog', { name: 'Leave this waitlist?' }).waitFor();
    await page.getByRole('button', { name: 'Stay in line' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await api<WaitlistResponse>('/api/waitlist', { token: diner.token })).body.entries.find((item) => item.id === joined.body.id)?.state).toBe(
      'waiting',
    );
    await waiting.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave', exact: true }).click();
    await waiting.getByText('You left this waitlist').waitFor();
    expect((await api<WaitlistResponse>('/api/waitlist', { token: diner.token })).body.entries.find((item) => item.id === joined.body.id)?.state).toBe(
      'removed',
    );
    await shot(page, 'waitlist-history-375');

    // The dev mailbox has the offer's email, newest first.
    await page.goto(`${server.baseUrl}/dev/mailbox`);
    await page.getByRole('heading', { name: 'Dev mailbox' }).waitFor();
    await page.getByTestId('mailbox-message').first().waitFor();
    await page.getByLabel('Recipient').fill(diner.email);
    await page.getByRole('button', { name: 'Filter' }).click();
    // Two: the welcome email that asks to confirm the address at signup, then the offer.
    await page.getByText(`2 messages to ${diner.email}, newest first`).waitFor();
    const mail = page.getByTestId('mailbox-message');
    expect(await mail.getByRole('heading').allInnerTexts()).toEqual([
      `A table at ${RESTAURANT_NAME} is yours for 10 minutes`,
      'Welcome to Tablefair: confirm your email',
    ]);
    expect(await mail.first().innerText()).toContain('is held in your name until');
    await expectAccessible(page, '/dev/mailbox');
    await shot(page, 'mailbox-375');
    await page.getByLabel('Recipient').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('heading', { name: 'No messages to nobody@example.com' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();

    // The same screens on a laptop.
    const laptop = await openAs(diner.token, LAPTOP);
    const laptopErrors = collectPageErrors(laptop);
    await laptop.goto(`${server.baseUrl}/waitlist`);
    await laptop.getByRole('heading', { name: 'Earlier' }).waitFor();
    await expectAccessible(laptop, '/waitlist on a laptop');
    await shot(laptop, 'waitlist-1280');
    await laptop.goto(`${server.baseUrl}/r/${RESTAURANT}?date=${later}&party=4&waitlist=19:00-21:00`);
    await laptop.getByLabel('Earliest').waitFor();
    expect(await laptop.getByLabel('Latest').inputValue()).toBe('21:00');
    await shot(laptop, 'restaurant-waitlist-form-1280');
    await laptop.goto(`${server.baseUrl}/dev/mailbox`);
    await laptop.getByTestId('mailbox-message').first().waitFor();
    await shot(laptop, 'mailbox-1280');
    expect(laptopErrors).toEqual([]);
    await laptop.context().close();
  });

  it('sends a signed-out diner to sign in and back with the window kept, then lets an offered table go to the next in line', async () => {
    const date = addDays(todayInKolkata(), 5);
    const rival = await fillTheEveningAt(date);
    const page = await openAs(null, PHONE);
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/waitlist`);
    await page.getByRole('heading', { name: 'Sign in to see your waitlist' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?next=%2Fwaitlist');

    await page.goto(`${server.baseUrl}/r/${RESTAURANT}`);
    await page.locator(`.date-chip[data-date="${date}"]`).click();
    await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    await page.getByLabel('Earliest').selectOption('18:00');
    await page.getByRole('button', { name: 'Sign in to join' }).click();
    await page.waitForURL(/\/login\?next=/);
    const next = new URL(page.url()).searchParams.get('next');
    expect(next).toBe(`/r/${RESTAURANT}?date=${date}&party=2&waitlist=18%3A00-22%3A00`);

    // Signed in: a new diner's /waitlist is empty; back on the restaurant the form is open with the same window.
    const diner = await createDiner('Ravi');
    await page.evaluate((token) => localStorage.setItem('tablefair.customerToken', token), diner.token);
    await page.goto(`${server.baseUrl}/waitlist`);
    await page.getByRole('heading', { name: 'You’re not on any waitlist' }).waitFor();
    await expectAccessible(page, '/waitlist empty');
    await shot(page, 'waitlist-empty-375');
    await page.goto(`${server.baseUrl}${next}`);
    expect(await page.getByLabel('Earliest').inputValue()).toBe('18:00');
    expect(await page.getByLabel('Latest').inputValue()).toBe('22:00');
    await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    await page.getByText(/— 2 guests on .*, 6:00 PM – 10:00 PM\. You are number 1 in line\./).waitFor();

    // The table is offered; the diner lets it go after a confirm dialog, and the hold is cancelled.
    await page.goto(`${server.baseUrl}/waitlist`);
    await page.getByTestId('waitlist-entry-state').getByText('You are number 1 in line').waitFor();
    expect((await api(`/api/reservations/${rival.reservationId}/cancel`, { method: 'POST', token: rival.rivalToken, body: {} })).status).toBe(200);
    const offer = page.getByTestId('waitlist-offer');
    await offer.waitFor({ timeout: 10_000 });
    const [offered] = (await api<WaitlistResponse>('/api/waitlist', { token: diner.token })).body.offers;
    expect(offered.offer?.slot.time).toBe(BLOCKED_TIME);
    await offer.getByRole('button', { name: 'Let it go' }).click();
    await page.getByRole('dialog', { name: 'Let this table go?' }).waitFor();
    await expectAccessible(page, '/waitlist with the let-go dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Let it go' }).click();
    await page
      .getByTestId('waitlist-entry-state')
      .getByText(/^You let the table at 7:30 PM on .* go to the next in line$/)
      .waitFor();
    expect(await page.getByTestId('waitlist-offer').count()).toBe(0);
    const after = await api<DinerReservation>(`/api/reservations/${offered.offer!.reservationId}`);
    expect(after.body.status).toBe('CANCELLED');
    expect((await api<WaitlistResponse>('/api/waitlist', { token: diner.token })).body.entries.map((item) => item.state)).toEqual(['declined']);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says the dev mailbox is off when the server does not serve it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-waitlist-prod-'));
    const production = await startE2eServer({ DATA_DIR: dataDir, NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' });
    try {
      const page = await openAs(null, PHONE);
      await page.goto(`${production.baseUrl}/dev/mailbox`);
      await page.getByRole('heading', { name: 'The dev mailbox is off on this server' }).waitFor();
      expect((await apiClient(production.baseUrl)('/api/dev/mailbox')).status).toBe(404);
      await shot(page, 'mailbox-off-375');
      await page.context().close();
    } finally {
      await production.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
