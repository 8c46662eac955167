import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DropDetail } from '#common/contract/drops.ts';
import type { DevMailboxResponse } from '#common/contract/waitlist.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner as createDinerByApi, createOpenDrop, expectAccessible, openAs as openPageAs } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * A drop in Chromium (decisions 080–083): a diner verifies their phone, enters a drop, the draw runs at
 * the release, and the one who got the table completes the booking from /drops/{id}. The draw is
 * random, so the test follows whichever way it falls: if the browser's diner is second in line,
 * the winner lets the table go and it comes down the line to them.
 */
const RESTAURANT = 'toit-tandoor';
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('drops', (environment) => ({ server, browser, api } = environment));

async function createDiner(name: string, phone: string): Promise<string> {
  return (await createDinerByApi(api, { prefix: 'drop', name, phone })).token;
}

/** The newest 6-digit code the dev mailbox holds for this phone, read as the diner who asked for it. */
async function latestCode(phone: string, token: string): Promise<string> {
  const mailbox = await api<DevMailboxResponse>(`/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`, { token });
  const code = mailbox.body.messages.map((message) => /\b(\d{6})\b/.exec(message.body)?.[1]).find(Boolean);
  expect(code, 'a code in the dev mailbox').toBeTruthy();
  return code!;
}

async function verifyPhoneByApi(token: string, phone: string): Promise<void> {
  expect((await api('/api/auth/phone/start', { method: 'POST', token, body: { phone } })).status).toBe(202);
  expect((await api('/api/auth/phone/verify', { method: 'POST', token, body: { phone, code: await latestCode(phone, token) } })).status).toBe(200);
}

const openAs = (token: string, viewport = LAPTOP): Promise<Page> => openPageAs(browser, token, viewport);

describe('a drop, in the browser', () => {
  it('verifies the phone, enters, is drawn, and completes the booking from the drop page', async () => {
    // Everyone signs in before the drop exists, so that its short entry window is spent on the
    // entering itself, however slow the machine.
    const staff = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: RESTAURANT, password: 'staff1234' } });
    expect(staff.status).toBe(200);
    const rivalPhone = '+919800000002';
    const rival = await createDiner('Rival', rivalPhone);
    await verifyPhoneByApi(rival, rivalPhone);
    const phone = '+919800000001';
    const token = await createDiner('Asha', phone);
    const page = await openAs(token, PHONE);
    const errors = collectPageErrors(page);

    // Staff announce a one-table drop whose entries close in 30 seconds.
    const now = Date.now();
    const tomorrow = addDays(todayInKolkata(new Date(now)), 1);
    const closesAt = new Date(now + 30_000).toISOString();
    const dropId = await createOpenDrop(api, staff.body.token, {
      title: 'Chef’s counter, one night only',
      description: 'Six courses at the pass.',
      date: tomorrow,
      time: '18:15',
      capacity: 2,
      closesAt,
    });

    // Another diner enters through the API.
    expect((await api(`/api/drops/${dropId}/entries`, { method: 'POST', token: rival, body: { partySize: 2 } })).status).toBe(201);

    // Our diner, on a phone: finds the drop on /drops.
    await page.goto(`${server.baseUrl}/drops`);
    await page.getByRole('heading', { name: 'Open now' }).waitFor();
    await expectAccessible(page, '/drops');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'drops-375.png'), fullPage: true });
    await page.getByRole('link', { name: /Chef’s counter, one night only/ }).click();
    await page.getByRole('heading', { name: 'Chef’s counter, one night only' }).waitFor();
    expect(await page.getByTestId('drop-countdown').innerText()).toMatch(/^0:\d\d$/);
    // Before anyone enters, the page shows the commitment to the draw's seed (and not the seed).
    await page.getByText('How the draw is kept honest').click();
    expect(await page.getByTestId('seed-commitment').innerText()).toMatch(/^[0-9a-f]{64}$/);

    // Entering needs a verified phone: the code comes by SMS (here, the dev mailbox).
    await page.getByLabel('Mobile number').fill('98000 00001');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('We sent a 6-digit code to +919800000001').waitFor();
    await page.getByLabel('Code').fill(await latestCode(phone, token));
    await page.getByRole('button', { name: 'Verify phone' }).click();
    await page.getByLabel('Party size').selectOption('2');
    await expectAccessible(page, '/drops/{id} before entering');
    await page.getByRole('button', { name: 'Enter the drop' }).click();
    await page.getByTestId('drop-result').getByText('You are in the draw', { exact: true }).waitFor();
    // A second entry by the same account is refused by the server.
    const again = await api<{ error: string }>(`/api/drops/${dropId}/entries`, { method: 'POST', token, body: { partySize: 2 } });
    expect(again.status).toBe(409);

    // The release: the page's own refresh asks again, and the first read after it draws.
    const result = page.getByTestId('drop-result');
    await expect
      .poll(async () => result.innerText(), { timeout: 45_000, interval: 500 })
      .toMatch(/^(You got a table — complete booking in \d+:\d\d|You are number 1 in line)$/);
    const drop = await api<DropDetail>(`/api/drops/${dropId}`, { token: rival });
    if (drop.body.myEntry?.result.state === 'won') {
      // The rival won: our diner is first in line, and gets the table when the rival lets it go.
      expect(await result.innerText()).toBe('You are number 1 in line');
      if (SHOTS) await page.screenshot({ path: join(SHOTS, 'drop-in-line-375.png'), fullPage: true });
      const cancel = await api(`/api/reservations/${drop.body.myEntry.result.reservationId}/cancel`, { method: 'POST', token: rival, body: {} });
      expect(cancel.status).toBe(200);
      await expect.poll(async () => result.innerText(), { timeout: 30_000, interval: 500 }).toMatch(/^You got a table — complete booking in \d+:\d\d$/);
    } else {
      expect(drop.body.myEntry?.result).toEqual({ state: 'waiting', placeInLine: 1 });
    }
    await expectAccessible(page, '/drops/{id} with a table won');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'drop-won-375.png'), fullPage: true });

    await page.getByRole('button', { name: 'Complete booking' }).click();
    await page.getByTestId('drop-result').getByText('Your table is booked', { exact: true }).waitFor();
    const mine = await api<{ status: string; restaurant: { slug: string }; partySize: number }[]>('/api/reservations', { token });
    expect(mine.body.map(({ status, restaurant, partySize }) => ({ status, slug: restaurant.slug, partySize }))).toEqual([
      { status: 'PENDING', slug: RESTAURANT, partySize: 2 },
    ]);

    // The draw can be checked: the seed and the drawn order are public, and the page checks them
    // itself: the seed against the commitment published at creation, the order by drawOrder.
    await page.getByText('Check the draw').click();
    await page.getByText(/Your entry is number \d\./).waitFor();
    await expect
      .poll(async () => page.getByTestId('draw-check').innerText(), { timeout: 10_000 })
      .toMatch(/^Seed matches the commitment published on .+ ✓ · Order recomputed in your browser ✓$/);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'drop-audit-375.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();

    // The same page on a laptop, signed out.
    const laptop = await (await browser.newContext({ viewport: LAPTOP, bypassCSP: true })).newPage();
    await laptop.goto(`${server.baseUrl}/drops/${dropId}`);
    await laptop.getByText('Entries are closed for this drop.').waitFor();
    await laptop.getByText(/^Drawn .* · 2 entries$/).waitFor();
    await expectAccessible(laptop, '/drops/{id} signed out');
    if (SHOTS) await laptop.screenshot({ path: join(SHOTS, 'drop-1280.png'), fullPage: true });
    await laptop.context().close();
  });
});
