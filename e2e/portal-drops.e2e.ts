import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AdminDropDetail } from '#common/contract/drops.ts';
import { addDays, formatDateShort, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, expectAccessible, saveScreenshot, signInStaff as signInStaffAt } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * The portal's Drops tab in Chromium (decision 045): staff create a drop through the
 * form, see it listed and open it; a diner with a verified phone enters through the API and the
 * staff detail shows the entry in the diner's name; after the draw the seed is shown and the
 * browser recomputes the order from it.
 */
/** Toit & Tandoor has the demo data's open drop; Sakura Lane starts with none. */
const STAFF = { username: 'toit-tandoor', password: 'staff1234' };
const FRESH_STAFF = { username: 'sakura-lane', password: 'staff1234' };
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
let phoneCounter = 0;
useE2eEnvironment('portal-drops', (environment) => ({ server, browser, api } = environment));

async function signInStaff(page: Page, staff = STAFF): Promise<void> {
  await signInStaffAt(page, server.baseUrl, staff);
}

async function staffToken(): Promise<string> {
  const login = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: STAFF });
  expect(login.status).toBe(200);
  return login.body.token;
}

/** A new diner who verifies a phone the way a person does: a code by SMS, read here from the dev mailbox. */
async function verifiedDiner(name: string): Promise<{ token: string; username: string; phone: string }> {
  const username = `drop_${name.split(' ')[0].toLowerCase()}_${Date.now() % 1_000_000}`;
  expect((await api('/api/auth/signup', { method: 'POST', body: { username, password: 'password123', name, email: `${username}@example.com` } })).status).toBe(
    201,
  );
  const login = await api<{ token: string }>('/api/auth/login', { method: 'POST', body: { username, password: 'password123' } });
  const token = login.body.token;
  const phone = `+9197${String(process.pid % 10_000).padStart(4, '0')}${String(phoneCounter++).padStart(4, '0')}`;
  const started = await api('/api/auth/phone/start', { method: 'POST', token, body: { phone } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const mailbox = await api<{ messages: { channel: string; body: string }[] }>(`/api/dev/mailbox?recipient=${encodeURIComponent(phone)}`, { token });
  const sms = mailbox.body.messages.find((message) => message.channel === 'sms');
  const code = /\b(\d{6})\b/.exec(sms?.body ?? '')?.[1];
  expect(code, sms?.body).toBeTruthy();
  const verified = await api('/api/auth/phone/verify', { method: 'POST', token, body: { phone, code } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { token, username, phone };
}

async function shot(page: Page, name: string) {
  await saveScreenshot(page, `${name}-${page.viewportSize()?.width}`);
}

async function openDropsTab(page: Page) {
  await page.getByRole('tab', { name: 'Drops' }).click();
  await page.getByRole('heading', { name: 'Drops', exact: true }).waitFor();
  await page
    .getByTestId('drop-row')
    .or(page.getByRole('heading', { name: 'No drops yet' }))
    .first()
    .waitFor();
}

describe('portal drops', () => {
  it('staff create a drop through the form, see it listed and open; a verified diner enters and staff see them by name', async () => {
    const context = await browser.newContext({ viewport: LAPTOP, bypassCSP: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signInStaff(page, FRESH_STAFF);
    await openDropsTab(page);
    expect(page.url()).toMatch(/\?tab=drops$/);

    // Nothing yet: the empty state says what a drop is.
    await page.getByRole('heading', { name: 'No drops yet' }).waitFor();
    await page.getByText('A recorded draw.').waitFor();
    await expectAccessible(page, 'drops empty 1280');
    await shot(page, 'drops-empty');

    await page.getByRole('link', { name: 'Create your first drop' }).click();
    const heading = page.getByRole('heading', { name: 'New drop' });
    await heading.waitFor();
    expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true);

    // The defaults: the dates a week from today, entries open now and close, with the release, 24 hours later.
    const today = todayInKolkata();
    expect(await page.getByLabel('First date').inputValue()).toBe(addDays(today, 7));
    expect(await page.getByLabel('Last date').inputValue()).toBe(addDays(today, 13));
    const opens = await page.getByLabel('Entries open').inputValue();
    expect(opens.slice(0, 10)).toBe(today);
    expect(await page.getByLabel('Entries close').inputValue()).toBe(await page.getByLabel('Release').inputValue());

    // Submitting empty: the contract's messages, and the focus on the first field to fix.
    await page.getByRole('button', { name: 'Create drop' }).click();
    await page.getByText('Title is required').waitFor();
    await page.getByText(/^Times: list one or more times/).waitFor();
    await page.getByText('2 fields need attention.').waitFor();
    expect(await page.getByLabel('Title').evaluate((element) => element === document.activeElement)).toBe(true);

    await page.getByLabel('Title').fill('Chef’s counter');
    await page.getByLabel('Description (optional)').fill('Eight seats at the pass; a tasting menu cooked in front of you.');
    // 7:00 PM is one of the restaurant's own evening slots on that date: refused before it reaches the server.
    await page.getByLabel('Add a time').fill('19:00');
    await page.getByRole('button', { name: 'Add time' }).click();
    await page.getByText(`There is already a slot on ${formatDateShort(addDays(today, 7))} at 7:00 PM: choose other dates or times`).waitFor();
    await page.getByRole('button', { name: 'Remove 7:00 PM' }).click();
    await page.getByRole('button', { name: 'Add 10:30 PM' }).click();
    await page.getByLabel('Capacity (covers)').fill('6');
    await page.getByText('Creates 7 slots: 7 dates × 1 time, 6 covers each.').waitFor();
    expect(await page.locator('.field__error').count()).toBe(0);
    await expectAccessible(page, 'new drop 1280');
    await shot(page, 'drops-new');

    const posted = page.waitForRequest((request) => request.url().endsWith('/api/admin/drops') && request.method() === 'POST');
    await page.getByRole('button', { name: 'Create drop' }).click();
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    // The wall clock typed, as Bengaluru time whatever the machine's zone.
    expect(body).toMatchObject({ title: 'Chef’s counter', times: ['22:30'], capacity: 6, dateFrom: addDays(today, 7), dateTo: addDays(today, 13) });
    expect(body.entryOpensAt).toBe(`${opens}:00+05:30`);
    expect(body.releaseAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+05:30$/);
    expect(Date.parse(body.releaseAt as string) - Date.parse(body.entryOpensAt as string)).toBe(24 * 3_600_000);

    // The drop's detail follows at once.
    const detail = page.getByTestId('drop-detail');
    await detail.waitFor();
    await page.getByRole('heading', { name: 'Chef’s counter', level: 2 }).waitFor();
    const dropId = new URL(page.url()).searchParams.get('drop')!;
    expect(dropId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await detail.getAttribute('data-phase')).toBe('open');
    await page.getByText('Entries close and the draw runs in').waitFor();
    expect(await page.getByTestId('drop-countdown').innerText()).toMatch(/^(23:5\d:\d\d|1d 0h 00m)$/);
    expect(await page.getByTestId('drop-slot').count()).toBe(7);
    await page.getByText('No entries yet. Diners enter from the drop’s public page').waitFor();

    // Listed, with its phase, window and counts.
    await page.getByRole('link', { name: 'All drops' }).first().click();
    const row = page.locator(`[data-testid="drop-row"][data-drop-id="${dropId}"]`);
    await row.waitFor();
    const rowText = await row.innerText();
    expect(rowText).toContain('Chef’s counter');
    expect(rowText).toMatch(/entries open/i);
    expect(rowText).toContain('10:30 PM · 6 covers · 7 slots');
    expect(rowText).toMatch(/Entries\s+0\s+Offered\s+0\s+Booked\s+0/i);
    await expectAccessible(page, 'drops list 1280');
    await shot(page, 'drops-list');

    // A diner with a verified phone enters for four.
    const diner = await verifiedDiner('Kavya Reddy');
    const entered = await api(`/api/drops/${dropId}/entries`, { method: 'POST', token: diner.token, body: { partySize: 4 } });
    expect(entered.status, JSON.stringify(entered.body)).toBe(201);

    // The list's count follows; the detail shows the entry in the diner's name without a reload.
    await row.getByRole('link', { name: 'Chef’s counter' }).click();
    const entry = page.getByTestId('drop-entry');
    await entry.waitFor({ timeout: 8_000 });
    const entryText = await entry.innerText();
    expect(entryText).toContain('Kavya Reddy');
    expect(entryText).toContain(`@${diner.username}`);
    expect(entryText).toContain(`+91 ${diner.phone.slice(3, 8)} ${diner.phone.slice(8)}`);
    expect(entryText).toContain('4 guests');
    expect(entryText).toMatch(/Entered/i);
    expect(await entry.getAttribute('data-state')).toBe('entered');
    expect(await page.getByTestId('drop-count-entries').innerText()).toBe('1');
    await page.getByText('The draw runs at the release').waitFor();
    await expectAccessible(page, 'drop detail 1280');
    await shot(page, 'drop-detail-open');

    // A refusal only the server can see (the drop's own 10:30 PM two days in): its sentence, shown.
    await page.getByRole('link', { name: 'All drops' }).first().click();
    await page.getByRole('link', { name: /New drop/ }).click();
    await page.getByLabel('Title').fill('Late counter');
    await page.getByLabel('First date').fill(addDays(today, 5));
    await page.getByLabel('Last date').fill(addDays(today, 8));
    await page.getByRole('button', { name: 'Add 10:30 PM' }).click();
    await page.getByRole('button', { name: 'Create drop' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The drop was not created' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(`There is already a slot on ${formatDateShort(addDays(today, 7))} at 10:30 PM: choose other dates or times`);
    // Editing clears it.
    await page.getByLabel('Title').fill('Late counter, first week');
    expect(await alert.count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('after the draw staff see the seed, the line and each result, and the browser recomputes the order', async () => {
    const token = await staffToken();
    const today = todayInKolkata();
    const release = new Date(Date.now() + 8_000).toISOString();
    const created = await api<AdminDropDetail>('/api/admin/drops', {
      method: 'POST',
      token,
      body: {
        title: 'Sunday biryani table',
        description: 'Two seatings, one long table.',
        dateFrom: addDays(today, 10),
        dateTo: addDays(today, 11),
        times: ['13:00', '23:00'],
        capacity: 4,
        entryOpensAt: new Date().toISOString(),
        entryClosesAt: release,
        releaseAt: release,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const dropId = created.body.id;
    const names = ['Arjun Das', 'Neha Kulkarni', 'Farah Khan'];
    for (const name of names) {
      const diner = await verifiedDiner(name);
      expect((await api(`/api/drops/${dropId}/entries`, { method: 'POST', token: diner.token, body: { partySize: 2 } })).status).toBe(201);
    }

    for (const viewport of [PHONE, LAPTOP]) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await signInStaff(page);
      await page.goto(`${server.baseUrl}${new URL(page.url()).pathname}?tab=drops&drop=${dropId}`);
      const detail = page.getByTestId('drop-detail');
      await detail.waitFor();
      // The countdown runs to the release, then the page reads the draw by itself.
      await expect.poll(() => detail.getAttribute('data-phase'), { timeout: 20_000 }).toBe('released');
      const seed = page.getByTestId('drop-seed');
      await seed.waitFor();
      expect(await seed.innerText()).toMatch(/^[0-9a-f]{64}$/);
      const audit = await api<{ seed: string; order: string[] }>(`/api/drops/${dropId}/draw`);
      expect(await seed.innerText()).toBe(audit.body.seed);
      await page.getByText(`/api/drops/${dropId}/draw`).first().waitFor();

      // The line, in drawn order, with every entry named and placed.
      const entries = page.getByTestId('drop-entry');
      await expect.poll(() => entries.count()).toBe(3);
      const ids = await entries.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-entry-id')));
      expect(ids).toEqual(audit.body.order);
      const texts = await entries.allInnerTexts();
      expect(texts.map((text) => text.match(/#(\d)/)?.[1])).toEqual(['1', '2', '3']);
      for (const name of names) expect(texts.join('\n')).toContain(name);
      // Four tables for parties of two (two dates × two times): everybody gets a hold.
      await expect
        .poll(async () => (await entries.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')))).join(), { timeout: 15_000 })
        .toBe('won,won,won');
      expect(texts[0]).toMatch(/Holding a table/i);
      await expect.poll(() => page.getByTestId('drop-count-offered').innerText()).toBe('3');

      await page.getByRole('button', { name: 'Check the draw in this browser' }).click();
      await page.getByText('✓ Recomputed from the seed: the 3 entries are in exactly the published order.').waitFor();

      await expectAccessible(page, `drop detail after the draw ${viewport.width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, 'drop-detail-drawn');

      // The list and the form at this width, too.
      await page.getByRole('link', { name: 'All drops' }).first().click();
      await page.locator('[data-testid="drop-row"]').first().waitFor();
      await expectAccessible(page, `drops list ${viewport.width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (viewport.width === PHONE.width) await shot(page, 'drops-list');
      await page.getByRole('link', { name: /New drop/ }).click();
      await page.getByRole('heading', { name: 'New drop' }).waitFor();
      await page.getByRole('button', { name: 'Add 10:30 PM' }).click();
      await page.getByRole('button', { name: 'Create drop' }).click();
      await page.getByText('Title is required').waitFor();
      await expectAccessible(page, `new drop with errors ${viewport.width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, 'drops-new-errors');

      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
