import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DropList } from '#common/contract/drops.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { buildRestaurant, buildSlot } from '#server/test/factories.ts';
import { collectPageErrors } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, createDiner, expectAccessible, holdFirstFreeTable, saveScreenshot, SCREENSHOT_DIR } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Every main screen at 320, 375, 768 and 1280 px (no sideways scroll, exactly
 * one h1, axe clean at 375), what a screen reader hears in the key states (an empty /me, a
 * restaurant with every date full and a long name), and one keyboard-only booking read from the
 * accessibility tree after each step. One server and one browser for the file.
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('screens-sweep', (environment) => ({ server, browser, api } = environment));

/** A name long enough to wrap on every phone, with a word too long for 320 px unless it may break. */
const LONG_NAME = 'The Extraordinarily Long-Named Bengaluru Brasserie & Filtercoffeehouseandbakery';
const WIDTHS = [320, 375, 768, 1280];

type Who = 'diner' | 'visitor';
interface Screen {
  name: string;
  path: string;
  who: Who;
  /** The page's h1, once its data has loaded. */
  heading: string | RegExp;
}

let screens: Screen[];
let fresh: { token: string };
let staffToken: string;
let longSlug: string;

beforeAll(async () => {
  const today = todayInKolkata();
  // The hold screen works with the hold's id alone; another diner holds it so this one's /me stays empty.
  const holder = await createDiner(api, { prefix: 'sw', name: 'Hari Holder' });
  const holdId = await holdFirstFreeTable(api, holder.token, 'toit-tandoor', addDays(today, 2));
  // A first name as long as the header's account button will meet: it must shorten, not push the page.
  fresh = await createDiner(api, { prefix: 'sw', name: 'Venkataramanan Empty' });
  const staff = await api<{ token: string; restaurantId?: string }>('/api/auth/restaurant-login', {
    method: 'POST',
    body: { username: 'sakura-lane', password: 'staff1234' },
  });
  expect(staff.status).toBe(200);
  staffToken = staff.body.token;
  const restaurant = await api<{ id: string }>('/api/restaurants/sakura-lane');
  const drops = await api<DropList>('/api/drops');
  const drop = [...drops.body.open, ...drops.body.upcoming][0]!;

  // Every date full, and a long name: the restaurant a popular evening makes.
  const built = await buildRestaurant(server.database.db, { name: LONG_NAME, neighborhood: 'Old Airport Road, HAL 2nd Stage, Indiranagar' });
  longSlug = built.slug;
  for (let day = 0; day < 30; day++) await buildSlot(server.database.db, built.id, { date: addDays(today, day), time: '19:30', status: 'full' });

  screens = [
    { name: 'home', path: '/', who: 'diner', heading: /./ },
    { name: 'explore', path: '/explore-tonight', who: 'diner', heading: 'Explore Tonight' },
    { name: 'restaurant', path: '/r/sakura-lane', who: 'diner', heading: 'Sakura Lane' },
    { name: 'restaurant-full-long', path: `/r/${longSlug}`, who: 'diner', heading: LONG_NAME },
    { name: 'hold', path: `/hold/${holdId}`, who: 'diner', heading: 'Confirm your table' },
    { name: 'me-empty', path: '/me', who: 'diner', heading: 'My Profile' },
    { name: 'drops', path: '/drops', who: 'diner', heading: 'The city’s hardest tables, drawn fairly' },
    { name: 'drop', path: `/drops/${drop.id}`, who: 'diner', heading: drop.title },
    { name: 'waitlist', path: '/waitlist', who: 'diner', heading: 'Your waitlist' },
    { name: 'portal', path: `/admin/${restaurant.body.id}`, who: 'diner', heading: /Sakura Lane/ },
    { name: 'login', path: '/login', who: 'visitor', heading: 'Log in' },
    { name: 'signup', path: '/signup', who: 'visitor', heading: 'Create Account' },
    { name: 'dating', path: '/dating', who: 'visitor', heading: 'Real dates. Not swipes.' },
    { name: 'dating-signup', path: '/dating/signup', who: 'visitor', heading: 'Create your account' },
  ];
});

/** A context at this width: the diner (with the staff's portal token too) or a signed-out visitor. */
async function contextFor(who: Who, width: number): Promise<BrowserContext> {
  // bypassCSP only lets the test inject axe-core; the app itself runs under its real policy.
  const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
  // At 320 px every screen is drawn in the fallback fonts, as on a phone where the web font missed
  // its moment (font-display: optional): the tightest case, checked on every run instead of on the
  // runs where a busy machine happens to miss it (docs/decisions/292-layouts-hold-in-the-fallback-font.md).
  if (width === 320) await context.route(/\.woff2$/, (route) => route.abort());
  if (who === 'diner')
    await context.addInitScript(
      ([diner, staff]) => {
        localStorage.setItem('tablefair.customerToken', diner);
        localStorage.setItem('tablefair.restaurantToken', staff);
      },
      [fresh.token, staffToken],
    );
  return context;
}

/**
 * Opens the screen and waits for its h1 and for its loading placeholders to go. Once the app is
 * loaded, `inApp` goes there as a link would (the router follows the address), which keeps the
 * sweep fast.
 */
async function openScreen(page: Page, screen: Screen, inApp = false): Promise<void> {
  if (inApp) {
    await page.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, screen.path);
  } else {
    await page.goto(`${server.baseUrl}${screen.path}`);
  }
  await page.getByRole('heading', { level: 1, name: screen.heading }).first().waitFor();
  await page
    .waitForFunction(() => !document.querySelector('.skeleton, [aria-busy="true"]'), undefined, { timeout: 8_000 })
    .catch(() => expect.fail(`${screen.name} still loading after 8 s`));
}

/** How far the page is wider than the window (0 when it never scrolls sideways), naming what sticks out. */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const overflow = document.scrollingElement!.scrollWidth - window.innerWidth;
    if (overflow <= 0) return { overflow, culprits: [] };
    // The innermost elements past the right edge: the ones to fix.
    const past = [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5);
    const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
    const culprits = innermost
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').trim().slice(0, 30)}"`);
    return { overflow, culprits };
  });
}

/** On the portal: a tile label wider than its tile, or a bulk-add field past its panel (neither pans the page). */
async function portalCutOffs(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const label of document.querySelectorAll<HTMLElement>('.live-tile__label'))
      if (label.scrollWidth > label.clientWidth || label.getBoundingClientRect().right > label.parentElement!.getBoundingClientRect().right)
        found.push(`"${label.textContent}" cut off`);
    const panel = document.querySelector('.slots__bulk')?.getBoundingClientRect();
    for (const input of document.querySelectorAll<HTMLInputElement>('.slots__bulk-grid input')) {
      if (panel && input.getBoundingClientRect().right > panel.right) found.push(`${input.id || 'a field'} past the Add slots panel`);
      // Wide enough for "10:00 PM" and its picker icon (about 120 px in Chromium).
      if (input.type === 'time' && input.getBoundingClientRect().width < 120) found.push(`${input.id} too narrow for its time`);
    }
    return found;
  });
}

describe('every main screen at every width', () => {
  it.each(WIDTHS)('at %i px: never scrolls sideways, has exactly one h1, and (at 375 px) is axe clean', async (width) => {
    const problems: string[] = [];
    for (const who of ['diner', 'visitor'] as const) {
      const context = await contextFor(who, width);
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      let loaded = false;
      for (const screen of screens.filter((candidate) => candidate.who === who)) {
        await openScreen(page, screen, loaded);
        loaded = true;
        const { overflow, culprits } = await sidewaysOverflow(page);
        if (overflow > 0) problems.push(`${screen.name} at ${width}: ${overflow} px wider than the window (${culprits.join(', ')})`);
        if (screen.name === 'portal') problems.push(...(await portalCutOffs(page)).map((what) => `portal at ${width}: ${what}`));
        const headings = await page.getByRole('heading', { level: 1 }).allInnerTexts();
        if (headings.length !== 1) problems.push(`${screen.name} at ${width}: ${headings.length} h1s (${headings.join(' | ')})`);
        if (width === 375) {
          await expectAccessible(page, screen.name);
          await saveScreenshot(page, `sweep-${screen.name}-375`, { dismissToasts: true });
        }
        if (width === 1280 && screen.name === 'restaurant-full-long') await saveScreenshot(page, `sweep-${screen.name}-1280`);
        // The headers that had to be fitted to the smallest phone, as a person sees them.
        if (SCREENSHOT_DIR && width === 320 && ['home', 'portal', 'dating', 'restaurant-full-long'].includes(screen.name))
          await page.screenshot({ path: join(SCREENSHOT_DIR, `sweep-${screen.name}-320.png`) });
      }
      expect(errors, `page errors at ${width} (${who})`).toEqual([]);
      await context.close();
    }
    expect(problems).toEqual([]);
  });
});

/** One of the key states, opened as the diner in a context of its own. */
async function openKeyState(name: string, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await contextFor('diner', width);
  const page = await context.newPage();
  await openScreen(
    page,
    screens.find((screen) => screen.name === name)!,
  );
  return { context, page };
}

describe('what a screen reader hears in the key states', () => {
  it('an empty /me says there is nothing booked yet and offers a way to find a table', async () => {
    const { context, page } = await openKeyState('me-empty', 375);
    const tree = await page.locator('main').ariaSnapshot();
    expect(tree).toContain('- heading "My Profile" [level=1]');
    expect(tree).toMatch(
      /- region "My reservations":\n\s+- heading "My reservations" \[level=2\]\n\s+- paragraph:\n\s+- strong: No reservations yet\.\n\s+- text: Find a table for tonight and it will show up here\./,
    );
    expect(tree).toContain('- link "Find a table today"');
    await context.close();
  });

  it('a restaurant with every date full and a long name: the whole name, each date heard as fully booked, and the waitlist offered', async () => {
    const { context, page } = await openKeyState('restaurant-full-long', 320);
    const main = page.locator('main');
    const tree = await main.ariaSnapshot();
    expect(tree).toContain(`- heading "${LONG_NAME}" [level=1]`);
    expect(tree).toContain('- text: No availability');
    // Each date says its day, date and month, then that it is full: not "Wed 25 Full (Nov, …)".
    const dateTree = await main.getByRole('group', { name: 'Date' }).ariaSnapshot();
    const names = [...dateTree.matchAll(/- '?button "([^"]+)"/g)].map((match) => match[1]);
    expect(names.length, dateTree).toBeGreaterThanOrEqual(14);
    for (const name of names) expect(name).toMatch(/^(Today|Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}, fully booked: join the waitlist$/);
    await main.getByRole('button', { name: /^Today \d{1,2} [A-Z][a-z]{2}, fully booked: join the waitlist$/ }).waitFor();
    await main.getByRole('button', { name: 'Join the waitlist', exact: true }).first().waitFor();
    await context.close();
  });
});

/** Tabs forward until the focused element's accessible text matches, and returns how many stops it took. */
async function tabTo(page: Page, name: RegExp, limit = 80): Promise<number> {
  for (let stop = 1; stop <= limit; stop++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => {
      const element = document.activeElement;
      return element ? (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim() : '';
    });
    if (name.test(text)) return stop;
  }
  return expect.fail(`no control matching ${name} within ${limit} Tab presses`);
}

describe('a keyboard-only booking, read from the accessibility tree', () => {
  it('restaurant → a time → Reserve Now → Confirm → /me, each step heard', async () => {
    const diner = await createDiner(api, { prefix: 'sw', name: 'Kiran Keys' });
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await context.addInitScript((token) => localStorage.setItem('tablefair.customerToken', token), diner.token);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const date = addDays(todayInKolkata(), 6);
    await page.goto(`${server.baseUrl}/r/koshy-street-kitchen?date=${date}&party=2`);
    await page.getByRole('heading', { level: 1, name: 'Koshy Street Kitchen' }).waitFor();
    const main = page.locator('main');
    let tree = await main.ariaSnapshot();
    expect(tree).toContain('- heading "Koshy Street Kitchen" [level=1]');
    expect(tree).toMatch(/- group "Party size":[\s\S]*- button "2 guests" \[pressed\]/);

    // A time, by Tab and Enter: heard as pressed, and the bar says the date and time chosen.
    await tabTo(page, /^7:00 PM$/);
    await page.keyboard.press('Enter');
    tree = await main.ariaSnapshot();
    expect(tree).toContain('- button "7:00 PM" [pressed]');
    expect(await page.locator('.reserve-bar__value').first().innerText()).toMatch(/7:00 PM$/);

    // Reserve Now: the hold screen, its h1 focused (announced), the countdown a timer, the two actions.
    await tabTo(page, /^Reserve Now$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/hold\//);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    tree = await main.ariaSnapshot();
    expect(tree).toContain('- heading "Confirm your table" [level=1]');
    expect(tree).toContain('Koshy Street Kitchen');
    expect(tree).toContain('7:00 PM');
    expect(tree).toMatch(/- timer: .*\d+:\d\d/);
    expect(tree).toContain('- button "Confirm"');
    expect(tree).toContain('- button "Cancel Hold"');
    expect(tree).not.toMatch(/expired|run out/i);

    // Confirm: /me, its h1 announced, the booking listed as pending.
    await tabTo(page, /^Confirm$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/me$/);
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await main.getByText('Koshy Street Kitchen').first().waitFor();
    tree = await main.ariaSnapshot();
    expect(tree).toContain('- heading "My reservations" [level=2]');
    expect(tree).toMatch(/Koshy Street Kitchen[\s\S]*7:00 PM/);
    expect(tree).toMatch(/PENDING|Pending/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
