import type { Browser, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AcceptDatePlanResponse, DatePlansResponse } from '#common/contract/dating-plans.ts';
import type { DatingSuggestionsResponse } from '#common/contract/dating.ts';
import { datingDays, eveningWindows, freeEvenings } from '#common/domain/dating-match.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { inPage, makeOnlyDatePartner, signUpJourneyMemberInPage } from './support/dating.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, expectAccessible, hasSidewaysScroll, openAs, saveScreenshot, signInStaff } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Date plans in Chromium (decision 184): a mutual yes becomes a plan at a
 * partner restaurant; both members accept and pay ₹300 on the sandbox page and the table is booked;
 * staff mark both arrived in the portal's "Tablefair dates" and each deposit is credit on the bill.
 * A second pair is booked the same way through the API, only one arrives, and once the date is 20
 * minutes past its start the server's sweeper pays the flake's deposit to the one who came.
 */
const RESTAURANT = 'pho-real';
const RESTAURANT_NAME = 'Pho Real';
const STAFF = { username: RESTAURANT, password: 'staff1234' };

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
// A quick sweeper, so a date past its grace settles within seconds.
useE2eEnvironment('dating-plans', (environment) => ({ server, browser, api } = environment), { HOLD_SWEEP_SECONDS: '1' });

/** Every evening of the week is free, so a seeded slot (18:00-22:00 daily) at least 4 hours ahead always fits. */
const ALL_EVENING_LABELS = datingDays.flatMap((day) => eveningWindows.map((window) => `${day[0]}${day.slice(1).toLowerCase()} ${window.label}`));

let staffToken: string | undefined;
/** The staff of RESTAURANT, signed in once; the first call makes the restaurant the only date partner, one that fits every member here. */
async function partnerStaff(): Promise<string> {
  if (staffToken) return staffToken;
  // The demo's own partners are let go: this journey's only partner table is RESTAURANT's.
  staffToken = await makeOnlyDatePartner(server, api, STAFF);
  return staffToken;
}

/** A new member signed up from inside the page (the browser's own cookies), left on /dating/app. */
async function newMember(viewport: { width: number; height: number }, person: { name: string; dob: string }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.baseUrl}/dating`);
  await signUpJourneyMemberInPage(page, person);
  return { page, errors };
}

/** Ages 25-40, Indiranagar, every evening of the week, saved through the form. */
async function savePreferencesInForm(page: Page) {
  const form = page.getByRole('region', { name: "What you're looking for" });
  await form.getByLabel("Youngest age you'd like to meet").fill('25');
  await form.getByLabel('Oldest').fill('40');
  await form.getByRole('button', { name: 'Indiranagar' }).click();
  for (const label of ALL_EVENING_LABELS) await form.getByRole('button', { name: label, exact: true }).click();
  await form.getByRole('radio', { name: 'Something long-term' }).check();
  await form.getByRole('button', { name: 'Save preferences' }).click();
  await page.getByText('Preferences saved').first().waitFor();
}

const suggestionCard = (page: Page, firstName: string) =>
  page
    .getByRole('list', { name: 'Suggested members' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: new RegExp(`^${firstName}, \\d+$`) }) });

const upcomingPlan = (page: Page) => page.getByRole('list', { name: 'Upcoming date plans' }).locator('li[data-plan]');
const earlierPlan = (page: Page) => page.getByRole('list', { name: 'Earlier date plans' }).locator('li[data-plan]');

async function planRow(planId: string) {
  const [row] = await queryRows<{ status: string; reservation_status: string; reservation_user: string; party_size: number; restaurant: string }>(
    server.database.db,
    sql`SELECT p.status, r.status AS reservation_status, r.user_id AS reservation_user, r.party_size, rs.slug AS restaurant
        FROM dating_plans p JOIN reservations r ON r.id = p.reservation_id JOIN restaurants rs ON rs.id = p.restaurant_id WHERE p.id = ${planId}`,
  );
  return row;
}

/** Moves a booked date's start (the plan and its reservation; the slot keeps its day) to `at`. */
async function moveDateStart(planId: string, at: Date) {
  await server.database.db.execute(
    sql`UPDATE reservations SET starts_at = ${at.toISOString()} WHERE id = (SELECT reservation_id FROM dating_plans WHERE id = ${planId})`,
  );
  await server.database.db.execute(sql`UPDATE dating_plans SET starts_at = ${at.toISOString()} WHERE id = ${planId}`);
}

/** Each member's deposit on the plan: the intent's status and what its capture was for, by first name. */
async function depositsOf(planId: string): Promise<Record<string, string>> {
  const rows = await queryRows<{ first_name: string; status: string; capture_purpose: string | null }>(
    server.database.db,
    sql`SELECT split_part(u.name, ' ', 1) AS first_name, i.status, i.capture_purpose FROM dating_plan_members m
        JOIN dating_users u ON u.id = m.member_id JOIN payment_intents i ON i.id = m.intent_id WHERE m.plan_id = ${planId}`,
  );
  return Object.fromEntries(rows.map((row) => [row.first_name, `${row.status}:${row.capture_purpose ?? '-'}`]));
}

/**
 * Back from the payment page, the plan must not offer "Accept and pay" again: the member has
 * accepted, and the card says so at once, not only at the next poll (PAYMENT_POLL_MS, 6 s later).
 */
const SHOWN_ON_RETURN_MS = 3_000;

/** "Accept and pay ₹300" on the member's proposed plan, approve on the sandbox page, and back to /dating/app. */
async function acceptAndPayInPage(page: Page) {
  await upcomingPlan(page).getByRole('button', { name: 'Accept and pay ₹300' }).click();
  await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}\?returnTo=%2Fdating%2Fapp$/);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('₹300');
  await page.getByText('Date deposit', { exact: false }).first().waitFor();
  await page.getByRole('button', { name: 'Approve ₹300' }).click();
  await page.getByRole('link', { name: 'Back to Tablefair' }).click();
  await page.waitForURL(/\/dating\/app(\?payment=approved)?$/);
  await upcomingPlan(page).getByRole('button', { name: 'Accept and pay ₹300' }).waitFor({ state: 'hidden', timeout: SHOWN_ON_RETURN_MS });
}

describe('date plans', () => {
  it('two members go on a date: a plan at a partner table, both pay ₹300 on the sandbox page, staff mark both arrived, and each deposit is credit on the bill', async () => {
    await partnerStaff();
    const asha = await newMember(PHONE, { name: 'Asha Rao', dob: '1994-05-01' });
    const ravi = await newMember(LAPTOP, { name: 'Ravi Kumar', dob: '1992-02-02' });
    for (const member of [asha, ravi]) {
      await member.page.goto(`${server.baseUrl}/dating/app`);
      await member.page.getByRole('heading', { name: 'Your dates' }).waitFor();
    }
    // Before any match: nothing planned yet.
    await asha.page.getByText('When you and a match both say yes, we plan the date here').waitFor();
    await savePreferencesInForm(asha.page);
    await savePreferencesInForm(ravi.page);

    // Ravi sees Asha and says yes; Asha reloads, sees Ravi and says yes: a match, and a plan.
    await suggestionCard(ravi.page, 'Asha').waitFor();
    await suggestionCard(ravi.page, 'Asha').getByRole('button', { name: 'Yes' }).click();
    await suggestionCard(ravi.page, 'Asha').getByText('You said yes.').waitFor();
    await asha.page.reload();
    await suggestionCard(asha.page, 'Ravi').getByRole('button', { name: 'Yes' }).click();
    await asha.page.getByText("It's a match: you and Ravi both said yes").first().waitFor();

    // Asha (375 px): the proposed plan at the partner restaurant, held for two by the platform.
    const ashaPlan = upcomingPlan(asha.page);
    await ashaPlan.getByRole('button', { name: 'Accept and pay ₹300' }).waitFor();
    const planId = (await ashaPlan.getAttribute('data-plan'))!;
    expect(await ashaPlan.getAttribute('data-status')).toBe('PROPOSED');
    expect(await ashaPlan.getByRole('heading', { level: 3 }).innerText()).toContain(RESTAURANT_NAME);
    expect(await ashaPlan.innerText()).toContain('A table for two, held for you and Ravi');
    expect(await ashaPlan.innerText()).toContain('₹300, credit on your bill at the table; paid to you if your date does not come');
    expect(await planRow(planId)).toMatchObject({
      status: 'PROPOSED',
      reservation_status: 'HELD',
      reservation_user: '00000000-0000-4000-8000-00000000da7e',
      party_size: 2,
      restaurant: RESTAURANT,
    });
    // The plan's start: at least 24 hours from now (neither said "tonight is fine", decision 252) and within 7 days.
    const [{ starts_at: startsAt }] = (await queryRows<{ starts_at: Date | string }>(
      server.database.db,
      sql`SELECT starts_at FROM dating_plans WHERE id = ${planId}`,
    )) as [{ starts_at: Date | string }];
    const leadHours = (new Date(startsAt).getTime() - Date.now()) / 3_600_000;
    expect(leadHours).toBeGreaterThanOrEqual(23.9);
    expect(leadHours).toBeLessThan(7 * 24);
    expect(await hasSidewaysScroll(asha.page)).toBe(false);
    await expectAccessible(asha.page, 'a proposed date plan on /dating/app (375 px)');

    await acceptAndPayInPage(asha.page);
    await ashaPlan.getByText('You have accepted and your ₹300 is held.').waitFor({ timeout: 15_000 });
    expect(await ashaPlan.getAttribute('data-status')).toBe('PROPOSED');
    expect((await planRow(planId))!.reservation_status).toBe('HELD');

    // Ravi (1280 px) sees the same plan, and that Asha has paid; he pays too: the table is booked.
    await ravi.page.reload();
    const raviPlan = upcomingPlan(ravi.page);
    await raviPlan.getByText('Asha has accepted and paid.').waitFor();
    expect(await raviPlan.getAttribute('data-plan')).toBe(planId);
    await acceptAndPayInPage(ravi.page);
    await ravi.page.locator(`li[data-plan="${planId}"][data-status="BOOKED"]`).waitFor({ timeout: 15_000 });
    await raviPlan.getByText('Your table is booked').waitFor();
    expect(await planRow(planId)).toMatchObject({ status: 'BOOKED', reservation_status: 'CONFIRMED' });
    expect(await depositsOf(planId)).toEqual({ Asha: 'AUTHORISED:-', Ravi: 'AUTHORISED:-' });

    await asha.page.reload();
    await ashaPlan.getByText('Your ₹300 deposit is held on your account until the date.').waitFor();
    expect(await ashaPlan.getAttribute('data-status')).toBe('BOOKED');
    expect(await ashaPlan.getByRole('button', { name: 'Cancel date' }).count()).toBe(1);
    expect(await hasSidewaysScroll(asha.page)).toBe(false);
    await expectAccessible(asha.page, 'a booked date plan on /dating/app (375 px)');
    await saveScreenshot(asha.page, 'dating-plan-booked-375', { dismissToasts: true });

    // Asha shares the plan with a friend: the link opens without a sign-in and shows where, when and both first names.
    await ashaPlan.getByRole('button', { name: 'Share with someone you trust' }).click();
    const shareUrl = await ashaPlan.getByLabel('Link for someone you trust').inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${server.baseUrl}/dating/share/[A-Za-z0-9_-]{40,}$`));
    const friend = await openAs(browser, null, PHONE);
    const friendErrors = collectPageErrors(friend);
    await friend.goto(shareUrl);
    await friend.getByRole('heading', { level: 1, name: /^(Asha and Ravi|Ravi and Asha) have a date$/ }).waitFor();
    expect(await friend.getByRole('heading', { level: 2 }).innerText()).toContain(RESTAURANT_NAME);
    await friend.getByText('The table is booked.').waitFor();
    expect(await friend.locator('body').innerText()).not.toMatch(/\+91|password/i);
    expect(await hasSidewaysScroll(friend)).toBe(false);
    await expectAccessible(friend, 'a date plan shared with a trusted contact (375 px)');
    await saveScreenshot(friend, 'dating-plan-shared-375');
    // A changed link shows a clear refusal, not the plan.
    await friend.goto(`${shareUrl.slice(0, -3)}${shareUrl.endsWith('AAA') ? 'BBB' : 'AAA'}`);
    await friend.getByText('This is not a Tablefair date link. Ask for the link again.').waitFor();
    // Asha stops sharing (decision 208): the link ends at once, and the card offers sharing anew.
    await expectAccessible(asha.page, 'a date plan being shared, with Stop sharing (375 px)');
    await saveScreenshot(asha.page, 'dating-plan-sharing-375', { dismissToasts: true });
    await ashaPlan.getByRole('button', { name: 'Stop sharing' }).click();
    await asha.page.getByText('Sharing stopped: your link no longer shows this date.').first().waitFor();
    await ashaPlan.getByRole('button', { name: 'Share with someone you trust' }).waitFor();
    expect(await ashaPlan.getByRole('button', { name: 'Stop sharing' }).count()).toBe(0);
    await friend.goto(shareUrl);
    await friend.getByText('This link no longer works: the person who shared it has stopped sharing.').waitFor();
    await expectAccessible(friend, 'a share link its member stopped (375 px)');
    expect(friendErrors).toEqual([]);

    // Ravi (1280 px) shared from another device: his card says so and offers Stop sharing.
    expect((await inPage(ravi.page, `/dating/plans/${planId}/share`, 'POST', {})).status).toBe(200);
    await ravi.page.reload();
    await raviPlan.getByText('Someone you trust can see where and when this date is, from the link you shared.').waitFor();
    expect(await hasSidewaysScroll(ravi.page)).toBe(false);
    await expectAccessible(ravi.page, 'a booked date plan shared from another device (1280 px)');
    await saveScreenshot(ravi.page, 'dating-plan-sharing-1280', { dismissToasts: true });
    await raviPlan.getByRole('button', { name: 'Stop sharing' }).click();
    await raviPlan.getByText('Someone you trust can see where and when this date is').waitFor({ state: 'hidden' });

    // Staff (1280 px): the date in "Tablefair dates", on the plan's day; both arrive.
    const portal = await openAs(browser, null, LAPTOP);
    const portalErrors = collectPageErrors(portal);
    await signInStaff(portal, server.baseUrl, STAFF);
    const panel = portal.getByRole('region', { name: /^Tablefair dates/ });
    await panel.waitFor();
    const planDate = (
      await queryRows<{ day: string }>(
        server.database.db,
        sql`SELECT s.slot_date::text AS day FROM dating_plans p
      JOIN reservations r ON r.id = p.reservation_id JOIN slots s ON s.id = r.slot_id WHERE p.id = ${planId}`,
      )
    )[0]!.day;
    if (planDate !== todayInKolkata()) await panel.getByLabel('Dates on', { exact: true }).fill(planDate);
    const row = panel.locator(`[data-testid="dates-row"][data-plan-id="${planId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Tablefair date: (Asha & Ravi|Ravi & Asha), party of 2/);
    expect(await panel.getByTestId('dates-row').count()).toBe(1);
    await expectAccessible(portal, 'the portal dashboard with a Tablefair date (1280 px)');
    await saveScreenshot(portal, 'dating-plan-portal-1280');

    // Hours ahead of the date, arrivals are not offered (decision 253); the date is then moved to start in 20 minutes.
    expect(await row.getByRole('button', { name: /^Mark .* arrived/ }).count()).toBe(0);
    await row
      .getByText(/^From \d+:\d+ [AP]M$/)
      .first()
      .waitFor();
    await moveDateStart(planId, new Date(Date.now() + 20 * 60_000));
    await portal.reload();
    await panel.waitFor();
    if (planDate !== todayInKolkata()) await panel.getByLabel('Dates on', { exact: true }).fill(planDate);
    await row.getByRole('button', { name: 'Mark Asha arrived' }).click();
    const confirm = portal.getByRole('dialog', { name: 'Mark Asha arrived?' });
    await confirm.getByRole('button', { name: 'Mark Asha arrived' }).click();
    await row.getByText('✓ Arrived').waitFor();
    expect(await row.getAttribute('data-status')).toBe('BOOKED');
    expect((await planRow(planId))!.reservation_status).toBe('CONFIRMED');
    // Marked by mistake: undone within 10 minutes, then marked again.
    await row.getByRole('button', { name: /^Undo Asha's arrival/ }).click();
    await row.getByRole('button', { name: 'Mark Asha arrived' }).click();
    await confirm.getByRole('button', { name: 'Mark Asha arrived' }).click();
    await row.getByText('✓ Arrived').waitFor();
    await row.getByRole('button', { name: 'Mark Ravi arrived' }).click();
    await portal.getByRole('dialog', { name: 'Mark Ravi arrived?' }).getByRole('button', { name: 'Mark Ravi arrived' }).click();
    await panel.locator(`[data-testid="dates-row"][data-plan-id="${planId}"][data-status="SEATED"]`).waitFor();
    await row.getByText('Both arrived').waitFor();
    expect(await planRow(planId)).toMatchObject({ status: 'SEATED', reservation_status: 'SEATED' });
    await expect.poll(() => depositsOf(planId), { timeout: 15_000 }).toEqual({ Asha: 'CAPTURED:credit_at_table', Ravi: 'CAPTURED:credit_at_table' });

    // Each member sees the date happened and their deposit as credit on the bill.
    for (const [member, partner] of [
      [asha, 'Ravi'],
      [ravi, 'Asha'],
    ] as const) {
      await member.page.reload();
      const past = earlierPlan(member.page);
      await past.getByText('Your ₹300 deposit was credit on your bill at the table.').waitFor();
      expect(await past.getAttribute('data-status')).toBe('SEATED');
      expect(await past.innerText()).toContain(`You and ${partner} met at ${RESTAURANT_NAME}.`);
      expect(await member.page.getByTestId('date-strikes').count()).toBe(0);
      // After the date: the two questions, answered once.
      const questions = past.getByRole('form', { name: `After your date with ${partner}` });
      await questions
        .getByRole('group', { name: `Did ${partner} show up?` })
        .getByLabel('Yes')
        .check();
      await questions
        .getByRole('group', { name: `Would you meet ${partner} again?` })
        .getByLabel('Yes')
        .check();
      await questions.getByRole('button', { name: 'Send answers' }).click();
      await past.getByText(`You said ${partner} showed up and you would meet again.`).waitFor();
    }
    expect(await queryRows(server.database.db, sql`SELECT 1 FROM dating_plan_members WHERE plan_id = ${planId} AND showed_up AND meet_again`)).toHaveLength(2);
    await expectAccessible(ravi.page, 'a past date with the after-date answers (1280 px)');
    expect(asha.errors).toEqual([]);
    expect(ravi.errors).toEqual([]);
    expect(portalErrors).toEqual([]);
  });

  it('one member flakes: only one arrives, the sweeper settles the date 15 minutes past its start, pays the flake’s ₹300 to the one who came and records a strike', async () => {
    const staff = await partnerStaff();
    const meera = await newMember(PHONE, { name: 'Meera Nair', dob: '1980-03-03' });
    const kiran = await newMember(LAPTOP, { name: 'Kiran Das', dob: '1979-07-07' });
    // Ages 42-50: this pair and the first never meet each other's wishes, so they are suggested only to each other.
    const preferences = {
      wantAgeMin: 42,
      wantAgeMax: 50,
      neighbourhoods: ['Indiranagar'],
      freeEvenings,
      intent: 'LONG_TERM',
      interests: ['Jazz'],
      languages: ['Kannada'],
    };
    for (const member of [meera, kiran]) expect((await inPage(member.page, '/dating/me/preferences', 'PUT', preferences)).status).toBe(200);

    // Both say yes through the API (the first journey said it on the screen).
    const memberIds: Record<string, string> = {};
    for (const [member, other] of [
      [meera, 'Kiran'],
      [kiran, 'Meera'],
    ] as const) {
      const suggestions = await inPage<DatingSuggestionsResponse>(member.page, '/dating/suggestions');
      expect(suggestions.status).toBe(200);
      const suggested = suggestions.body.suggestions.find((suggestion) => suggestion.firstName === other);
      expect(suggested, JSON.stringify(suggestions.body.suggestions.map((suggestion) => suggestion.firstName))).toBeDefined();
      memberIds[other] = suggested!.memberId;
      expect((await inPage(member.page, `/dating/suggestions/${suggested!.memberId}/answer`, 'POST', { answer: 'YES' })).status).toBe(200);
    }

    // The plan, accepted and paid by both through the API and the sandbox's decision: booked.
    const listed = await inPage<DatePlansResponse>(meera.page, '/dating/plans');
    expect(listed.body.plans).toHaveLength(1);
    const planId = listed.body.plans[0]!.id;
    for (const member of [meera, kiran]) {
      const accepted = await inPage<AcceptDatePlanResponse>(member.page, `/dating/plans/${planId}/accept`, 'POST', {});
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const approved = await inPage(member.page, `/api/payments/sandbox/${accepted.body.payment.intentId}/decision`, 'POST', { decision: 'approve' });
      expect(approved.status).toBe(200);
    }
    await expect.poll(async () => (await planRow(planId))?.reservation_status, { timeout: 15_000 }).toBe('CONFIRMED');
    expect((await planRow(planId))!.status).toBe('BOOKED');

    // Before the arrivals open (30 minutes ahead), the server refuses; the date is moved to start in 10 minutes.
    const early = await api<{ error: string }>(`/api/admin/dates/${planId}/arrivals`, { method: 'POST', token: staff, body: { memberId: memberIds.Meera } });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/^Arrivals for this date can be marked from \d+:\d+ [AP]M, 30 minutes before it starts\.$/);
    await moveDateStart(planId, new Date(Date.now() + 10 * 60_000));
    // Only Meera arrives; then the date is moved to have started 20 minutes ago.
    const arrived = await api<{ members: { firstName: string; arrived: boolean }[] }>(`/api/admin/dates/${planId}/arrivals`, {
      method: 'POST',
      token: staff,
      body: { memberId: memberIds.Meera },
    });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
    expect(Object.fromEntries(arrived.body.members.map((member) => [member.firstName, member.arrived]))).toEqual({ Meera: true, Kiran: false });
    await moveDateStart(planId, new Date(Date.now() - 20 * 60_000));

    // The sweeper settles it: the table is seated (Meera came), Kiran's deposit is paid out to Meera.
    await expect.poll(async () => (await planRow(planId))?.status, { timeout: 20_000 }).toBe('FLAKED');
    expect((await planRow(planId))!.reservation_status).toBe('SEATED');
    await expect.poll(() => depositsOf(planId), { timeout: 15_000 }).toEqual({ Meera: 'CAPTURED:credit_at_table', Kiran: 'CAPTURED:pay_member' });
    const payouts = () =>
      queryRows<{ to_account_id: string; amount_paise: number; status: string }>(
        server.database.db,
        sql`SELECT po.to_account_id, po.amount_paise, po.status FROM payouts po JOIN dating_plan_members m ON m.intent_id = po.source_intent_id
            WHERE m.plan_id = ${planId}`,
      );
    await expect.poll(payouts, { timeout: 15_000 }).toEqual([{ to_account_id: memberIds.Meera, amount_paise: 30_000, status: 'PAID' }]);
    const strikes = await queryRows<{ member_id: string; reason: string }>(
      server.database.db,
      sql`SELECT member_id, reason FROM dating_strikes WHERE plan_id = ${planId} OR member_id IN (${memberIds.Meera}, ${memberIds.Kiran})`,
    );
    expect(strikes).toEqual([{ member_id: memberIds.Kiran, reason: 'NOT_ARRIVED' }]);

    // Meera (375 px) sees the ₹300 paid to her; Kiran sees his deposit went to Meera, and his strike.
    await meera.page.goto(`${server.baseUrl}/dating/app`);
    const meeraPast = earlierPlan(meera.page);
    await meeraPast.getByText('₹300 paid to you because Kiran did not come.').waitFor();
    expect(await meeraPast.innerText()).toContain('Kiran did not come to this date.');
    expect(await meeraPast.innerText()).toContain('Your ₹300 deposit was credit on your bill at the table.');
    expect(await meera.page.getByTestId('date-strikes').count()).toBe(0);
    expect(await hasSidewaysScroll(meera.page)).toBe(false);

    await kiran.page.goto(`${server.baseUrl}/dating/app`);
    const kiranPast = earlierPlan(kiran.page);
    await kiranPast.getByText('Your ₹300 deposit was paid to Meera, and a strike was recorded.').waitFor();
    expect(await kiranPast.innerText()).toContain('You did not make it to this date, so it counts as a missed date.');
    expect(await kiranPast.innerText()).not.toContain('paid to you');
    expect(await kiran.page.getByTestId('date-strikes').innerText()).toBe('You have 1 strike for missed dates. Each missed date or late cancel adds one.');
    expect(meera.errors).toEqual([]);
    expect(kiran.errors).toEqual([]);
  });
});
