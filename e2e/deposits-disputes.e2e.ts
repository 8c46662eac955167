import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConfirmReservationResponse } from '#common/contract/reservations.ts';
import type { WaitlistResponse } from '#common/contract/waitlist.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner, expectAccessible, holdFirstFreeTable, openAs, saveScreenshot, signInStaff, toastTexts } from './support/fixtures.ts';
import { depositStaff } from './support/deposits.ts';
import { useE2eEnvironment } from './support/environment.ts';
import type { E2eServer } from './support/server.ts';

/**
 * The deposit journeys around a fee, in Chromium: staff waive a no-show's fee from the booking
 * card, a diner disputes a no-show and staff uphold it, a late cancel whose table a waiting diner
 * takes, pays for and is seated at is waived, the month's ledger downloads and balances, and the
 * hold screen with a deposit and the sandbox page at 375 and 1280 px.
 */
const RESTAURANT = 'sweet-chariot';
const STAFF = { username: RESTAURANT, password: 'staff1234' };

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('deposits-disputes', (environment) => ({ server, browser, api } = environment));

const downloads = mkdtempSync(join(tmpdir(), 'tablefair-ledger-'));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

/** Staff's token; the first call sets the policy, with a week's free-cancel window so every cancel here is late. */
const asStaff = depositStaff(() => api, RESTAURANT, 10080);

const reservationStatus = async (id: string) =>
  (await queryRows<{ status: string }>(server.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`))[0]!.status;
const intentStatus = async (reservationId: string) =>
  (
    await queryRows<{ status: string }>(
      server.database.db,
      sql`SELECT status FROM payment_intents WHERE reservation_id = ${reservationId} ORDER BY created_at DESC LIMIT 1`,
    )
  )[0]?.status;

/** Confirm and approve through the API (the setup of a journey; the Chromium paths are the tests' own steps). */
async function payByApi(id: string, token: string): Promise<void> {
  const confirmed = await api<ConfirmReservationResponse>(`/api/reservations/${id}/confirm`, { method: 'POST', token, body: {} });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  expect(confirmed.body.payment).not.toBeNull();
  const approved = await api(`/api/payments/sandbox/${confirmed.body.payment!.intentId}/decision`, { method: 'POST', body: { decision: 'approve' } });
  expect(approved.status).toBe(200);
  await expect.poll(() => reservationStatus(id), { timeout: 15_000 }).toBe('PENDING');
}

/** A diner with a paid, accepted booking for two tomorrow that started an hour ago and is marked a no-show; its fee is captured. */
async function noShow(name: string): Promise<{ id: string; token: string }> {
  const staff = await asStaff();
  const diner = await createDiner(api, { prefix: 'dsp', name });
  const id = await holdFirstFreeTable(api, diner.token, RESTAURANT, addDays(todayInKolkata(), 1));
  await payByApi(id, diner.token);
  expect((await api(`/api/admin/bookings/${id}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } })).status).toBe(200);
  // A no-show can be marked only after the start.
  await server.database.db.execute(sql`UPDATE reservations SET starts_at = now() - interval '1 hour' WHERE id = ${id}`);
  const marked = await api(`/api/admin/bookings/${id}`, { method: 'PATCH', token: staff, body: { status: 'NO_SHOW' } });
  expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  await expect.poll(() => intentStatus(id), { timeout: 15_000 }).toBe('CAPTURED');
  return { id, token: diner.token };
}

async function openPortal(viewport: { width: number; height: number }): Promise<Page> {
  const portal = await openAs(browser, null, viewport);
  await signInStaff(portal, server.baseUrl, STAFF);
  return portal;
}

/** The diner's /me deposit receipt for the restaurant, once it reads `label`. */
async function expectReceipt(page: Page, label: string, receipt: string): Promise<void> {
  await page.goto(`${server.baseUrl}/me`);
  await page.getByRole('heading', { name: 'Deposits and receipts' }).waitFor();
  await page.getByText(label, { exact: true }).first().waitFor();
  expect(await page.getByText(receipt).isVisible()).toBe(true);
}

describe('fees waived, disputed and resold', () => {
  it('staff waive a no-show fee from the booking card, by keyboard, and the diner sees it refunded', async () => {
    const { id, token } = await noShow('Ishaan Bose');
    const portal = await openPortal(LAPTOP);
    const errors = collectPageErrors(portal);
    const card = portal.locator(`[data-booking-id="${id}"]`);
    await card.getByText('Deposit ₹1,000: Kept as a fee').waitFor();
    const waive = card.getByRole('button', { name: /^Waive fee: Ishaan Bose/ });
    const box = (await waive.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);

    // Keyboard only: focus, Enter, then the dialog's confirm.
    await waive.focus();
    await portal.keyboard.press('Enter');
    const dialog = portal.getByRole('dialog', { name: 'Waive the ₹1,000 fee?' });
    await dialog.waitFor();
    await expectAccessible(portal, 'the waive-fee dialog (1280 px)');
    // The cautious answer is first; Escape would keep the fee.
    expect(await portal.evaluate(() => document.activeElement?.textContent)).toBe('Keep the fee');
    await portal.keyboard.press('Tab');
    expect(await portal.evaluate(() => document.activeElement?.textContent)).toBe('Waive fee');
    await portal.keyboard.press('Enter');
    await expect.poll(() => toastTexts(portal)).toContain('Fee waived: Ishaan Bose gets up to ₹1,000 back');
    await card.getByText('Deposit ₹1,000: Waived and refunded').waitFor({ timeout: 15_000 });
    expect(await card.getByRole('button', { name: /^Waive fee/ }).count()).toBe(0);
    expect(await intentStatus(id)).toBe('REFUNDED');
    await saveScreenshot(portal, 'deposit-waived-portal-1280', { dismissToasts: true });

    // A second waiver has nothing left to waive.
    const again = await api<{ error: string }>(`/api/admin/bookings/${id}/waive-fee`, { method: 'POST', token: await asStaff(), body: {} });
    expect(again.status).toBe(409);

    const me = await openAs(browser, token, PHONE);
    await expectReceipt(me, 'Waived and refunded', 'Fee of ₹1,000 waived and refunded.');
    expect(errors).toEqual([]);
  });

  it('the Waive fee action fits a phone and passes axe at 375 px', async () => {
    const { id } = await noShow('Lata Pillai');
    const portal = await openPortal(PHONE);
    const card = portal.locator(`[data-booking-id="${id}"]`);
    await card.getByRole('button', { name: /^Waive fee: Lata Pillai/ }).waitFor();
    expect(await portal.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await expectAccessible(portal, 'portal booking card with Waive fee (375 px)');
    await card.getByRole('button', { name: /^Waive fee/ }).click();
    await portal.getByRole('dialog', { name: 'Waive the ₹1,000 fee?' }).waitFor();
    await portal.getByRole('button', { name: 'Keep the fee' }).click();
    expect(await portal.getByRole('dialog').count()).toBe(0);
    expect(await intentStatus(id)).toBe('CAPTURED');
    await saveScreenshot(portal, 'deposit-waive-card-375');
  });

  it('a diner disputes a no-show on /me, staff uphold it in the portal, the strike stops counting and the fee is refunded', async () => {
    const { id, token } = await noShow('Sana Qureshi');
    const me = await openAs(browser, token, PHONE);
    const errors = collectPageErrors(me);
    await me.goto(`${server.baseUrl}/me`);
    await me.getByRole('heading', { name: 'No-shows' }).waitFor();
    await me.getByRole('button', { name: 'Dispute this no-show' }).click();
    await me.getByLabel('What happened?').fill('The restaurant moved our table and we were seated under another name.');
    await me.getByRole('button', { name: 'Send dispute' }).click();
    await me.getByText('Disputed: the restaurant will decide').waitFor();
    await expectAccessible(me, '/me with a disputed no-show (375 px)');

    const portal = await openPortal(LAPTOP);
    await portal.getByRole('tab', { name: 'Deposits' }).click();
    await portal.getByRole('heading', { name: 'No-show disputes' }).waitFor();
    await portal.getByText('The restaurant moved our table').waitFor();
    await portal.getByRole('button', { name: 'Uphold (remove strike)' }).click();
    await expect.poll(() => toastTexts(portal)).toContain('Dispute upheld: the strike is removed');
    await portal.getByText('No disputes waiting.', { exact: false }).waitFor();
    await expect.poll(() => intentStatus(id), { timeout: 15_000 }).toBe('REFUNDED');

    const strikes = await api<{ strikes: { counts: boolean }[] }>('/api/me/strikes', { token });
    expect(strikes.body.strikes.map((strike) => strike.counts)).toEqual([false]);
    await me.reload();
    await me.getByText('Dispute upheld: this strike was removed').waitFor();
    expect(await me.getByText('no longer counts').isVisible()).toBe(true);
    expect(await me.getByRole('button', { name: 'Dispute this no-show' }).count()).toBe(0);
    await expectReceipt(me, 'Waived and refunded', 'Fee of ₹1,000 waived and refunded.');
    await saveScreenshot(me, 'deposit-dispute-upheld-375');
    expect(errors).toEqual([]);
  });

  it('a late cancel re-sold from the waitlist keeps its fee while the waiting diner confirms the offer and pays, and is refunded once staff seat them', async () => {
    const staff = await asStaff();
    const date = addDays(todayInKolkata(), 2);
    const first = await createDiner(api, { prefix: 'dsp', name: 'Devika Rao' });
    const lateId = await holdFirstFreeTable(api, first.token, RESTAURANT, date);
    const [slot] = await queryRows<{ id: string; time: string }>(
      server.database.db,
      sql`SELECT s.id, s.slot_time AS time FROM reservations r JOIN slots s ON s.id = r.slot_id WHERE r.id = ${lateId}`,
    );
    // The slot seats exactly this party, so the evening is full at that time.
    await server.database.db.execute(sql`UPDATE slots SET capacity = 2 WHERE id = ${slot!.id}`);
    await payByApi(lateId, first.token);
    expect((await api(`/api/admin/bookings/${lateId}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } })).status).toBe(200);

    const waiting = await createDiner(api, { prefix: 'dsp', name: 'Rohan Mehta' });
    const joined = await api('/api/waitlist', {
      method: 'POST',
      token: waiting.token,
      body: { restaurantSlug: RESTAURANT, date, partySize: 2, windowStart: slot!.time, windowEnd: slot!.time },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const page = await openAs(browser, waiting.token, PHONE);
    const errors = collectPageErrors(page);
    // The live stream is held back until the offer is made, as on a slow phone: the screen read
    // before the server listened for it must still catch up when it connects, not at the next poll.
    let releaseStream = () => {};
    const streamHeld = new Promise<void>((resolve) => (releaseStream = resolve));
    await page.route('**/api/me/events', async (route) => {
      await streamHeld;
      await route.continue();
    });
    await page.goto(`${server.baseUrl}/waitlist`);
    await page.getByRole('heading', { name: 'Your waitlist' }).waitFor();
    await page.getByTestId('waitlist-entry').first().waitFor();

    // The first diner cancels late: the fee is kept, and the covers go to the waiting diner.
    const cancelled = await api(`/api/reservations/${lateId}/cancel`, { method: 'POST', token: first.token, body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await expect.poll(() => intentStatus(lateId), { timeout: 15_000 }).toBe('CAPTURED');
    const waitingState = async () => (await api<WaitlistResponse>('/api/waitlist', { token: waiting.token })).body.entries.map((entry) => entry.state);
    await expect.poll(waitingState, { timeout: 15_000 }).toEqual(['offered']);
    releaseStream();
    const offer = page.getByTestId('waitlist-offer');
    // Well inside the 30 s re-read of a waiting screen: the stream's ready brought it.
    await offer.waitFor({ timeout: 8_000 });
    expect(await offer.innerText()).not.toContain('No deposit required');
    await expectAccessible(page, '/waitlist with an offer on a slot that asks a deposit (375 px)');

    // Confirm goes to pay: the sandbox page, approve, and back to the hold, which becomes Pending.
    await offer.getByRole('button', { name: 'Confirm booking' }).click();
    await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}\?returnTo=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('₹1,000');
    await page.getByRole('button', { name: 'Approve ₹1,000' }).click();
    await page.getByRole('link', { name: 'Back to Tablefair' }).click();
    await page.waitForURL(/\/hold\/[0-9a-f-]{36}\?payment=approved/);
    const offeredId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByText('Pending', { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await reservationStatus(offeredId)).toBe('PENDING');
    expect(await intentStatus(offeredId)).toBe('AUTHORISED');

    // Paid is not resold (decision 204): the first fee stays kept while the booking is pending, and once accepted.
    expect(await intentStatus(lateId)).toBe('CAPTURED');
    const accepted = await api(`/api/admin/bookings/${offeredId}`, { method: 'PATCH', token: staff, body: { status: 'CONFIRMED' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await intentStatus(lateId)).toBe('CAPTURED');

    // Staff seat the waiting diner: the first diner's fee is waived and refunded, and they see it.
    const seated = await api(`/api/admin/bookings/${offeredId}`, { method: 'PATCH', token: staff, body: { status: 'SEATED' } });
    expect(seated.status, JSON.stringify(seated.body)).toBe(200);
    await expect.poll(() => intentStatus(lateId), { timeout: 15_000 }).toBe('REFUNDED');
    const firstPage = await openAs(browser, first.token, PHONE);
    await expectReceipt(firstPage, 'Waived and refunded', 'Fee of ₹1,000 waived and refunded.');
    expect(errors).toEqual([]);
  });

  it("the portal's month ledger downloads as CSV, with its header row, and its amounts balance to zero", async () => {
    await asStaff();
    const portal = await openPortal(LAPTOP);
    const month = todayInKolkata().slice(0, 7);
    const button = portal.getByRole('button', { name: 'Accountant’s ledger (CSV)' });
    await button.waitFor();
    const [download] = await Promise.all([portal.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`ledger-${month}.csv`);
    const file = join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('"posted_at","posting_id","intent_id","reservation_id","purpose","posting","account","amount_paise"');
    const rows = lines.slice(1).map((line) => line.slice(1, -1).split('","'));
    // The journeys above moved money: authorisations, captures, refunds at least.
    expect(rows.length).toBeGreaterThan(10);
    expect([...new Set(rows.map((row) => row[5]))]).toEqual(expect.arrayContaining(['authorise', 'capture', 'refund']));
    const amounts = rows.map((row) => Number(row[7]));
    expect(amounts.every(Number.isInteger)).toBe(true);
    expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBe(0);
    // Each posting balances on its own too.
    const byPosting = new Map<string, number>();
    for (const row of rows) byPosting.set(row[1]!, (byPosting.get(row[1]!) ?? 0) + Number(row[7]));
    expect([...byPosting.values()].filter((sum) => sum !== 0)).toEqual([]);

    // Beside it, the restaurant's own statement: one row a deposit, in rupees and IST.
    const statementButton = portal.getByRole('button', { name: `Download ${month} statement (CSV)` });
    const [statement] = await Promise.all([portal.waitForEvent('download'), statementButton.click()]);
    expect(statement.suggestedFilename()).toBe(`deposit-statement-${month}.csv`);
    const statementFile = join(downloads, statement.suggestedFilename());
    await statement.saveAs(statementFile);
    const statementLines = readFileSync(statementFile, 'utf8').trim().split(/\r?\n/);
    expect(statementLines[0]).toBe(
      '"Date","Time","Guest","Booking","For","Deposit","Held now","Kept","Released","Credited on bill","Refunded","What happened","Paid at (IST)"',
    );
    expect(statementLines.length).toBeGreaterThan(1);
  });
});

describe('the deposit screens at 375 and 1280 px', () => {
  it('the hold screen with a deposit and the sandbox page: no sideways scroll, axe clean at both widths', async () => {
    await asStaff();
    const diner = await createDiner(api, { prefix: 'dsp', name: 'Farah Khan' });
    const id = await holdFirstFreeTable(api, diner.token, RESTAURANT, addDays(todayInKolkata(), 3));
    const page = await openAs(browser, diner.token, PHONE);
    const errors = collectPageErrors(page);
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

    await page.goto(`${server.baseUrl}/hold/${id}`);
    await page.getByRole('button', { name: 'Pay ₹1,000 and confirm' }).waitFor();
    await page.getByTestId('hold-deposit').waitFor();
    expect(await fits()).toBe(true);
    await expectAccessible(page, 'hold screen with a deposit (375 px)');
    await saveScreenshot(page, 'deposit-hold-375');
    await page.setViewportSize(LAPTOP);
    expect(await fits()).toBe(true);
    await expectAccessible(page, 'hold screen with a deposit (1280 px)');
    await saveScreenshot(page, 'deposit-hold-1280');

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Pay ₹1,000 and confirm' }).click();
    await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}\?returnTo=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('₹1,000');
    expect(await fits()).toBe(true);
    await expectAccessible(page, 'sandbox page (375 px)');
    await saveScreenshot(page, 'deposit-sandbox-375');
    await page.setViewportSize(LAPTOP);
    expect(await fits()).toBe(true);
    await expectAccessible(page, 'sandbox page (1280 px)');
    await saveScreenshot(page, 'deposit-sandbox-1280');
    expect(errors).toEqual([]);
  });
});
