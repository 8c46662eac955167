import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AcceptDatePlanResponse, DatePlansResponse } from '#common/contract/dating-plans.ts';
import type { DatingSuggestionsResponse } from '#common/contract/dating.ts';
import type { DatingNotificationPreferences } from '#common/contract/push.ts';
import { freeEvenings } from '#common/domain/dating-match.ts';
import { browserKeys, decryptPush, startFakePushService, type FakePushService } from '#server/test/fake-push-service.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { inPage, makeOnlyDatePartner, signUpJourneyMemberInPage } from './support/dating.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { apiClient, expectAccessible, hasSidewaysScroll, saveScreenshot } from './support/fixtures.ts';
import { allowNotifications, showPushedNotification } from './support/push.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Date-plan changes by push, in Chromium (decisions 219, 227). Two dating members (Asha on a 375 px
 * phone, Ravi on a 1280 px laptop) each tap "Notify me" under "Your dates"; headless Chromium
 * refuses the real subscribe and the screen must say so (see e2e/support/push.ts for what is real).
 * Each browser's subscription is then one this test holds on a local push service, kept for the
 * member through their own session. A match becomes a plan: both hear of it; Ravi says yes and
 * pays, and Asha hears that too. The server's real pushes are decrypted and handed to each page's
 * service worker, whose notification opens the plan's own card.
 */
const STAFF = { username: 'pho-real', password: 'staff1234' };

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
// Push needs the desktop Chromium (the shared headless shell keeps notifications denied; decision 289)
// and the app's service worker (decision 290).
useE2eEnvironment('date-plan-push', (environment) => ({ server, browser, api } = environment), {}, { desktopBrowser: true, serviceWorker: true });

type Member = { page: Page; errors: string[]; keys: ReturnType<typeof browserKeys>; device: string };

/** A member signed up in their own browser, on /dating/app with the service worker in charge, notifications allowed. */
async function newMember(viewport: { width: number; height: number }, person: { name: string; dob: string }, device: string): Promise<Member> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await allowNotifications(page, server.baseUrl);
  await page.goto(`${server.baseUrl}/dating`);
  await signUpJourneyMemberInPage(page, person);
  await page.goto(`${server.baseUrl}/dating/app`);
  await page.getByRole('heading', { name: 'Your dates' }).waitFor();
  const controlled = () => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
  // A worker still installing when the page loaded takes it at the next load.
  await controlled().catch(async () => {
    await page.reload();
    await controlled();
  });
  return { page, errors, keys: browserKeys(), device };
}

/** "Notify me" on Your dates: the real subscribe, which headless Chromium refuses; the screen must say where it stands. */
async function tapNotifyMe(member: Member, pushService: FakePushService) {
  const optIn = member.page.getByText('Tell me when my date answers');
  await optIn.waitFor();
  await member.page.getByRole('button', { name: 'Notify me' }).click();
  await member.page.getByText(/Notifications are on for this device|We could not turn on notifications on this device/).waitFor();
  // The subscription the server will push to: this test's keys on the local push service, kept through the member's own session.
  const subscribed = await inPage(member.page, '/dating/me/push-subscriptions', 'POST', {
    endpoint: pushService.endpoint(member.device),
    keys: member.keys.json,
  });
  expect(subscribed.status).toBe(201);
}

/** The pushes the local push service received for one member's browser, decrypted as that browser would. */
function pushesFor(pushService: FakePushService, member: Member): { payload: string; title: string; url: string }[] {
  return pushService.requests
    .filter((request) => request.path === `/push/${member.device}`)
    .map((request) => {
      const payload = decryptPush(request.body, member.keys);
      return { payload, ...(JSON.parse(payload) as { title: string; url: string }) };
    });
}

describe('date-plan changes by push', () => {
  it('two members opt in; the plan proposed and a yes arrive as notifications that open the plan, at 375 and 1280 px', async () => {
    const pushService = await startFakePushService();
    try {
      await makeOnlyDatePartner(server, api, STAFF);
      const asha = await newMember(PHONE, { name: 'Asha Rao', dob: '1994-05-01' }, 'asha-phone');
      const ravi = await newMember(LAPTOP, { name: 'Ravi Kumar', dob: '1992-02-02' }, 'ravi-laptop');

      // The opt-in where it matters: on Your dates, at both widths.
      await asha.page.getByText('Tell me when my date answers').waitFor();
      expect(await hasSidewaysScroll(asha.page)).toBe(false);
      await expectAccessible(asha.page, 'the date-plan push opt-in on /dating/app (375 px)');
      await saveScreenshot(asha.page, 'dating-push-opt-in-375', { dismissToasts: true });
      for (const member of [asha, ravi]) await tapNotifyMe(member, pushService);
      await expectAccessible(ravi.page, 'the date-plan push opt-in on /dating/app (1280 px)');
      await saveScreenshot(ravi.page, 'dating-push-opt-in-1280', { dismissToasts: true });

      // A match: both say yes through the API, and the plan is proposed when Asha opens her dates.
      const preferences = {
        wantAgeMin: 25,
        wantAgeMax: 40,
        neighbourhoods: ['Indiranagar'],
        freeEvenings,
        intent: 'LONG_TERM',
        interests: ['Jazz'],
        languages: ['Kannada'],
      };
      for (const member of [asha, ravi]) expect((await inPage(member.page, '/dating/me/preferences', 'PUT', preferences)).status).toBe(200);
      for (const [member, other] of [
        [asha, 'Ravi'],
        [ravi, 'Asha'],
      ] as const) {
        const suggestions = await inPage<DatingSuggestionsResponse>(member.page, '/dating/suggestions');
        const suggested = suggestions.body.suggestions.find((suggestion) => suggestion.firstName === other);
        expect(suggested, JSON.stringify(suggestions.body.suggestions.map((suggestion) => suggestion.firstName))).toBeDefined();
        expect((await inPage(member.page, `/dating/suggestions/${suggested!.memberId}/answer`, 'POST', { answer: 'YES' })).status).toBe(200);
      }
      const listed = await inPage<DatePlansResponse>(asha.page, '/dating/plans');
      expect(listed.body.plans).toHaveLength(1);
      const planId = listed.body.plans[0]!.id;
      const planUrl = `/dating/app?plan=${planId}`;

      // Both hear of the plan; Ravi's laptop shows it.
      await expect.poll(() => pushService.requests.length, { timeout: 10_000 }).toBe(2);
      const [raviProposed] = pushesFor(pushService, ravi);
      expect(raviProposed).toMatchObject({ title: 'A date plan for you and Asha', url: planUrl });
      const raviNotification = await showPushedNotification(ravi.page, server.baseUrl, raviProposed!.payload);
      expect(raviNotification).toMatchObject({ title: 'A date plan for you and Asha', data: { url: planUrl } });

      // Ravi says yes and pays: Asha (who has not paid) hears it on her phone.
      const accepted = await inPage<AcceptDatePlanResponse>(ravi.page, `/dating/plans/${planId}/accept`, 'POST', {});
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect((await inPage(ravi.page, `/api/payments/sandbox/${accepted.body.payment.intentId}/decision`, 'POST', { decision: 'approve' })).status).toBe(200);
      await expect.poll(() => pushesFor(pushService, asha).length, { timeout: 15_000 }).toBe(2);
      const ashaYes = pushesFor(pushService, asha)[1]!;
      expect(ashaYes).toMatchObject({ title: 'Ravi said yes to your date', url: planUrl });
      // Ravi is not told of his own yes.
      expect(pushesFor(pushService, ravi)).toHaveLength(1);
      const ashaNotification = await showPushedNotification(asha.page, server.baseUrl, ashaYes.payload);
      expect(ashaNotification).toMatchObject({ title: 'Ravi said yes to your date', data: { url: planUrl } });

      // The notification's screen: the plan's own card, scrolled to and focused.
      await asha.page.goto(`${server.baseUrl}${planUrl}`);
      await asha.page.locator(`li[data-plan="${planId}"]`).waitFor();
      await expect.poll(() => asha.page.evaluate(() => document.activeElement?.getAttribute('data-plan'))).toBe(planId);
      expect(await hasSidewaysScroll(asha.page)).toBe(false);
      await expectAccessible(asha.page, 'the plan a notification opened (375 px)');
      await saveScreenshot(asha.page, 'dating-push-plan-opened-375', { dismissToasts: true });

      // The Notifications setting of the profile, at 375 px: date-plan news off and on again, by keyboard.
      const settings = asha.page.getByRole('region', { name: 'Notifications' });
      const news = settings.getByRole('switch', { name: 'Date-plan news' });
      await news.scrollIntoViewIfNeeded();
      expect(await news.getAttribute('aria-checked')).toBe('true');
      await news.focus();
      await asha.page.keyboard.press('Enter');
      await expect.poll(() => news.getAttribute('aria-checked')).toBe('false');
      expect((await inPage<DatingNotificationPreferences>(asha.page, '/dating/me/notification-preferences')).body).toMatchObject({
        push: false,
        pushDevices: 1,
      });
      await asha.page.keyboard.press('Space');
      await expect.poll(() => news.getAttribute('aria-checked')).toBe('true');
      await expectAccessible(asha.page, 'the dating Notifications setting (375 px)');
      await saveScreenshot(asha.page, 'dating-push-settings-375', { dismissToasts: true });

      // Logging out still works with its new first step (this browser holds no real subscription to remove: see above).
      await asha.page.getByRole('button', { name: 'Log out' }).click();
      await asha.page.waitForURL(`${server.baseUrl}/dating`);
      for (const member of [asha, ravi]) expect(member.errors).toEqual([]);
    } finally {
      await pushService.close();
    }
  });
});
