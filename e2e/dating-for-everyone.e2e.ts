import type { Browser, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AcceptDatePlanResponse, DatePlansResponse } from '#common/contract/dating-plans.ts';
import type { DatingSuggestionsResponse } from '#common/contract/dating.ts';
import { freeEvenings } from '#common/domain/dating-match.ts';
import { queryRows } from '#server/db/client.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { inPage, signUpJourneyMemberInPage } from './support/dating.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, expectAccessible, hasSidewaysScroll, openAs, saveScreenshot, signInStaff } from './support/fixtures.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Dating for everyone (decisions 250-254) in Chromium: four pairs, each saying who they are and
 * who they want to meet (a woman and a man, two women, two men, and a non-binary member meeting a
 * woman who wants to meet everyone), reach a booked date at a partner table. The non-binary pair
 * walks it on screen (375 and 1280 px): "Why you two", "Yes", the plan card with what a late
 * cancel costs, paying on the sandbox page. The other three get there through HTTP calls. Nobody
 * is suggested to someone who does not want to meet them, and arrivals hours before a date are
 * refused by the server (409) and not offered in the portal.
 */
const RESTAURANT = 'pho-real';
const STAFF = { username: RESTAURANT, password: 'staff1234' };

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
useE2eEnvironment('dating-for-everyone', (environment) => ({ server, browser, api } = environment));

interface Member {
  name: string;
  page: Page;
  errors: string[];
}

/** A member signed up from inside a page of their own, with their age band's preferences (each pair has its own band, so pairs never cross). */
async function newMember(
  viewport: { width: number; height: number },
  person: { name: string; age: number; gender: string; wantsToMeet: string },
): Promise<Member> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.baseUrl}/dating`);
  await signUpJourneyMemberInPage(page, {
    name: person.name,
    dob: `${new Date().getUTCFullYear() - person.age - 1}-01-01`,
    gender: person.gender,
    wantsToMeet: person.wantsToMeet,
  });
  const band = { wantAgeMin: person.age - 1, wantAgeMax: person.age + 1 };
  const saved = await inPage(page, '/dating/me/preferences', 'PUT', { ...band, neighbourhoods: ['Indiranagar'], freeEvenings, intent: 'LONG_TERM' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { name: person.name, page, errors };
}

const suggestedNames = async (member: Member) =>
  (await inPage<DatingSuggestionsResponse>(member.page, '/dating/suggestions')).body.suggestions.map((suggestion) => suggestion.firstName);

async function planStatus(planId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ status: string }>(server.database.db, sql`SELECT status FROM dating_plans WHERE id = ${planId}`);
  return row?.status;
}

/** Both say yes, accept and approve their deposits through HTTP: the plan is booked. Answers the plan's id. */
async function bookThroughApi(a: Member, b: Member): Promise<string> {
  for (const [member, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const suggestions = (await inPage<DatingSuggestionsResponse>(member.page, '/dating/suggestions')).body.suggestions;
    const suggested = suggestions.find((suggestion) => suggestion.firstName === other.name.split(' ')[0]);
    expect(suggested, `${member.name} sees ${suggestions.map((s) => s.firstName).join(', ')}`).toBeDefined();
    expect((await inPage(member.page, `/dating/suggestions/${suggested!.memberId}/answer`, 'POST', { answer: 'YES' })).status).toBe(200);
  }
  const [plan] = (await inPage<DatePlansResponse>(a.page, '/dating/plans')).body.plans;
  expect(plan, `${a.name} has a plan`).toBeDefined();
  for (const member of [a, b]) {
    const accepted = await inPage<AcceptDatePlanResponse>(member.page, `/dating/plans/${plan!.id}/accept`, 'POST', {});
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await inPage(member.page, `/api/payments/sandbox/${accepted.body.payment.intentId}/decision`, 'POST', { decision: 'approve' })).status).toBe(200);
  }
  await expect.poll(() => planStatus(plan!.id), { timeout: 15_000 }).toBe('BOOKED');
  return plan!.id;
}

const upcomingPlan = (page: Page) => page.getByRole('list', { name: 'Upcoming date plans' }).locator('li[data-plan]');

/** "Accept and pay ₹300" on the plan card, approved on the sandbox page, and back. */
async function acceptAndPayInPage(page: Page) {
  await upcomingPlan(page).getByRole('button', { name: 'Accept and pay ₹300' }).click();
  await page.waitForURL(/\/pay\/sandbox\/[0-9a-f-]{36}/);
  await page.getByRole('button', { name: 'Approve ₹300' }).click();
  await page.getByRole('link', { name: 'Back to Tablefair' }).click();
  await page.waitForURL(/\/dating\/app(\?payment=approved)?$/);
}

describe('dating for everyone', () => {
  it('four pairs reach a booked date at a partner table, each suggested only to who wants to meet them; arrivals hours ahead are refused', async () => {
    // The only partner table: Pho Real, in every member's budget, cuisine and neighbourhood.
    await server.database.db.execute(sql`DELETE FROM dating_partners`);
    const login = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: STAFF });
    expect(login.status).toBe(200);
    const staff = login.body.token;
    const partner = { budget: 'INR_1000_2500', neighbourhood: 'Indiranagar', cuisines: ['SOUTH_INDIAN'], dateTypes: ['COFFEE', 'DINNER'] };
    expect((await api('/api/admin/date-partner', { method: 'PUT', token: staff, body: partner })).status).toBe(200);

    // The non-binary pair on screen: Sam (non-binary, 375 px) and Priya (a woman who wants to meet everyone, 1280 px).
    const sam = await newMember(PHONE, { name: 'Sam Iyer', age: 26, gender: 'NON_BINARY', wantsToMeet: 'EVERYONE' });
    const priya = await newMember(LAPTOP, { name: 'Priya Nair', age: 26, gender: 'WOMAN', wantsToMeet: 'EVERYONE' });
    // The other three pairs, through HTTP.
    const pairs: [Member, Member][] = [
      [
        await newMember(LAPTOP, { name: 'Asha Rao', age: 30, gender: 'WOMAN', wantsToMeet: 'MEN' }),
        await newMember(LAPTOP, { name: 'Rohan Das', age: 30, gender: 'MAN', wantsToMeet: 'WOMEN' }),
      ],
      [
        await newMember(LAPTOP, { name: 'Meera Shah', age: 34, gender: 'WOMAN', wantsToMeet: 'WOMEN' }),
        await newMember(LAPTOP, { name: 'Divya Menon', age: 34, gender: 'WOMAN', wantsToMeet: 'WOMEN' }),
      ],
      [
        await newMember(LAPTOP, { name: 'Kiran Rao', age: 38, gender: 'MAN', wantsToMeet: 'MEN' }),
        await newMember(LAPTOP, { name: 'Arjun Pillai', age: 38, gender: 'MAN', wantsToMeet: 'MEN' }),
      ],
    ];
    // A man in the women's band who wants to meet women: Meera and Divya never see him, nor he them.
    const vikram = await newMember(LAPTOP, { name: 'Vikram Rao', age: 34, gender: 'MAN', wantsToMeet: 'WOMEN' });
    expect(await suggestedNames(pairs[1][0])).toEqual(['Divya']);
    expect(await suggestedNames(vikram)).toEqual([]);

    // Sam at 375 px: Priya's card says why the two were suggested; Sam says yes.
    await sam.page.goto(`${server.baseUrl}/dating/app`);
    const priyaCard = sam.page
      .getByRole('list', { name: 'Suggested members' })
      .getByRole('listitem')
      .filter({ has: sam.page.getByRole('heading', { name: /^Priya, \d+$/ }) });
    await priyaCard.getByRole('heading', { name: 'Why you two' }).waitFor();
    expect(await priyaCard.innerText()).toMatch(/Cuisines\s+South Indian, Japanese/);
    expect(await priyaCard.innerText()).toContain('Woman · Architect');
    await expectAccessible(sam.page, 'a suggestion with why you two (375 px)');
    await priyaCard.getByRole('button', { name: 'Yes' }).click();
    await priyaCard.getByText('You said yes.').waitFor();

    // Priya at 1280 px: "Not for me" asks first; she goes back and says yes: a match, and a plan.
    await priya.page.goto(`${server.baseUrl}/dating/app`);
    const samCard = priya.page
      .getByRole('list', { name: 'Suggested members' })
      .getByRole('listitem')
      .filter({ has: priya.page.getByRole('heading', { name: /^Sam, \d+$/ }) });
    await samCard.getByRole('button', { name: 'Not for me' }).click();
    const passDialog = priya.page.getByRole('dialog', { name: 'Pass on Sam?' });
    await passDialog.getByText("A pass is final: you won't be suggested to each other again.").waitFor();
    await expectAccessible(priya.page, 'the pass confirmation (1280 px)');
    await passDialog.getByRole('button', { name: 'Go back' }).click();
    await samCard.getByRole('button', { name: 'Yes' }).click();
    await priya.page.getByText("It's a match: you and Sam both said yes").first().waitFor();

    // The plan card, before paying: the place, why the two, and what a late cancel costs and from when.
    const priyaPlan = upcomingPlan(priya.page);
    await priyaPlan.getByRole('button', { name: 'Accept and pay ₹300' }).waitFor();
    const planText = await priyaPlan.innerText();
    expect(planText).toMatch(/Budget\s+₹1,000–2,500 for two/);
    expect(planText).toMatch(
      /Cancelling from \w{3}, \d+ \w{3} at \d+:\d{2} [AP]M \(24 hours before the date\) pays your ₹300 deposit to Sam and records a strike/,
    );
    expect(await priyaPlan.getByRole('img', { name: 'Sam, first photo' }).count()).toBe(1);
    await expectAccessible(priya.page, 'a proposed plan with the place and why you two (1280 px)');
    await saveScreenshot(priya.page, 'dating-for-everyone-plan-1280', { dismissToasts: true });
    await acceptAndPayInPage(priya.page);
    await sam.page.reload();
    await upcomingPlan(sam.page).getByText('Priya has accepted and paid.').waitFor();
    await acceptAndPayInPage(sam.page);
    const samPlan = upcomingPlan(sam.page);
    await sam.page.locator('li[data-plan][data-status="BOOKED"]').waitFor({ timeout: 15_000 });
    await samPlan.getByText('Your table is booked').waitFor();
    expect(await hasSidewaysScroll(sam.page)).toBe(false);
    await expectAccessible(sam.page, 'a booked date for a non-binary member (375 px)');
    await saveScreenshot(sam.page, 'dating-for-everyone-booked-375', { dismissToasts: true });
    const nonBinaryPlan = (await samPlan.getAttribute('data-plan'))!;

    // The other three pairs, booked through HTTP.
    const planIds = [nonBinaryPlan];
    for (const [a, b] of pairs) planIds.push(await bookThroughApi(a, b));
    for (const planId of planIds) expect(await planStatus(planId)).toBe('BOOKED');

    // Every plan is at least 24 hours ahead, so the staff cannot mark an arrival yet: 409 from the server, no button on screen.
    const early = await api<{ error: string }>(`/api/admin/dates/${nonBinaryPlan}/arrivals`, {
      method: 'POST',
      token: staff,
      body: { memberId: (await inPage<{ id: string }>(sam.page, '/dating/auth/me')).body.id },
    });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/^Arrivals for this date can be marked from \d+:\d{2} [AP]M, 30 minutes before it starts\.$/);
    const [{ day }] = await queryRows<{ day: string }>(
      server.database.db,
      sql`SELECT s.slot_date::text AS day FROM dating_plans p JOIN reservations r ON r.id = p.reservation_id JOIN slots s ON s.id = r.slot_id WHERE p.id = ${nonBinaryPlan}`,
    );
    const portal = await openAs(browser, null, LAPTOP);
    await signInStaff(portal, server.baseUrl, STAFF);
    const panel = portal.getByRole('region', { name: /^Tablefair dates/ });
    await panel.getByLabel('Dates on', { exact: true }).fill(day);
    const row = panel.locator(`[data-testid="dates-row"][data-plan-id="${nonBinaryPlan}"]`);
    await row
      .getByText(/^From \d+:\d{2} [AP]M$/)
      .first()
      .waitFor();
    expect(await row.getByRole('button', { name: /arrived/ }).count()).toBe(0);
    await expectAccessible(portal, 'a Tablefair date before its arrivals open (1280 px)');

    for (const member of [sam, priya, vikram, ...pairs.flat()]) expect(member.errors, member.name).toEqual([]);
  });
});
