import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AdminSlot } from '#common/contract/portal.ts';
import { addDays, formatDateShort, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors } from './support/browser.ts';
import { apiClient, createDiner, openAs as openPageAs, saveScreenshot, signInStaff, toastTexts } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * How pages behave for the people using them, in Chromium: nothing wider than the phone, a new page
 * opening at its top with its heading announced, Sign Out's landing, the whole date and time in the
 * Reserve Now bar, toasts that neither cover the hold screen's buttons nor outlive what they
 * answered, the mobile menu closing as people expect, and the small ones (a form's own bounds,
 * each page's title, full page loads without console noise, the dev mailbox signed out).
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
// The app's service worker runs here: this file checks that full page loads log nothing, and the
// worker's registration is part of every full load (decision 290).
useE2eEnvironment('navigation-toasts-and-phone-layout', (environment) => ({ server, browser, api } = environment), {}, { serviceWorker: true });

const openAs = (token: string | null, viewport: { width: number; height: number }): Promise<Page> => openPageAs(browser, token, viewport);

/** The element that has focus, described as its tag and text (for messages). */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => `${document.activeElement?.tagName ?? ''} ${document.activeElement?.textContent?.trim().slice(0, 60) ?? ''}`);
}

/** Waits until the page's h1 has focus (the new page announced to a screen reader), or fails naming what has it. */
async function expectHeadingFocused(page: Page, name: string): Promise<void> {
  await page
    .waitForFunction(() => document.activeElement?.tagName === 'H1', undefined, { timeout: 5_000 })
    .catch(async () => expect.fail(`h1 focused after the navigation, found ${await focused(page)}`));
  expect(await focused(page)).toBe(`H1 ${name}`);
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Fails when a visible toast covers Confirm or Cancel Hold on the hold screen; returns how many toasts were checked. */
async function expectToastsClearOfHoldActions(page: Page, where: string): Promise<number> {
  const toasts = await page.getByTestId('toast').evaluateAll((nodes) =>
    nodes.map((node) => {
      const { x, y, width, height } = node.getBoundingClientRect();
      return { x, y, width, height, text: node.textContent ?? '' };
    }),
  );
  for (const name of ['Confirm', 'Cancel Hold']) {
    const button = await page.getByRole('button', { name, exact: true }).boundingBox();
    expect(button, `${name} on screen (${where})`).toBeTruthy();
    for (const toast of toasts) expect(overlaps(toast, button!), `"${toast.text.slice(0, 40)}" over ${name} (${where})`).toBe(false);
  }
  // The dismiss button is a real touch target.
  for (const box of await page
    .getByRole('button', { name: 'Dismiss' })
    .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as Box))) {
    expect(box.width, `Dismiss width (${where})`).toBeGreaterThanOrEqual(44);
    expect(box.height, `Dismiss height (${where})`).toBeGreaterThanOrEqual(44);
  }
  return toasts.length;
}

/** Staff mark every slot of each date full, through the portal's API. */
async function markDatesFull(slug: string, dates: string[]): Promise<void> {
  const staff = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: slug, password: 'staff1234' } });
  expect(staff.status).toBe(200);
  for (const date of dates) {
    const slots = await api<AdminSlot[]>(`/api/admin/slots?date=${date}`, { token: staff.body.token });
    expect(slots.status).toBe(200);
    for (const slot of slots.body)
      expect((await api(`/api/admin/slots/${slot.id}`, { method: 'PATCH', token: staff.body.token, body: { status: 'full' } })).status).toBe(200);
  }
}

describe('how pages behave: phone layout, navigation, toasts and menus', () => {
  it('a restaurant with full dates never scrolls sideways on a phone', async () => {
    const slug = 'the-filter-room';
    const today = todayInKolkata();
    await markDatesFull(slug, [addDays(today, 2), addDays(today, 12), addDays(today, 27)]);
    for (const width of [375, 320]) {
      const page = await openAs(null, { width, height: 740 });
      const errors = collectPageErrors(page);
      await page.goto(`${server.baseUrl}/r/${slug}`);
      await page.locator('.date-chip--full').first().waitFor();
      expect(await page.locator('.date-chip--full').count()).toBeGreaterThanOrEqual(3);
      const { scrollWidth, innerWidth, bodyWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        bodyWidth: document.body.scrollWidth,
      }));
      expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(innerWidth);
      expect(bodyWidth, `body width at ${width} px`).toBeLessThanOrEqual(innerWidth);
      // The hidden words still reach a screen reader.
      expect(await page.locator(`.date-chip[data-date="${addDays(today, 2)}"]`).getAttribute('aria-pressed')).toBe('false');
      expect(await page.locator(`.date-chip[data-date="${addDays(today, 2)}"]`).textContent()).toContain('fully booked: join the waitlist');
      await saveScreenshot(page, `page-full-dates-${width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('a new page opens at its top with its heading announced, and Back returns to where the diner was', async () => {
    const diner = await createDiner(api, { prefix: 're', name: 'Meera Scroll' });
    const page = await openAs(diner.token, { width: 375, height: 740 });
    const errors = collectPageErrors(page);
    const date = addDays(todayInKolkata(), 3);
    await page.goto(`${server.baseUrl}/r/koshy-street-kitchen?date=${date}&time=19%3A00&party=2`);
    await page.getByRole('heading', { level: 1, name: 'Koshy Street Kitchen' }).waitFor();
    expect(await page.getByRole('button', { name: '7:00 PM', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForFunction(() => window.scrollY > 500);
    const scrolledTo = await page.evaluate(() => window.scrollY);

    await page.getByRole('button', { name: 'Reserve Now' }).click();
    await page.waitForURL(/\/hold\//);
    await page.getByRole('heading', { level: 1, name: 'Confirm your table' }).waitFor();
    expect(await page.evaluate(() => window.scrollY), 'the hold screen opens at its top').toBe(0);
    await expectHeadingFocused(page, 'Confirm your table');

    // Back: the restaurant page where the diner left it.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Koshy Street Kitchen' }).waitFor();
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 80, scrolledTo, { timeout: 5_000 }).catch(() => undefined);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo), 'Back restores the scroll').toBeLessThan(80);

    // A time on Explore Tonight, far down the list, opens the restaurant at its top.
    await page.goto(`${server.baseUrl}/explore-tonight`);
    await page.getByRole('heading', { level: 1, name: 'Explore Tonight' }).waitFor();
    const times = page.locator('a.explore-time');
    await times.first().waitFor();
    const far = times.nth(Math.min(8, (await times.count()) - 1));
    await far.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await far.click();
    await page.waitForURL(/\/r\/[a-z0-9-]+\?/);
    // The address changes before React renders the new page (a transition): wait for the restaurant's
    // own h1, not Explore Tonight's, which is still on screen for a moment.
    const heading = page.locator('h1.restaurant__name');
    await heading.waitFor();
    expect(await page.evaluate(() => window.scrollY), 'the restaurant opens at its top').toBe(0);
    await expectHeadingFocused(page, await heading.innerText());

    // The 404 page has an h1 to announce.
    await page.goto(`${server.baseUrl}/no-such-page`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('Sign Out on /me lands on the home page, signed out', async () => {
    const diner = await createDiner(api, { prefix: 're', name: 'Ravi Signout' });
    const page = await openAs(null, { width: 375, height: 740 });
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByLabel('Username').fill(diner.username);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.goto(`${server.baseUrl}/me`);
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // Nothing bounces the diner on to the login page afterwards.
    await page.waitForTimeout(500);
    expect(page.url()).toBe(`${server.baseUrl}/`);
    expect(await page.getByRole('link', { name: 'Log in' }).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => localStorage.getItem('tablefair.customerToken'))).toBeNull();
    // A visitor who is not signed in is still sent to sign in first.
    await page.goto(`${server.baseUrl}/me`);
    await page.waitForURL(`${server.baseUrl}/login?next=%2Fme`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a success takes away the error toast it answers', async () => {
    // Reserve Now with no time, then with one: the hold screen shows the booking, not the old error.
    const diner = await createDiner(api, { prefix: 're', name: 'Tara Stale' });
    const page = await openAs(diner.token, { width: 1280, height: 800 });
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/r/sakura-lane?date=${addDays(todayInKolkata(), 4)}&party=2`);
    await page.getByRole('heading', { level: 1, name: 'Sakura Lane' }).waitFor();
    await page.getByRole('button', { name: '7:00 PM', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Reserve Now' }).click();
    await page.getByText('Please select a time slot').waitFor();
    await page.getByRole('button', { name: '7:00 PM', exact: true }).click();
    await page.getByRole('button', { name: 'Reserve Now' }).click();
    await page.getByRole('heading', { level: 1, name: 'Confirm your table' }).waitFor();
    // The hold screen's own line (the held toast now starts with the same words).
    await page.getByText('Table held for you', { exact: true }).waitFor();
    expect(await toastTexts(page)).not.toContain('Please select a time slot');

    // The portal: a wrong password, then the right one.
    const staffPage = await openAs(null, { width: 1280, height: 800 });
    await staffPage.goto(`${server.baseUrl}/restaurant-login`);
    await staffPage.getByLabel('Username').fill('sakura-lane');
    await staffPage.getByLabel('Password').fill('wrong-password');
    await staffPage.getByRole('button', { name: 'Sign in' }).click();
    await staffPage.getByTestId('toast').getByText('Invalid username or password').waitFor();
    await signInStaff(staffPage, server.baseUrl, { username: 'sakura-lane', password: 'staff1234' });
    expect(await toastTexts(staffPage)).not.toContain('Invalid username or password');
    expect(errors).toEqual([]);
    await staffPage.context().close();
    await page.context().close();
  });

  it('toasts never cover Confirm or Cancel Hold, and their dismiss button is 44 px', async () => {
    const viewports = [
      { width: 1280, height: 800 },
      { width: 1280, height: 900 },
      { width: 375, height: 740 },
    ];
    for (const [index, viewport] of viewports.entries()) {
      const where = `${viewport.width}×${viewport.height}`;
      const diner = await createDiner(api, { prefix: 're', name: `Kiran Toast${index}` });
      const page = await openAs(diner.token, viewport);
      const errors = collectPageErrors(page);
      const date = addDays(todayInKolkata(), 5 + index);
      await page.goto(`${server.baseUrl}/r/trattoria-nonna-lucia?date=${date}&time=19%3A30&party=2`);
      await page.getByRole('heading', { level: 1, name: 'Trattoria Nonna Lucia' }).waitFor();
      await page.getByRole('button', { name: 'Reserve Now' }).click();
      await page.getByRole('heading', { level: 1, name: 'Confirm your table' }).waitFor();
      await page.getByText('Table held for you', { exact: true }).waitFor();
      await page.getByTestId('toast').getByText('Table held for you:').first().waitFor();
      expect(await expectToastsClearOfHoldActions(page, `${where}, one toast`)).toBe(1);
      await saveScreenshot(page, `page-hold-toast-${viewport.width}x${viewport.height}`);

      // Cancel the hold, book again: two toasts on the hold screen.
      await page.getByRole('button', { name: 'Cancel Hold', exact: true }).click();
      await page.getByRole('button', { name: 'Yes, cancel hold' }).click();
      await page.getByRole('heading', { level: 1, name: 'Trattoria Nonna Lucia' }).waitFor();
      // Back on the day the diner was booking, not on the first free day (which late in the evening is today, its 8 PM gone).
      expect(new URL(page.url()).searchParams.get('date')).toBe(date);
      await page.getByRole('button', { name: '8:00 PM', exact: true }).click();
      await page.getByRole('button', { name: 'Reserve Now' }).click();
      await page.getByRole('heading', { level: 1, name: 'Confirm your table' }).waitFor();
      await page.getByText('Table held for you', { exact: true }).waitFor();
      await page.getByTestId('toast').getByText('Table held for you:').first().waitFor();
      expect(await expectToastsClearOfHoldActions(page, `${where}, two toasts`)).toBe(2);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('the Reserve Now bar shows the whole chosen date and time on a phone', async () => {
    for (const width of [375, 360, 320]) {
      const page = await openAs(null, { width, height: 740 });
      const errors = collectPageErrors(page);
      // A Wednesday, the widest weekday in the bar.
      let date = addDays(todayInKolkata(), 1);
      while (!formatDateShort(date).startsWith('Wed')) date = addDays(date, 1);
      await page.goto(`${server.baseUrl}/r/taco-tuesday-co?date=${date}&time=21%3A30&party=2`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const expected = `${formatDateShort(date)} · 9:30 PM`;
      const value = page.locator('.reserve-bar__value').first();
      await page.getByRole('button', { name: '9:30 PM', exact: true }).waitFor();
      expect((await value.innerText()).replace(/\s+/g, ' ').trim()).toBe(expected);
      const fit = await value.evaluate((node) => {
        const bar = node.closest('.reserve-bar')!.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(node);
        const text = range.getBoundingClientRect();
        return {
          scrollWidth: node.scrollWidth,
          clientWidth: node.clientWidth,
          textRight: text.right,
          barRight: bar.right,
          box: node.getBoundingClientRect().toJSON(),
        };
      });
      expect(fit.scrollWidth, `the time is not cut off at ${width} px`).toBeLessThanOrEqual(fit.clientWidth);
      expect(fit.textRight).toBeLessThanOrEqual(fit.barRight);
      // Reserve Now keeps its size beside it.
      const button = await page.getByRole('button', { name: 'Reserve Now' }).boundingBox();
      expect(button!.x).toBeGreaterThanOrEqual(fit.box.x + fit.box.width);
      expect(button!.x + button!.width).toBeLessThanOrEqual(width);
      expect(button!.height).toBeGreaterThanOrEqual(44);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await saveScreenshot(page, `page-reserve-bar-${width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('each dating page has its own title, and full page loads log no warnings or errors', async () => {
    const page = await openAs(null, { width: 375, height: 740 });
    const errors = collectPageErrors(page);
    const logged: string[] = [];
    page.on('console', (message) => {
      // The browser's own line for a refused request (the signed-out /dating/app's 401) is not the app's log.
      if (message.text().startsWith('Failed to load resource')) return;
      if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()} (${page.url()})`);
    });
    for (const path of ['/', '/r/toit-tandoor', '/explore-tonight']) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    const titles = new Map<string, string>();
    for (const path of ['/dating', '/dating/login', '/dating/signup']) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      titles.set(path, await page.title());
    }
    expect(new Set(titles.values()).size, JSON.stringify([...titles])).toBe(3);
    for (const title of titles.values()) expect(title).toContain('Tablefair Dating');
    // Signed out, /dating/app sends the visitor to log in: that load is quiet too.
    await page.goto(`${server.baseUrl}/dating/app`);
    await page.waitForURL(`${server.baseUrl}/dating/login`);
    await page.waitForLoadState('networkidle');
    expect(logged.filter((line) => line.includes('HydrateFallback'))).toEqual([]);
    expect(logged).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the portal’s Add slots form refuses an interval of 0 in its own words, tied to the field, without asking the server', async () => {
    for (const viewport of [
      { width: 375, height: 740 },
      { width: 1280, height: 800 },
    ]) {
      const page = await openAs(null, viewport);
      const errors = collectPageErrors(page);
      await signInStaff(page, server.baseUrl, { username: 'ember-oak', password: 'staff1234' });
      const bulkRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/admin/slots/bulk')) bulkRequests.push(request.url());
      });
      const interval = page.getByLabel('Interval (min)');
      await interval.fill('0');
      await page.getByRole('button', { name: 'Add slots' }).click();
      // The form's own sentence, with the contract's bounds, beside the field and in its description.
      const message = 'Choose a whole number of minutes from 5 to 240.';
      await page.getByText(message).waitFor();
      expect(await interval.getAttribute('aria-invalid')).toBe('true');
      const described = await interval.evaluate((element) =>
        (element.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(described).toBe(message);
      // The focus goes to the field to fix; the server's raw words never show.
      expect(await interval.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await page.locator('body').innerText()).not.toContain('interval must be between');
      expect(bulkRequests).toEqual([]);
      await interval.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `page-slots-interval-${viewport.width}`);
      // Fixing the field takes the message away, and the form is sent.
      await interval.fill('60');
      expect(await page.getByText(message).count()).toBe(0);
      await page.getByRole('button', { name: 'Add slots' }).click();
      await page.getByText(/^Added \d+ slots?/).waitFor();
      expect(bulkRequests).toHaveLength(1);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('the mobile menu closes on Escape (focus back on its button), on Tab past its last item, and on a click outside', async () => {
    const page = await openAs(null, { width: 375, height: 740 });
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/explore-tonight`);
    await page.getByRole('heading', { level: 1, name: 'Explore Tonight' }).waitFor();
    const menuButton = page.getByRole('button', { name: 'Menu' });
    // The panel, found even while hidden (then it has no role to find it by).
    const menu = page.locator(`[id="${await menuButton.getAttribute('aria-controls')}"]`);
    expect(await menu.getAttribute('aria-label')).toBe('Main');
    const isOpen = async () => (await menuButton.getAttribute('aria-expanded')) === 'true' && (await menu.isVisible());

    // Escape: closed, and the focus is back on the button.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    expect(await isOpen()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('A Tonight');
    await saveScreenshot(page, 'page-mobile-menu-open-375');
    await page.keyboard.press('Escape');
    expect(await isOpen()).toBe(false);
    expect(await menuButton.evaluate((element) => element === document.activeElement)).toBe(true);

    // Tab past the last item: the menu closes behind the focus.
    await page.keyboard.press('Enter');
    expect(await isOpen()).toBe(true);
    for (const name of ['Tonight', 'Map', 'Drops', 'Dating']) {
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe(`A ${name}`);
    }
    await page.keyboard.press('Tab');
    expect(await isOpen()).toBe(false);
    expect(await menu.evaluate((element) => element.contains(document.activeElement))).toBe(false);

    // A click outside it.
    await menuButton.click();
    expect(await isOpen()).toBe(true);
    // The page's left margin, below the panel: nothing there to click but the page.
    await page.mouse.click(4, 500);
    expect(await isOpen()).toBe(false);

    // A link in it still goes, and closes it.
    await menuButton.click();
    await menu.getByRole('link', { name: 'Drops' }).click();
    await page.waitForURL(`${server.baseUrl}/drops`);
    expect(await isOpen()).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a signed-out visitor to /dev/mailbox is asked to sign in, not shown an error, and the API answers 401', async () => {
    expect((await api('/api/dev/mailbox')).status).toBe(401);
    for (const width of [375, 1280]) {
      const page = await openAs(null, { width, height: 800 });
      const errors = collectPageErrors(page);
      await page.goto(`${server.baseUrl}/dev/mailbox`);
      await page.getByRole('heading', { level: 1, name: 'Dev mailbox' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Sign in to see your messages' }).waitFor();
      const signIn = page.getByRole('main').getByRole('link', { name: 'Sign in' });
      expect(await signIn.getAttribute('href')).toBe('/login?next=%2Fdev%2Fmailbox');
      expect(await page.getByText('The mailbox could not load').count()).toBe(0);
      expect(await toastTexts(page)).toBe('');
      await saveScreenshot(page, `page-mailbox-signed-out-${width}`);
      await signIn.click();
      await page.waitForURL(`${server.baseUrl}/login?next=%2Fdev%2Fmailbox`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
