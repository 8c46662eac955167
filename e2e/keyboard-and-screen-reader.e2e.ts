import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { collectPageErrors, LAPTOP } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, createDiner, openAs, signInStaff } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * What a keyboard or screen-reader user meets (issue 13 item 8), beyond what axe finds: errors
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
    const date = addDays(todayInKolkata(), 2);
    const slots = await api<{ time: string; available: boolean }[]>(`/api/restaurants/toit-tandoor/availability?date=${date}&partySize=2`);
    const time = slots.body.find((slot) => slot.available)!.time;
    const held = await api<{ id: string }>('/api/reservations', {
      method: 'POST',
      token: diner.token,
      body: { restaurantSlug: 'toit-tandoor', date, time, partySize: 2 },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);

    const page = await openAs(browser, diner.token, LAPTOP);
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/hold/${held.body.id}`);
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
