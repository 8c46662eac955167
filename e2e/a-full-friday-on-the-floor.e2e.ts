import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { weekdayOf } from '#common/domain/floor.ts';
import { addDays, kolkataInstant, todayInKolkata } from '#common/domain/time.ts';
import { ManualClock } from '#server/clock.ts';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, createDiner, expectAccessible, openAs, saveScreenshot, signInStaff } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * A host runs a Friday evening from the Host tab (decision 245): arrivals seated at their table or
 * another, a walk-in, a move, a finish and a no-show, at 1280 px and on a phone at 375 px, while
 * diners book online through the API; a change on one screen shows on the other within 2 s, and
 * no table is ever seated twice. The server runs on the journey's own clock, so the evening is the
 * same whenever the test runs.
 */
const STAFF = { username: 'toit-tandoor', password: 'staff1234' };
const SLUG = 'toit-tandoor';
const today = todayInKolkata();
const FRIDAY = addDays(today, (4 - weekdayOf(today) + 7) % 7 || 7);
const clock = new ManualClock(kolkataInstant(FRIDAY, '17:00'));

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('a-full-friday', (environment) => ({ server, browser, api } = environment), {}, { clock });

async function bookOnline(staffToken: string, name: string, time: string, partySize: number): Promise<string> {
  const diner = await createDiner(api, { prefix: 'friday', name });
  const held = await api<{ id: string }>('/api/reservations', {
    method: 'POST',
    token: diner.token,
    body: { restaurantSlug: SLUG, date: FRIDAY, time, partySize },
  });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  expect((await api(`/api/reservations/${held.body.id}/confirm`, { method: 'POST', token: diner.token, body: {} })).status).toBe(200);
  expect((await api(`/api/admin/bookings/${held.body.id}`, { method: 'PATCH', token: staffToken, body: { status: 'CONFIRMED' } })).status).toBe(200);
  return held.body.id;
}

async function openHost(viewport: { width: number; height: number }): Promise<Page> {
  const page = await openAs(browser, null, viewport);
  await signInStaff(page, server.baseUrl, STAFF);
  await page.getByRole('tab', { name: 'Host' }).click();
  await page.getByRole('heading', { name: 'Tables now' }).waitFor();
  return page;
}

const card = (page: Page, table: string) => page.locator(`[data-testid="floor-table"][data-table="${table}"]`);

/** Opens a party from its table's card and presses one of its actions. */
async function act(page: Page, table: string, party: string, button: string, otherTable?: string): Promise<void> {
  await card(page, table)
    .getByRole('button', { name: new RegExp(`^${party}`) })
    .click();
  const panel = page.getByTestId('floor-party');
  if (otherTable) {
    const value = await panel.locator('option', { hasText: new RegExp(`^${otherTable} \\(`) }).getAttribute('value');
    await panel.getByLabel('Table').selectOption(value!);
  }
  await panel.getByRole('button', { name: button }).click();
}

describe('a full Friday on the floor', () => {
  it('a host seats arrivals and a walk-in, moves, finishes and marks a no-show at 1280 and 375 px while diners book online', async () => {
    const login = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: STAFF });
    const staff = login.body.token;
    const floor = await api('/api/admin/floor/tables', {
      method: 'PUT',
      token: staff,
      body: {
        tables: [
          ...['T1', 'T2'].map((name) => ({ name, section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true })),
          ...['T3', 'T4'].map((name) => ({ name, section: 'indoor', minCovers: 2, maxCovers: 4, onlineBookable: true })),
          { name: 'T5', section: 'terrace', minCovers: 4, maxCovers: 6, onlineBookable: true },
        ],
        combinations: [],
      },
    });
    expect(floor.status, JSON.stringify(floor.body)).toBe(200);
    expect(
      (await api('/api/admin/slots/bulk', { method: 'POST', token: staff, body: { date: FRIDAY, start: '18:00', end: '21:00', interval: 30, capacity: 40 } }))
        .status,
    ).toBe(201);
    const kavya = await bookOnline(staff, 'Kavya Reddy', '18:00', 2);
    await bookOnline(staff, 'Farah Khan', '18:00', 4);
    const rohan = await bookOnline(staff, 'Rohan Mehta', '18:30', 2);

    clock.set(kolkataInstant(FRIDAY, '18:00'));
    const laptop = await openHost(LAPTOP);
    const phone = await openHost(PHONE);
    const errors = [...collectPageErrors(laptop), ...collectPageErrors(phone)];
    expect(await card(laptop, 'T1').getAttribute('data-state')).toBe('late');
    await expectAccessible(laptop, 'host view (1280 px)');

    // Arrivals: Kavya at her own table, Farah's four at the terrace's six-top instead of T3.
    // The selected party's guest card is on the floor too (decision 261). Checked while Kavya is
    // selected, before seating her: seating gives her party a new turn on the floor, which closes the panel.
    await card(laptop, 'T1')
      .getByRole('button', { name: /^Kavya Reddy/ })
      .click();
    await laptop.getByTestId('floor-party').getByTestId('guest-card').getByRole('heading', { name: 'Kavya Reddy' }).waitFor();
    await act(laptop, 'T1', 'Kavya Reddy', 'Seat at T1');
    await expect.poll(() => card(laptop, 'T1').getAttribute('data-state')).toBe('seated');
    await act(laptop, 'T3', 'Farah Khan', 'Seat at T5', 'T5');
    await expect.poll(() => card(laptop, 'T5').getAttribute('data-state')).toBe('seated');

    // A walk-in of three at T4; the phone shows it within 2 seconds, without a reload.
    await laptop.getByLabel('Free table').selectOption({ label: 'T4 (4 seats)' });
    await laptop.getByLabel('Party size').fill('3');
    await laptop.getByLabel('Name (optional)').fill('Ravi');
    await laptop.getByLabel('Phone (optional)').fill('+91 98450 12345');
    const seatedAt = Date.now();
    await laptop.getByRole('button', { name: 'Seat walk-in' }).click();
    await card(phone, 'T4').and(phone.locator('[data-state="seated"]')).waitFor({ timeout: 2_000 });
    expect(Date.now() - seatedAt).toBeLessThan(2_000);

    // A move: Kavya's table to T3 (free since Farah sat on the terrace).
    await act(laptop, 'T1', 'Kavya Reddy', 'Move to T3', 'T3');
    await expect.poll(() => card(laptop, 'T3').getAttribute('data-state')).toBe('seated');

    // Diners keep booking online: a two at 7 PM gets T1 (free since the move), a six at 6:30 PM nothing (T5 is taken).
    const online = await bookOnline(staff, 'Meera Iyer', '19:00', 2);
    const six = await createDiner(api, { prefix: 'friday', name: 'Arjun Rao' });
    const refused = await api('/api/reservations', {
      method: 'POST',
      token: six.token,
      body: { restaurantSlug: SLUG, date: FRIDAY, time: '18:30', partySize: 6 },
    });
    expect(refused.status).toBe(409);

    await saveScreenshot(laptop, 'host-view-1280', { dismissToasts: true });

    // On the phone at 6:50 PM: Rohan never came (a no-show), and Farah's party leaves.
    clock.set(kolkataInstant(FRIDAY, '18:50'));
    await phone.reload();
    await phone.getByRole('heading', { name: 'Tables now' }).waitFor();
    await act(phone, 'T2', 'Rohan Mehta', 'No-show');
    await expect.poll(() => card(phone, 'T2').getAttribute('data-state')).toBe('free');
    await act(phone, 'T5', 'Farah Khan', 'Finish');
    await expect.poll(() => card(phone, 'T5').getAttribute('data-state')).toBe('free');
    await card(laptop, 'T5').and(laptop.locator('[data-state="free"]')).waitFor({ timeout: 2_000 });
    await expectAccessible(phone, 'host view (375 px)');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(phone, 'host-view-375', { dismissToasts: true });

    const statuses = await queryRows<{ id: string; status: string }>(
      server.database.db,
      sql`SELECT id, status FROM reservations WHERE id IN (${kavya}, ${rohan}, ${online})`,
    );
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({ [kavya]: 'SEATED', [rohan]: 'NO_SHOW', [online]: 'CONFIRMED' });
    // No table is ever seated twice: no two assignments that count share a table at overlapping times.
    const overlaps = await queryRows<{ a: string; b: string }>(
      server.database.db,
      sql`WITH counting AS (
            SELECT a.id, a.table_ids, a.starts_at, a.ends_at FROM table_assignments a
            JOIN restaurants rest ON rest.id = a.restaurant_id AND rest.slug = ${SLUG}
            LEFT JOIN reservations r ON r.id = a.reservation_id
            WHERE a.released_at IS NULL AND (a.reservation_id IS NULL OR r.status NOT IN ('CANCELLED', 'NO_SHOW')))
          SELECT x.id AS a, y.id AS b FROM counting x JOIN counting y ON x.id < y.id
          WHERE x.table_ids && y.table_ids AND x.starts_at < y.ends_at AND y.starts_at < x.ends_at`,
    );
    expect(overlaps).toEqual([]);
    expect(errors).toEqual([]);
  });
});
