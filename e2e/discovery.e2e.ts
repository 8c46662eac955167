import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AvailableTodayResponse, PublicRestaurant } from '#common/contract/restaurants.ts';
import { toKolkata } from '#common/domain/time.ts';
import { buildRestaurant, buildSlot, type BuiltRestaurant } from '#server/test/factories.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { seriousAxeViolations } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Discovery in Chromium with no tile server: the live map (markers, filters, popup, the
 * small-screen card list, the load failure) and Explore Tonight's filters and time buttons.
 */
let server: E2eServer;
let browser: Browser;
let unplaced: BuiltRestaurant;
let smallTable: BuiltRestaurant;
let restaurants: PublicRestaurant[];
const tileRequests: string[] = [];

useE2eEnvironment('discovery', (environment) => ({ server, browser } = environment));

beforeAll(async () => {
  const db = server.database.db;
  // A restaurant without a position: listed by the API, ignored by the map.
  unplaced = await buildRestaurant(db, {
    name: 'Nowhere Noodle Bar',
    slug: 'nowhere-noodle-bar',
    category: 'asian',
    neighborhood: 'Domlur',
    lat: null,
    lng: null,
  });
  // A table for three in two hours: there for a party of 2, gone for 4 (off the map, like the one above).
  const inTwoHours = toKolkata(new Date(Date.now() + 2 * 3_600_000));
  smallTable = await buildRestaurant(db, {
    name: 'Tiny Table Tiffin',
    slug: 'tiny-table-tiffin',
    category: 'breakfast',
    neighborhood: 'Basavanagudi',
    cuisineTags: ['Tiffin'],
    emoji: '🥞',
    lat: null,
    lng: null,
  });
  await buildSlot(db, smallTable.id, { date: inTwoHours.date, time: inTwoHours.time, capacity: 3 });
  restaurants = (await (await fetch(`${server.baseUrl}/api/restaurants`)).json()) as PublicRestaurant[];
});

/** A browser context where the tile server cannot be reached, as on a machine with no internet. */
async function offlineContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  // bypassCSP only so axe-core can be injected; the app's own CSP is tested elsewhere. The map
  // moves here as it does for most diners (the keyboard journey covers it with reduced motion).
  const context = await browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'no-preference' });
  await context.route(
    (url) => url.origin !== new URL(server.baseUrl).origin,
    (route) => {
      tileRequests.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  return context;
}

const markers = (page: Page) => page.locator('.leaflet-marker-pane .leaflet-marker-icon');
const markerSlugs = (page: Page) =>
  page.locator('.leaflet-marker-pane .map-marker').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.slug ?? '').sort());
const cardSlugs = (page: Page) =>
  page.locator('[data-testid="map-card"]').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.slug ?? '').sort());
const slugsOf = (list: PublicRestaurant[]) => list.map((restaurant) => restaurant.slug).sort();
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

async function openMap(page: Page) {
  await page.goto(`${server.baseUrl}/map`);
  await page.getByRole('heading', { name: 'Find Tables on the Map', level: 1 }).waitFor();
  await expect.poll(() => markers(page).count(), { timeout: 10_000 }).toBeGreaterThan(0);
}

describe('the live map (/map)', () => {
  it('places one marker per restaurant with a position, with no tile server, and filters them', async () => {
    const placed = restaurants.filter((restaurant) => restaurant.position);
    expect(placed).toHaveLength(44);
    expect(restaurants.map((restaurant) => restaurant.slug)).toContain(unplaced.slug);

    const context = await offlineContext(LAPTOP);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    tileRequests.length = 0;
    await openMap(page);

    // Banner, links and the map's furniture.
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('link', { name: 'View Map' }).getAttribute('href')).toBe('#map');
    await page.getByText('Real-time availability, no bots, fair access').waitFor();
    await expect.poll(() => markers(page).count()).toBe(44);
    expect(await markerSlugs(page)).toEqual(slugsOf(placed));
    expect(await page.locator(`.map-marker[data-slug="${unplaced.slug}"]`).count()).toBe(0);
    expect(tileRequests.some((url) => url.includes('basemaps.cartocdn.com/dark_all/'))).toBe(true);
    await expect.poll(() => page.locator('.leaflet-control-attribution').innerText()).toContain('OpenStreetMap');
    await page.getByRole('button', { name: 'Zoom in' }).waitFor();

    // 40 px markers, red when hot, blue otherwise; the map is 70vh with a 500 px floor.
    const box = await markers(page).first().boundingBox();
    expect([box?.width, box?.height]).toEqual([40, 40]);
    const colours = await page
      .locator('.map-marker')
      .evaluateAll((nodes) => nodes.map((node) => [(node as HTMLElement).dataset.hot, getComputedStyle(node).backgroundColor]));
    expect(new Set(colours.filter(([hot]) => hot === 'true').map(([, colour]) => colour))).toEqual(new Set(['rgb(220, 38, 38)']));
    expect(new Set(colours.filter(([hot]) => hot === 'false').map(([, colour]) => colour))).toEqual(new Set(['rgb(37, 99, 235)']));
    const mapBox = await page.locator('.leaflet-container').boundingBox();
    expect(mapBox?.height).toBeCloseTo(Math.max(500, LAPTOP.height * 0.7), 0);

    // Filter bar: All, each category present (emoji + capitalised name), Hot Spots.
    const categories = [...new Set(placed.map((restaurant) => restaurant.category))].sort();
    const filterNames = await page.getByRole('group', { name: 'Show restaurants' }).getByRole('button').allInnerTexts();
    expect(filterNames.map((name) => name.replace(/^\P{L}+/u, '').trim())).toEqual(['All', ...categories.map(capitalised), 'Hot Spots']);
    expect(await page.getByRole('button', { name: 'All', exact: true }).getAttribute('aria-pressed')).toBe('true');

    // A category click leaves that category's markers only.
    const pizza = placed.filter((restaurant) => restaurant.category === 'pizza');
    expect(pizza.length).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Pizza' }).click();
    expect(await page.getByRole('button', { name: 'Pizza' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => markerSlugs(page)).toEqual(slugsOf(pizza));
    await page.getByText(`Showing ${pizza.length} of 44 restaurants`).waitFor();

    // Hot Spots: only the hot ones, all red.
    const hot = placed.filter((restaurant) => restaurant.hot);
    await page.getByRole('button', { name: 'Hot Spots' }).click();
    await expect.poll(() => markerSlugs(page)).toEqual(slugsOf(hot));
    expect(await page.locator('.map-marker:not(.map-marker--hot)').count()).toBe(0);

    // The card list is for small screens only.
    expect(await page.getByRole('heading', { name: 'Available Restaurants' }).isVisible()).toBe(false);

    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(() => markers(page).count()).toBe(44);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a popup with name, neighbourhood and Reserve Now, by mouse and by keyboard, that leads to /r/{slug}', async () => {
    const context = await offlineContext(LAPTOP);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await openMap(page);
    const target = restaurants.find((restaurant) => restaurant.slug === 'toit-tandoor')!;

    // Mouse: Hot Spots spreads the markers out enough to click one.
    await page.getByRole('button', { name: 'Hot Spots' }).click();
    await expect.poll(() => markers(page).count()).toBe(restaurants.filter((restaurant) => restaurant.hot).length);
    await page.waitForTimeout(600); // the 100 ms fit-to-bounds and its animation
    await markers(page)
      .filter({ has: page.locator(`[data-slug="${target.slug}"]`) })
      .click();
    const popup = page.locator('.leaflet-popup');
    await popup.getByText(target.name).waitFor();
    await popup.getByText(target.neighborhood).waitFor();
    expect(await popup.getByRole('link', { name: 'Reserve Now' }).getAttribute('href')).toBe(`/r/${target.slug}`);
    await popup.getByRole('button', { name: 'Close popup' }).click();
    await popup.waitFor({ state: 'detached' });

    // Keyboard: the marker is focusable, Enter opens its popup and moves focus to Reserve Now.
    const other = restaurants.find((restaurant) => restaurant.hot && restaurant.slug !== target.slug && restaurant.position)!;
    const otherMarker = markers(page).filter({ has: page.locator(`[data-slug="${other.slug}"]`) });
    expect(await otherMarker.getAttribute('tabindex')).toBe('0');
    expect(await otherMarker.getAttribute('title')).toContain(other.name);
    await otherMarker.focus();
    await page.keyboard.press('Enter');
    await popup.getByText(other.name).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reserve Now');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/r/${other.slug}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the Available Restaurants cards at 375 px, following the filter', async () => {
    const context = await offlineContext(PHONE);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await openMap(page);
    const placed = restaurants.filter((restaurant) => restaurant.position);
    const list = page.getByRole('heading', { name: 'Available Restaurants' });
    await list.waitFor({ state: 'visible' });
    await expect.poll(() => cardSlugs(page)).toEqual(slugsOf(placed));
    const mapBox = await page.locator('.leaflet-container').boundingBox();
    expect(mapBox?.height).toBeCloseTo(Math.max(500, PHONE.height * 0.7), 0);

    const dessert = placed.filter((restaurant) => restaurant.category === 'dessert');
    await page.getByRole('button', { name: 'Dessert' }).click();
    await expect.poll(() => cardSlugs(page)).toEqual(slugsOf(dessert));
    await expect.poll(() => markerSlugs(page)).toEqual(slugsOf(dessert));

    await page.getByRole('button', { name: 'Hot Spots' }).click();
    const hot = placed.filter((restaurant) => restaurant.hot);
    await expect.poll(() => cardSlugs(page)).toEqual(slugsOf(hot));

    // Each card shows emoji, name and neighbourhood, links to the restaurant and has Reserve.
    const first = hot.slice().sort((a, b) => a.slug.localeCompare(b.slug))[0];
    const card = page.locator(`[data-testid="map-card"][data-slug="${first.slug}"]`);
    expect(await card.innerText()).toContain(first.neighborhood);
    expect(await card.innerText()).toContain(first.emoji);
    expect(await card.getByRole('link', { name: first.name, exact: true }).getAttribute('href')).toBe(`/r/${first.slug}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await card.getByRole('link', { name: `Reserve at ${first.name}` }).click();
    await page.waitForURL(`${server.baseUrl}/r/${first.slug}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'Failed to load restaurants from API' in amber when the list fails, and recovers on retry", async () => {
    for (const failure of ['server', 'network'] as const) {
      const context = await offlineContext(PHONE);
      const page = await context.newPage();
      await page.route('**/api/restaurants', (route) =>
        failure === 'server'
          ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Database unavailable"}' })
          : route.abort('connectionrefused'),
      );
      await page.goto(`${server.baseUrl}/map`);
      const message = page.getByText('Failed to load restaurants from API');
      await message.waitFor({ timeout: 15_000 });
      expect(await message.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(245, 158, 11)');
      expect(await markers(page).count()).toBe(0);
      expect(await page.locator('[data-testid="map-card"]').count()).toBe(0);
      expect(await page.locator('.leaflet-container').isVisible()).toBe(true);

      await page.unroute('**/api/restaurants');
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => markers(page).count(), { timeout: 10_000 }).toBe(44);
      expect(await message.count()).toBe(0);
      await context.close();
    }
  });
});

describe('Explore Tonight (/explore-tonight)', () => {
  async function openExplore(page: Page, query = ''): Promise<AvailableTodayResponse['restaurants']> {
    const response = page.waitForResponse((r) => r.url().endsWith('/api/discover/available-today'));
    await page.goto(`${server.baseUrl}/explore-tonight${query}`);
    const body = (await (await response).json()) as AvailableTodayResponse;
    await page.getByRole('heading', { name: 'Explore Tonight', level: 1 }).waitFor();
    return body.restaurants;
  }
  const cards = (page: Page) =>
    page.locator('[data-testid="explore-card"]').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.slug ?? ''));

  it('lists every restaurant with a table, filters by neighbourhood, cuisine and party size, and a time opens the restaurant at that time', async () => {
    const context = await offlineContext(PHONE);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const entries = await openExplore(page);
    expect(entries.length).toBeGreaterThan(10);
    await expect.poll(() => cards(page)).toEqual(entries.map((entry) => entry.restaurant.slug));
    expect(entries.map((entry) => entry.restaurant.slug)).toContain(smallTable.slug);

    // Times are 12-hour buttons.
    const firstCard = page.locator('[data-testid="explore-card"]').first();
    const firstTime = await firstCard.locator('.explore-time').first().innerText();
    expect(firstTime).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
    expect(await firstCard.locator('.explore-time').count()).toBe(entries[0].slots.length);

    // Neighbourhood.
    const hood = 'Indiranagar';
    await page.getByLabel('Neighbourhood').selectOption(hood);
    const inHood = entries.filter((entry) => entry.restaurant.neighborhood === hood);
    expect(inHood.length).toBeGreaterThan(1);
    await expect.poll(() => cards(page)).toEqual(inHood.map((entry) => entry.restaurant.slug));
    expect(new URL(page.url()).searchParams.get('hood')).toBe(hood);

    // Cuisine, on top of the neighbourhood.
    const cuisine = inHood[0].restaurant.cuisineTags[0];
    await page.getByLabel('Cuisine').selectOption(cuisine);
    await expect
      .poll(() => cards(page))
      .toEqual(inHood.filter((entry) => entry.restaurant.cuisineTags.includes(cuisine)).map((entry) => entry.restaurant.slug));

    // A combination with nothing says what to do next.
    await page.getByLabel('Neighbourhood').selectOption('Basavanagudi');
    await page.getByLabel('Cuisine').selectOption('Tiffin');
    await expect.poll(() => cards(page)).toEqual([smallTable.slug]);
    await page.getByRole('radio', { name: '4 guests' }).check();
    await page.getByText('No tables match', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect.poll(() => cards(page)).toEqual(entries.map((entry) => entry.restaurant.slug));
    expect(await page.getByRole('radio', { name: '2 guests' }).isChecked()).toBe(true);

    // Party size: the table for three drops out for four, and each time left seats four.
    await page.getByRole('radio', { name: '4 guests' }).check();
    const forFour = entries.filter((entry) => entry.slots.some((slot) => slot.freeCovers >= 4));
    await expect.poll(() => cards(page)).toEqual(forFour.map((entry) => entry.restaurant.slug));
    expect(await cards(page)).not.toContain(smallTable.slug);
    expect(new URL(page.url()).searchParams.get('party')).toBe('4');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A time goes straight to that time on the restaurant page.
    const entry = forFour[0];
    const slot = entry.slots.find((candidate) => candidate.freeCovers >= 4)!;
    const card = page.locator(`[data-testid="explore-card"][data-slug="${entry.restaurant.slug}"]`);
    await card.locator('.explore-time').first().click();
    await page.waitForURL((url) => url.pathname === `/r/${entry.restaurant.slug}`);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ date: slot.date, time: slot.time, party: '4' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads its filters from the address and offers a retry when the call fails', async () => {
    const context = await offlineContext(LAPTOP);
    const page = await context.newPage();
    const entries = await openExplore(page, '?hood=Koramangala&party=6');
    expect(await page.getByLabel('Neighbourhood').inputValue()).toBe('Koramangala');
    expect(await page.getByRole('radio', { name: '6 guests' }).isChecked()).toBe(true);
    const expected = entries.filter((entry) => entry.restaurant.neighborhood === 'Koramangala' && entry.slots.some((slot) => slot.freeCovers >= 6));
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => cards(page)).toEqual(expected.map((entry) => entry.restaurant.slug));
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.route('**/api/discover/available-today', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Service unavailable"}' }),
    );
    await page.reload();
    await page.getByText('We couldn’t load tonight’s tables.').waitFor({ timeout: 15_000 });
    await page.unroute('**/api/discover/available-today');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => cards(page), { timeout: 10_000 }).toEqual(expected.map((entry) => entry.restaurant.slug));
    await context.close();
  });
});
