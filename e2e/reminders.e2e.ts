import ICAL from 'ical.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DinerReservation } from '#common/contract/reservations.ts';
import type { WaitlistResponse } from '#common/contract/waitlist.ts';
import { toKolkata } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff } from '#server/test/factories.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, expectAccessible, openAs as openPageAs, saveScreenshot, signInStaff } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Reminders in Chromium (decisions 150–153): a diner booked yesterday for a table tonight; two hours before, the
 * reminder is in the dev mailbox. They tap "Release my table" in it, the page asks once more,
 * they release, and the next diner on the waitlist is offered the table at once. The restaurant's
 * dashboard shows the booking released by the diner; the next diner confirms and adds the table
 * to their calendar from /me, a file an RFC 5545 parser reads back.
 */
let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('reminders', (environment) => ({ server, browser, api } = environment));

const openAs = (token: string | null, viewport = PHONE): Promise<Page> => openPageAs(browser, token, viewport);
const shot = (page: Page, name: string) => saveScreenshot(page, name, { dismissToasts: true });

/** A table for two at a new restaurant, starting 100 minutes from now (Kolkata date and time). */
async function tableInAboutTwoHours() {
  const db = server.database.db;
  const restaurant = await buildRestaurant(db, { name: 'Reminder Rasoi', emoji: '🍲' });
  const staff = await buildStaff(db, restaurant.id);
  const startsAt = new Date(Math.ceil((Date.now() + 100 * 60_000) / 300_000) * 300_000);
  const { date, time } = toKolkata(startsAt);
  await buildSlot(db, restaurant.id, { date, time, capacity: 2 });
  return { restaurant, staff, date, time };
}

describe('reminders, in the browser', () => {
  it('a reminder in the dev mailbox releases the table in one tap, and the next diner waiting is offered it', async () => {
    const { restaurant, staff, date, time } = await tableInAboutTwoHours();
    const db = server.database.db;

    // Asha booked for two; the restaurant accepted. The booking was made yesterday.
    const asha = await buildDiner(db, { name: 'Asha Rao' });
    const held = await api<DinerReservation>('/api/reservations', {
      method: 'POST',
      token: asha.token,
      body: { restaurantSlug: restaurant.slug, date, time, partySize: 2 },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const reservationId = held.body.id;
    expect((await api(`/api/reservations/${reservationId}/confirm`, { method: 'POST', token: asha.token, body: {} })).status).toBe(200);
    expect((await api(`/api/admin/bookings/${reservationId}`, { method: 'PATCH', token: staff.token, body: { status: 'CONFIRMED' } })).status).toBe(200);
    await db.execute(sql`UPDATE reservations SET created_at = created_at - interval '1 day' WHERE id = ${reservationId}`);

    // Ravi waits for a table at that time.
    const ravi = await buildDiner(db, { name: 'Ravi Kumar' });
    const joined = await api('/api/waitlist', {
      method: 'POST',
      token: ravi.token,
      body: { restaurantSlug: restaurant.slug, date, partySize: 2, windowStart: time, windowEnd: time },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);

    // The 2-hour reminder is due: the sweep (or this call, whichever comes first) queues it once.
    await server.app.services.reminders.sendDue();
    const reminders = await queryRows<{ subject: string }>(
      db,
      sql`SELECT subject FROM outbox_messages WHERE user_id = ${asha.id} AND channel = 'email' AND subject LIKE 'Reminder:%'`,
    );
    expect(reminders.map((row) => row.subject)).toEqual([expect.stringMatching(/^Reminder: Reminder Rasoi in 2 hours at \d{1,2}:\d\d (AM|PM)$/)]);

    // Asha opens her dev mailbox on her phone and finds the reminder, with its links.
    const page = await openAs(asha.token);
    const errors = collectPageErrors(page);
    await page.goto(`${server.baseUrl}/dev/mailbox`);
    const mail = page.getByTestId('mailbox-message').filter({ hasText: 'Reminder: Reminder Rasoi' });
    await mail.waitFor();
    expect(await mail.innerText()).toContain("I'm coming: ");
    await shot(page, 'reminder-mailbox-375');
    const release = mail.locator('a[href^="/reminder/"]').nth(1);
    expect(await mail.locator('a[href^="/reminder/"]').count()).toBe(2);
    await release.click();

    // The page asks once more: opening the link changed nothing.
    await page.getByRole('heading', { name: 'Release your table at Reminder Rasoi?' }).waitFor();
    expect(await page.getByText('Releasing costs you nothing.').count()).toBe(1);
    const before = await api<DinerReservation[]>('/api/reservations', { token: asha.token });
    expect(before.body.find((reservation) => reservation.id === reservationId)?.status).toBe('CONFIRMED');
    await expectAccessible(page, 'the release page');
    await shot(page, 'reminder-release-ask-375');

    await page.getByRole('button', { name: 'Release my table' }).click();
    const title = page.getByTestId('reminder-title');
    await expect.poll(() => title.innerText()).toBe('Your table is released');
    await expect.poll(() => title.evaluate((element) => element === document.activeElement)).toBe(true);
    await expectAccessible(page, 'the released page');
    await shot(page, 'reminder-released-375');

    // The next diner waiting is offered the table within seconds.
    await expect
      .poll(async () => (await api<WaitlistResponse>('/api/waitlist', { token: ravi.token })).body.offers.length, { timeout: 5_000, interval: 200 })
      .toBe(1);

    // The same link again: it says so, and changes nothing.
    await page.reload();
    await expect.poll(() => title.innerText()).toBe('Your table is released');
    expect(await page.getByRole('button', { name: 'Release my table' }).count()).toBe(0);
    expect(errors).toEqual([]);

    // The restaurant's dashboard: the booking released by its diner, and the reminder setting.
    const portal = await openAs(null, LAPTOP);
    await signInStaff(portal, server.baseUrl, staff);
    const row = portal.locator(`[data-booking-id="${reservationId}"]`);
    await expect.poll(() => row.getByTestId('reminder-reply').innerText()).toBe('Released by diner');
    const setting = portal.getByRole('checkbox', { name: /Remind diners before their booking/ });
    expect(await setting.isChecked()).toBe(true);
    await expectAccessible(portal, 'the dashboard with reminder answers');
    await shot(portal, 'reminder-dashboard-1280');

    // Ravi confirms the offered table and adds it to his calendar from /me.
    const offer = (await api<WaitlistResponse>('/api/waitlist', { token: ravi.token })).body.offers[0]!;
    const offeredHold = offer.offer!.reservationId;
    expect((await api(`/api/reservations/${offeredHold}/confirm`, { method: 'POST', token: ravi.token, body: {} })).status).toBe(200);
    const me = await openAs(ravi.token);
    await me.goto(`${server.baseUrl}/me`);
    const card = me.locator(`[data-reservation-id="${offeredHold}"]`);
    const [download] = await Promise.all([me.waitForEvent('download'), card.getByRole('button', { name: /^Add to calendar: Reminder Rasoi/ }).click()]);
    expect(download.suggestedFilename()).toBe(`tablefair-${date}-${restaurant.slug}.ics`);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const calendar = new ICAL.Component(ICAL.parse(Buffer.concat(chunks).toString('utf8')));
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(event.uid).toBe(`reservation-${offeredHold}@tablefair.in`);
    expect(event.summary).toBe('Table at Reminder Rasoi');
    expect(toKolkata(event.startDate.toJSDate())).toEqual({ date, time });
  });
});
