import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Serious and critical axe-core violations on the page as it is now (empty when clean).
 * axe is injected once per document (a second check of the same screen reuses it), and asked to
 * work out only its violations: every rule still runs on every node, but the passes, the
 * incomplete and the inapplicable results, which this check never reads, are cut to one node each
 * instead of being gathered for the whole page (axe's `resultTypes`; docs/performance.md, "Test
 * suite time").
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(context: Document, options: { resultTypes: string[] }): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Fails with the violations listed, naming the screen. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousAxeViolations(page), `axe on ${screen}`).toEqual([]);
}

/** Whether the page is wider than its viewport, so that it scrolls sideways (nothing should, at 375 px or on a laptop). */
export function hasSidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** The visible text of the toasts (the spec's alerts). */
export async function toastTexts(page: Page): Promise<string> {
  return (await page.locator('[data-testid="toast"]').allInnerTexts()).join('\n');
}

/** Plain API calls from the test, with an optional bearer token. */
export function apiClient(baseUrl: string) {
  return async function api<T>(path: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as T };
  };
}

/** Signs up a diner through the API and logs them in; `prefix` keeps usernames apart per journey. */
export async function createDiner(
  api: ReturnType<typeof apiClient>,
  options: { prefix: string; name: string; phone?: string },
): Promise<{ token: string; username: string; email: string }> {
  const username = `${options.prefix}_${options.name.split(' ')[0]!.toLowerCase()}_${Date.now() % 1_000_000}`;
  const email = `${username}@example.com`;
  const signup = await api('/api/auth/signup', {
    method: 'POST',
    body: { username, password: 'password123', name: options.name, email, ...(options.phone ? { phone: options.phone } : {}) },
  });
  expect(signup.status).toBe(201);
  const login = await api<{ token: string }>('/api/auth/login', { method: 'POST', body: { username, password: 'password123' } });
  expect(login.status).toBe(200);
  return { token: login.body.token, username, email };
}

/**
 * A one-time drop of `capacity` covers at `time` on `date`, announced by staff through the API, whose
 * entries opened a minute ago and close (and are drawn) at `closesAt`; returns its id.
 */
export async function createOpenDrop(
  api: ReturnType<typeof apiClient>,
  staffToken: string,
  drop: { title: string; description: string; date: string; time: string; capacity: number; closesAt: string },
): Promise<string> {
  const created = await api<{ id: string }>('/api/admin/drops', {
    method: 'POST',
    token: staffToken,
    body: {
      title: drop.title,
      description: drop.description,
      dateFrom: drop.date,
      dateTo: drop.date,
      times: [drop.time],
      capacity: drop.capacity,
      entryOpensAt: new Date(Date.now() - 60_000).toISOString(),
      entryClosesAt: drop.closesAt,
      releaseAt: drop.closesAt,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/** Holds the first free table for two at `slug` on `date` as the diner, and returns the hold's id. */
export async function holdFirstFreeTable(api: ReturnType<typeof apiClient>, token: string, slug: string, date: string): Promise<string> {
  const slots = await api<{ time: string; available: boolean }[]>(`/api/restaurants/${slug}/availability?date=${date}&partySize=2`);
  const time = slots.body.find((slot) => slot.available)!.time;
  const held = await api<{ id: string }>('/api/reservations', { method: 'POST', token, body: { restaurantSlug: slug, date, time, partySize: 2 } });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  return held.body.id;
}

/** A page in a new context, signed in as the diner whose token this is (or signed out with null). */
export async function openAs(browser: Browser, token: string | null, viewport: { width: number; height: number }): Promise<Page> {
  // bypassCSP only lets the test inject axe-core; the app itself runs under its real policy.
  const context = await browser.newContext({ viewport, bypassCSP: true });
  if (token) await context.addInitScript((value) => localStorage.setItem('tablefair.customerToken', value), token);
  return context.newPage();
}

/** Signs staff in on /restaurant-login and waits for the dashboard; returns the restaurant id from the URL. */
export async function signInStaff(page: Page, baseUrl: string, staff: { username: string; password: string }): Promise<string> {
  await page.goto(`${baseUrl}/restaurant-login`);
  await page.getByLabel('Username').fill(staff.username);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'Live Booking Status' }).waitFor();
  return page.url().split('/admin/')[1]!;
}

/** Where screenshots for a person to look at go, when E2E_SCREENSHOT_DIR names a folder. */
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR;

/**
 * A full-page screenshot from the top (so the sticky header sits where a person sees it) into
 * SCREENSHOT_DIR as `${fileName}.png`; `dismissToasts` first closes any toast that would cover it.
 */
export async function saveScreenshot(page: Page, fileName: string, options: { dismissToasts?: boolean } = {}): Promise<void> {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  if (options.dismissToasts) {
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    for (let tries = 0; tries < 5 && (await dismiss.count()) > 0; tries++)
      await dismiss
        .first()
        .click({ timeout: 2_000 })
        .catch(() => undefined);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${fileName}.png`), fullPage: true });
}
