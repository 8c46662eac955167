import type { Browser, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner, expectAccessible, holdFirstFreeTable, openAs, saveScreenshot, signInStaff } from './support/fixtures.ts';
import { depositStaff, PER_COVER_PAISE } from './support/deposits.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Deposits end to end in Chromium, each through the sandbox page: the hold
 * screen's "Pay ₹X and confirm", the gateway's page, and back. One server, one browser.
 */
const RESTAURANT = 'chai-point-reserve';

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('deposits', (environment) => ({ server, browser, api } = environment));

/** Staff's token; the first call sets the policy: free to cancel until 2 hours before. */
const asStaff = depositStaff(() => api, RESTAURANT, 120);

const reservationStatus = async (id: string) =>
  (await queryRows<{ status: string }>(server.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`))[0]!.status;
const intentOfReservation = async (id: string) =>
  (
    await queryRows<{ id: string; status: string }>(
      server.database.db,
      sql`SELECT id, status FROM payment_intents WHERE reservation_id = ${id} ORDER BY created_at DESC LIMIT 1`,
    )
  )[0];

/** A diner holds a table for two (tomorrow unless told) and opens the hold screen at 375 px. */
async function holdAndOpen(name: string, date = addDays(todayInKolkata(), 1)): Promise<{ page: Page; id: string; token: string }> {
  await asStaff();
  const diner = await createDiner(api, { prefix: 'dep', name });
  const id = await holdFirstFreeTable(api, diner.token, RESTAURANT, date);
  const page = await openAs(browser, diner.token, PHONE);
  await page.goto(`${server.baseUrl}/hold/${id}`);
  await page.getByRole('button', { name: 'Pay ₹1,000 and confirm' }).waitFor();
  return { page, id, token: diner.token };
}

/** From the hold screen to the sandbox page, answer, and back. */
async function payOnSandbox(page: Page, answer: 'Approve ₹1,000' | 'Decline'): Promise<void> {
  await page.getByRole('button', { name: 'Pay ₹1,000 and confirm' }).click();
  await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}\?returnTo=/);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('₹1,000');
  await page.getByRole('button', { name: answer }).click();
  await page.getByRole('link', { name: 'Back to Tablefair' }).click();
  await page.waitForURL(/\/hold\/[0-9a-f-]{36}\?payment=/);
}

describe('deposits through the sandbox page', () => {
  it('books with a deposit: Pay, approve, and the booking is Pending (axe clean at 375 px)', async () => {
    const { page, id } = await holdAndOpen('Meera Iyer');
    const errors = collectPageErrors(page);
    expect(await page.getByText('Deposit ₹1,000').isVisible()).toBe(true);
    await expectAccessible(page, 'hold screen with a deposit (375 px)');
    await payOnSandbox(page, 'Approve ₹1,000');
    await page.getByText('Pending', { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await reservationStatus(id)).toBe('PENDING');
    expect((await intentOfReservation(id))!.status).toBe('AUTHORISED');
    await expectAccessible(page, 'booking pending after the deposit (375 px)');
    await saveScreenshot(page, 'deposit-pending-375');

    // /me shows the deposit and its receipt.
    await page.goto(`${server.baseUrl}/me`);
    await page.getByRole('heading', { name: 'Deposits and receipts' }).waitFor();
    expect(await page.getByText('blocked on your account until your visit; nothing taken.').isVisible()).toBe(true);
    await expectAccessible(page, '/me with a deposit (375 px)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, 'deposit-me-375');
    expect(errors).toEqual([]);
  });

  it('a decline returns to the hold screen with a clear message and the hold still counting down', async () => {
    const { page, id } = await holdAndOpen('Kabir Shah');
    await payOnSandbox(page, 'Decline');
    await page.getByText('Your payment was declined').waitFor();
    expect(await page.getByRole('button', { name: 'Pay ₹1,000 and confirm' }).isEnabled()).toBe(true);
    expect(await reservationStatus(id)).toBe('HELD');
    expect((await intentOfReservation(id))!.status).toBe('FAILED');
    await expectAccessible(page, 'hold screen after a decline (375 px)');
    await saveScreenshot(page, 'deposit-declined-375');
  });

  it('a cancel in time is released, and a no-show is captured', async () => {
    const staff = await asStaff();
    const inTime = await holdAndOpen('Nila Das');
    await payOnSandbox(inTime.page, 'Approve ₹1,000');
    await expect.poll(() => reservationStatus(inTime.id), { timeout: 15_000 }).toBe('PENDING');
    expect((await api(`/api/admin/bookings/${inTime.id}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } })).status).toBe(200);
    expect((await api(`/api/reservations/${inTime.id}/cancel`, { method: 'POST', token: inTime.token, body: {} })).status).toBe(200);
    await expect.poll(async () => (await intentOfReservation(inTime.id))!.status, { timeout: 15_000 }).toBe('RELEASED');

    // A no-show can be marked only after the start; the server's own move runs it for a booking that has begun.
    const noShow = await holdAndOpen('Arjun Rao');
    await payOnSandbox(noShow.page, 'Approve ₹1,000');
    await expect.poll(() => reservationStatus(noShow.id), { timeout: 15_000 }).toBe('PENDING');
    expect((await api(`/api/admin/bookings/${noShow.id}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } })).status).toBe(200);
    await server.database.db.execute(sql`UPDATE reservations SET starts_at = now() - interval '1 hour' WHERE id = ${noShow.id}`);
    const marked = await api(`/api/admin/bookings/${noShow.id}`, { method: 'PATCH', token: staff, body: { status: 'NO_SHOW' } });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    await expect.poll(async () => (await intentOfReservation(noShow.id))!.status, { timeout: 15_000 }).toBe('CAPTURED');

    // The portal's booking card shows each deposit's state, and the day's totals show.
    const portal = await openAs(browser, null, LAPTOP);
    await signInStaff(portal, server.baseUrl, { username: RESTAURANT, password: 'staff1234' });
    await portal.getByRole('heading', { name: 'Deposits today' }).waitFor();
    const card = portal.locator(`[data-booking-id="${noShow.id}"]`);
    await card.getByText('Deposit ₹1,000: Kept as a fee').waitFor();
    await expectAccessible(portal, 'portal with deposits (1280 px)');
    await saveScreenshot(portal, 'deposit-portal-1280');
  });

  it('a late cancel keeps its fee while another diner books and pays for the same table, and is waived once staff seat them', async () => {
    const staff = await asStaff();
    // For this booking every cancel is late: the free-cancel window is a week (the booking keeps these terms).
    const week = {
      defaultCharge: { kind: 'deposit', perCoverPaise: PER_COVER_PAISE },
      rules: [],
      freeCancelMinutes: 10080,
      lateCancelKeepPercent: 100,
      noShowKeepPercent: 100,
    };
    expect((await api('/api/admin/deposit-policy', { method: 'PUT', token: staff, body: week })).status).toBe(200);
    // A date of its own, so the slot holds no other diner's booking from the journeys above.
    const late = await holdAndOpen('Tara Menon', addDays(todayInKolkata(), 3));
    const [slot] = await queryRows<{ id: string; date: string; time: string }>(
      server.database.db,
      sql`SELECT s.id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time FROM reservations r JOIN slots s ON s.id = r.slot_id WHERE r.id = ${late.id}`,
    );
    // The slot seats exactly this party, so the evening is full at that time (decision 204: a slot with free covers never waives).
    await server.database.db.execute(sql`UPDATE slots SET capacity = 2 WHERE id = ${slot!.id}`);
    await payOnSandbox(late.page, 'Approve ₹1,000');
    await expect.poll(() => reservationStatus(late.id), { timeout: 15_000 }).toBe('PENDING');
    expect((await api(`/api/admin/bookings/${late.id}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } })).status).toBe(200);
    const cancelled = await api(`/api/reservations/${late.id}/cancel`, { method: 'POST', token: late.token, body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await expect.poll(async () => (await intentOfReservation(late.id))!.status, { timeout: 15_000 }).toBe('CAPTURED');

    // Someone else books the same time (the covers freed go to the waitlist first; nobody waits here) and pays.
    const buyer = await createDiner(api, { prefix: 'dep', name: 'Ravi Kumar' });
    const held = await api<{ id: string }>('/api/reservations', {
      method: 'POST',
      token: buyer.token,
      body: { restaurantSlug: RESTAURANT, date: slot!.date, time: slot!.time, partySize: 2 },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const page = await openAs(browser, buyer.token, PHONE);
    await page.goto(`${server.baseUrl}/hold/${held.body.id}`);
    await payOnSandbox(page, 'Approve ₹1,000');
    await expect.poll(() => reservationStatus(held.body.id), { timeout: 15_000 }).toBe('PENDING');
    // Booked and paid is not resold (decision 204): the fee stays kept while the booking is pending, and once accepted.
    expect((await intentOfReservation(late.id))!.status).toBe('CAPTURED');
    const accepted = await api(`/api/admin/bookings/${held.body.id}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await intentOfReservation(late.id))!.status).toBe('CAPTURED');
    expect((await queryRows<{ move: string }>(server.database.db, sql`SELECT move FROM reservation_deposits WHERE reservation_id = ${late.id}`))[0]!.move).toBe(
      'capture_keep',
    );

    // Staff seat the other diner: the table was resold, and the first fee is waived and refunded.
    const seated = await api(`/api/admin/bookings/${held.body.id}`, { method: 'PATCH', token: staff, body: { status: 'SEATED' } });
    expect(seated.status, JSON.stringify(seated.body)).toBe(200);
    await expect.poll(async () => (await intentOfReservation(late.id))!.status, { timeout: 15_000 }).toBe('REFUNDED');
  });
});
