import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, createDiner, createOpenDrop, holdFirstFreeTable, openAs, signInStaff } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * What a keyboard or screen-reader user meets, beyond what axe finds: errors
 * tied to their fields, honest announcements, focus that stays put after an action, focused
 * controls never hidden under sticky bars, a map popup that behaves, quiet live regions, and
 * targets of at least 44 px.
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('keyboard', (environment) => ({ server, browser, api } = environment));

/** The texts `aria-describedby` points at, joined: the field's accessible description. */
async function description(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

/** The focus is somewhere on the page, not dropped to <body>. */
async function focusKept(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body);
}

/** The texts of the polite status regions (role=status and aria-live=polite), joined. */
async function announced(page: Page): Promise<string> {
  return page.evaluate(() => [...document.querySelectorAll('[role="status"], [aria-live="polite"]')].map((element) => element.textContent ?? '').join(' | '));
}

let dropsMade = 0;

/** A drop at ember-oak whose entries are open for the next two hours, each on a day of its own. */
async function openDrop(title: string): Promise<string> {
  const day = addDays(todayInKolkata(), 9 + dropsMade++);
  const staff = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: 'ember-oak', password: 'staff1234' } });
  const closesAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
  return createOpenDrop(api, staff.body.token, { title, description: 'Eight seats at the pass.', date: day, time: '16:45', capacity: 2, closesAt });
}

/**
 * Tabs through the page (up to `limit` stops) and lists each focused control whose box meets
 * the bar's; the bar's own controls are skipped.
 */
async function controlsHiddenUnderBar(page: Page, barSelector: string, limit: number): Promise<string[]> {
  const hidden: string[] = [];
  for (let stop = 0; stop < limit; stop++) {
    await page.keyboard.press('Tab');
    const problem = await page.evaluate((selector) => {
      const bar = document.querySelector(selector);
      const focused = document.activeElement;
      if (!bar || !focused || focused === document.body || bar.contains(focused)) return null;
      const a = focused.getBoundingClientRect();
      const b = bar.getBoundingClientRect();
      const meets = a.bottom > b.top && a.top < b.bottom && a.right > b.left && a.left < b.right;
      return meets ? `${focused.tagName} "${(focused.getAttribute('aria-label') ?? (focused as HTMLElement).innerText ?? '').trim().slice(0, 40)}"` : null;
    }, barSelector);
    if (problem) hidden.push(problem);
  }
  return hidden;
}

describe('errors are tied to their fields', () => {
  it('on /login, /signup and the portal’s New drop form, each invalid field is described by its error', async () => {
    const page = await openAs(browser, null, LAPTOP);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Username is required').waitFor();
    expect(await description(page.getByLabel('Username'))).toContain('Username is required');
    expect(await description(page.getByLabel('Password'))).toContain('Password is required');

    await page.goto(`${server.baseUrl}/signup`);
    await page.getByRole('button', { name: /Create Account|Sign up/i }).click();
    const username = page.getByRole('textbox', { name: /^Username/ });
    await expect.poll(() => username.getAttribute('aria-invalid')).toBe('true');
    const usernameError = await page.locator('#signup-username-error').innerText();
    expect(usernameError.length).toBeGreaterThan(0);
    expect(await description(username)).toContain(usernameError);

    await signInStaff(page, server.baseUrl, { username: 'toit-tandoor', password: 'staff1234' });
    await page.goto(`${page.url()}?tab=drops&view=new`);
    await page.getByRole('heading', { name: 'New drop' }).waitFor();
    await page.getByRole('button', { name: 'Create drop' }).click();
    await page.getByText('Title is required').waitFor();
    expect(await description(page.getByLabel('Title'))).toContain('Title is required');
    await page.context().close();
  });
});

describe('the hold screen', () => {
  it('never says the hold expired or ended when the diner confirms it', async () => {
    const diner = await createDiner(api, { prefix: 'kb', name: 'Meera Iyer' });
    const heldId = await holdFirstFreeTable(api, diner.token, 'toit-tandoor', addDays(todayInKolkata(), 2));

    const page = await openAs(browser, diner.token, LAPTOP);
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/hold/${heldId}`);
    await page.getByRole('button', { name: 'Confirm', exact: true }).waitFor();
    // Record every text the countdown's live region and caption show, up to leaving the screen.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      const record = () => {
        for (const element of document.querySelectorAll('.countdown [aria-live], .countdown__caption, .hold__header')) seen.push(element.textContent ?? '');
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.waitForURL(/\/me$/);
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => /expired|hold ended|run out/i.test(text))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the focus stays on the page after an in-page action, and the outcome is announced', () => {
  it('portal Confirm: the focus moves to the row’s next action, and the new status is announced', async () => {
    const diner = await createDiner(api, { prefix: 'kb', name: 'Rohan Shetty' });
    const heldId = await holdFirstFreeTable(api, diner.token, 'ember-oak', addDays(todayInKolkata(), 3));
    expect((await api(`/api/reservations/${heldId}/confirm`, { method: 'POST', body: {}, token: diner.token })).status).toBe(200);

    const page = await openAs(browser, null, LAPTOP);
    await signInStaff(page, server.baseUrl, { username: 'ember-oak', password: 'staff1234' });
    const row = page.locator(`[data-testid="booking-row"][data-booking-id="${heldId}"]`);
    await row.getByRole('button', { name: /^Confirm/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row.getAttribute('data-status')).toBe('CONFIRMED');
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(await row.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await expect.poll(() => announced(page)).toContain('Rohan Shetty');
    await page.context().close();
  });

  it('/me Yes, cancel: the focus lands on the cancelled reservation, and the cancel is announced', async () => {
    const diner = await createDiner(api, { prefix: 'kb', name: 'Tara Menon' });
    const heldId = await holdFirstFreeTable(api, diner.token, 'ember-oak', addDays(todayInKolkata(), 4));
    await api(`/api/reservations/${heldId}/confirm`, { method: 'POST', body: {}, token: diner.token });

    const page = await openAs(browser, diner.token, LAPTOP);
    await page.goto(`${server.baseUrl}/me`);
    await page.getByRole('button', { name: /^Cancel reservation at/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel' }).click();
    const card = page.locator(`[data-reservation-id="${heldId}"]`);
    await expect.poll(() => card.getAttribute('data-status')).toBe('CANCELLED');
    await expect.poll(() => focusKept(page)).toBe(true);
    await expect.poll(() => card.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await expect.poll(() => announced(page)).toContain('Reservation cancelled.');
    await page.context().close();
  });

  it('dating signup: removing a tag keeps the focus in the tag list, and says what was removed', async () => {
    const page = await openAs(browser, null, LAPTOP);
    await page.goto(`${server.baseUrl}/dating/signup`);
    const tagInput = page.locator('.d-tag-entry input').first();
    for (const tag of ['jazz', 'chess']) {
      await tagInput.fill(tag);
      await tagInput.press('Enter');
    }
    await page.getByRole('button', { name: 'Remove jazz' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Remove jazz' }).count()).toBe(0);
    expect(await focusKept(page)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove chess');
    await expect.poll(() => announced(page)).toContain('Removed jazz.');
    await page.getByRole('button', { name: 'Remove chess' }).click();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    await page.context().close();
  });

  it('the drop page’s Send code moves the focus to the Code field and announces where the code went', async () => {
    const dropId = await openDrop('Keyboard counter');
    const diner = await createDiner(api, { prefix: 'kb', name: 'Isha Rao' });
    const page = await openAs(browser, diner.token, LAPTOP);
    await page.goto(`${server.baseUrl}/drops/${dropId}`);
    await page.getByLabel('Mobile number').fill('98000 00077');
    await page.getByRole('button', { name: 'Send code' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Code').waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(await page.getByLabel('Code').evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => announced(page)).toContain('+919800000077');
    await page.context().close();
  });
});

describe('sticky bars never hide the focused control at 375 px', () => {
  it('the Reserve Now bar leaves every time chip and Join the waitlist in view', async () => {
    const page = await openAs(browser, null, { width: 375, height: 740 });
    await page.goto(`${server.baseUrl}/r/toit-tandoor`);
    await page.locator('.reserve-bar').waitFor();
    await page.getByRole('button', { name: 'Join the waitlist' }).or(page.getByText('Join the waitlist')).first().waitFor();
    expect(await controlsHiddenUnderBar(page, '.reserve-bar', 70)).toEqual([]);
    await page.context().close();
  });

  it('the dating signup’s submit bar leaves Password, Instagram and the chips in view', async () => {
    const page = await openAs(browser, null, { width: 375, height: 740 });
    await page.goto(`${server.baseUrl}/dating/signup`);
    await page.locator('.d-submit').waitFor();
    expect(await controlsHiddenUnderBar(page, '.d-submit', 90)).toEqual([]);
    await page.context().close();
  });
});

describe('the map popup (/map)', () => {
  /** /map with the outside world (the tile server) unreachable, as on a machine with no internet. */
  async function openMap(viewport = LAPTOP): Promise<Page> {
    const page = await openAs(browser, null, viewport);
    await page.context().route(
      (url) => url.origin !== new URL(server.baseUrl).origin,
      (route) => route.abort('internetdisconnected'),
    );
    await page.goto(`${server.baseUrl}/map`);
    await expect.poll(() => page.locator('.leaflet-marker-pane .leaflet-marker-icon').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(600); // the fit-to-bounds and its animation
    return page;
  }
  const activeIsMarker = (page: Page) => page.evaluate(() => !!document.activeElement?.classList.contains('leaflet-marker-icon'));

  it('Escape closes the popup and the focus goes back to its marker; so does the close button, which is 44 px', async () => {
    const page = await openMap();
    // As a diner who asks for reduced motion (every journey context does; the discovery journey
    // keeps the motion): the popup's content must be focusable as soon as it opens.
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    const marker = page.locator('.leaflet-marker-pane .leaflet-marker-icon').first();
    const popup = page.locator('.leaflet-popup');
    await marker.focus();
    await page.keyboard.press('Enter');
    await popup.getByRole('link', { name: 'Reserve Now' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reserve Now');
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached', timeout: 3_000 });
    await expect.poll(() => marker.evaluate((element) => element === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    const close = popup.getByRole('button', { name: 'Close popup' });
    await close.waitFor();
    const box = (await close.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    await close.focus();
    await page.keyboard.press('Enter');
    await popup.waitFor({ state: 'detached', timeout: 3_000 });
    await expect.poll(() => marker.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('on a phone, the markers’ Tab stops can be skipped: after the filters comes a way to the restaurant list', async () => {
    const page = await openMap(PHONE);
    await page.locator('.map-filter').last().focus();
    await page.keyboard.press('Tab');
    expect(await activeIsMarker(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/restaurant list/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await activeIsMarker(page)).toBe(false);
    expect(await page.evaluate(() => !!document.activeElement?.closest('.map-list'))).toBe(true);
    await page.context().close();
  });
});

describe('live regions say what matters, once', () => {
  it('the drop page’s entry section is not a live region, and a /drops card’s link name has no ticking countdown', async () => {
    const dropId = await openDrop('Quiet counter');
    const diner = await createDiner(api, { prefix: 'kb', name: 'Dev Kapoor' });
    const page = await openAs(browser, diner.token, LAPTOP);
    await page.goto(`${server.baseUrl}/drops/${dropId}`);
    await page.getByRole('heading', { name: 'Enter the drop' }).waitFor();
    expect(await page.locator('section.drop__entry').getAttribute('aria-live')).toBeNull();

    await page.goto(`${server.baseUrl}/drops`);
    const link = page.getByRole('link', { name: /Quiet counter/ });
    await link.waitFor();
    const before = await link.ariaSnapshot();
    await page.waitForTimeout(1_500);
    expect(await link.ariaSnapshot()).toBe(before);
    expect(before).not.toMatch(/close in/);
    expect(before).toMatch(/Entries close/);
    await page.context().close();
  });

  it('the dating signup says how many answers need a look only when Create account is pressed', async () => {
    const page = await openAs(browser, null, LAPTOP);
    await page.goto(`${server.baseUrl}/dating/signup`);
    await page.getByLabel('Password').focus();
    for (let stop = 0; stop < 6; stop++) await page.keyboard.press('Tab');
    await page
      .getByText(/answers? needs? a look/)
      .first()
      .waitFor();
    expect(await announced(page)).not.toMatch(/need a look/);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => announced(page)).toMatch(/\d+ answers need a look/);
    await page.context().close();
  });

  it('Explore Tonight announces the result count once the filters settle, not for each option arrowed past', async () => {
    const page = await openAs(browser, null, LAPTOP);
    await page.goto(`${server.baseUrl}/explore-tonight`);
    const summary = page.locator('.explore-summary');
    await summary.filter({ hasText: /a table for/ }).waitFor();
    expect(await summary.getAttribute('role')).toBeNull();
    expect(await summary.evaluate((element) => element.closest('[aria-live], [role="status"]'))).toBeNull();
    // The first count is announced a second after the page settles; wait for it, so that only what
    // the arrowing causes is counted below, however slowly the keys arrive.
    await expect.poll(() => announced(page)).toMatch(/a table for/);
    const cuisine = page.getByLabel('Cuisine');
    await cuisine.focus();
    await page.evaluate(() => {
      const changes: string[] = [];
      (window as unknown as { __changes: string[] }).__changes = changes;
      new MutationObserver((records) => {
        for (const record of records) {
          const target = record.target instanceof Element ? record.target : record.target.parentElement;
          if (target?.closest('[aria-live], [role="status"]')) changes.push(target.textContent ?? '');
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    for (let step = 0; step < 4; step++) await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(1_500);
    const changes = await page.evaluate(() => (window as unknown as { __changes: string[] }).__changes);
    expect(new Set(changes.filter((text) => /table|match/.test(text))).size).toBeLessThanOrEqual(1);
    await page.context().close();
  });
});

describe('wrong answers said plainly, and touch targets of 44 px', () => {
  it('the portal’s wrong password is also said in the form, tied to its fields, and the toast keeps its text', async () => {
    const page = await openAs(browser, null, LAPTOP);
    await page.goto(`${server.baseUrl}/restaurant-login`);
    await page.getByLabel('Username').fill('toit-tandoor');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-testid="toast"]').filter({ hasText: 'Invalid username or password' }).waitFor();
    await page.locator('form').getByText('Invalid username or password').waitFor();
    expect(await description(page.getByLabel('Password'))).toContain('Invalid username or password');
    await page.context().close();
  });

  it('a wrong code says only the sentence, without the field’s name in front', async () => {
    const diner = await createDiner(api, { prefix: 'kb', name: 'Nikhil Bhat' });
    const page = await openAs(browser, diner.token, LAPTOP);
    await page.goto(`${server.baseUrl}/me`);
    await page.getByLabel('Mobile number').fill('98000 00088');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Verify phone' }).click();
    const alert = page.locator('.phone-verify [role="alert"]');
    await alert.waitFor();
    expect(await alert.innerText()).not.toMatch(/^code:/i);
    await page.context().close();
  });

  it('a tag’s remove button and the drop page’s “← All drops” are at least 44 px', async () => {
    const page = await openAs(browser, null, PHONE);
    await page.goto(`${server.baseUrl}/dating/signup`);
    const tagInput = page.locator('.d-tag-entry input').first();
    await tagInput.fill('jazz');
    await tagInput.press('Enter');
    const remove = (await page.getByRole('button', { name: 'Remove jazz' }).boundingBox())!;
    expect(Math.min(remove.width, remove.height)).toBeGreaterThanOrEqual(44);

    const dropId = await openDrop('Big targets');
    await page.goto(`${server.baseUrl}/drops/${dropId}`);
    const back = (await page.getByRole('link', { name: '← All drops' }).boundingBox())!;
    expect(back.height).toBeGreaterThanOrEqual(44);
    await page.context().close();
  });
});
