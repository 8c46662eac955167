import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { NotificationPreferences } from '#common/contract/push.ts';
import type { WaitlistResponse } from '#common/contract/waitlist.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { browserKeys, decryptPush, startFakePushService } from '#server/test/fake-push-service.ts';
import { TcpProxy } from '#server/test/tcp-proxy.ts';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { apiClient, createDiner as createDinerByApi, expectAccessible, holdFirstFreeTable, openAs, saveScreenshot } from './support/fixtures.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { fillTheEvening } from './support/full-evening.ts';
import { allowNotifications, showPushedNotification, shownNotifications } from './support/push.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Push and the installable app in Chromium (decision 212).
 *
 * What is real and what is not: headless Chromium refuses pushManager.subscribe ("Registration
 * failed - permission denied") even with the notifications permission granted, and this machine
 * cannot reach a browser vendor's push service anyway. So the diner taps "Notify me" for real and
 * the screen must answer (on, or the refusal sentence); the subscription the server sends to is
 * then one this test holds (its own P-256 keys) on a local push service. The server's real offer
 * goes out through web-push, encrypted and VAPID-signed, to that local service; the test decrypts
 * it as a browser would and hands the payload to the real service worker through CDP
 * (ServiceWorker.deliverPushMessage), which must show the notification that opens the hold.
 */
const RESTAURANT = 'chai-point-reserve';
const BLOCKED_TIME = '19:30';

let server: E2eServer;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
// Push needs the desktop Chromium (the shared headless shell keeps notifications denied; decision 289)
// and the app's service worker (decision 290).
useE2eEnvironment('push', (environment) => ({ server, browser, api } = environment), {}, { desktopBrowser: true, serviceWorker: true });

const createDiner = (name: string) => createDinerByApi(api, { prefix: 'push', name });
const fillTheEveningAt = (date: string) => fillTheEvening(api, { restaurant: RESTAURANT, date, time: BLOCKED_TIME, prefix: 'push' });

async function pageWithNotifications(
  token: string,
  viewport: { width: number; height: number },
  origin = server.baseUrl,
): Promise<{ page: Page; context: BrowserContext }> {
  const page = await openAs(browser, token, viewport);
  await allowNotifications(page, origin);
  return { page, context: page.context() };
}

describe('push and the installable app, in Chromium', () => {
  it('opts in after joining a waitlist, and the offer arrives as a notification that opens the hold', async () => {
    const pushService = await startFakePushService();
    try {
      const date = addDays(todayInKolkata(), 2);
      const rival = await fillTheEveningAt(date);
      const diner = await createDiner('Asha');
      const { page } = await pageWithNotifications(diner.token, LAPTOP);
      const errors = collectPageErrors(page);

      // The installable app: its manifest and worker are served and the worker takes the page.
      const manifest = await api<{ name: string; icons: { sizes: string }[]; start_url: string; display: string }>('/manifest.webmanifest');
      expect(manifest.status).toBe(200);
      expect(manifest.body).toMatchObject({ name: 'Tablefair', start_url: '/me', display: 'standalone' });
      expect(manifest.body.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));

      await page.goto(`${server.baseUrl}/r/${RESTAURANT}?date=${date}&party=2`);
      await page.getByRole('heading', { name: 'Chai Point Reserve' }).waitFor();
      await page.locator(`.date-chip[data-date="${date}"]`).click();
      await page.getByRole('heading', { name: 'Wait for a table' }).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
      await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
      await page.getByRole('heading', { name: 'You’re on the waitlist' }).waitFor();
      const optIn = page.getByText('Tell me the moment a table frees');
      await optIn.waitFor();
      await expectAccessible(page, 'the waitlist joined, with the push opt-in');
      await saveScreenshot(page, 'push-opt-in-waitlist-1280', { dismissToasts: true });

      // The real subscribe, from the screen: headless Chromium refuses it; either way the screen must say where it stands.
      await page.getByRole('button', { name: 'Notify me' }).click();
      await page.getByText(/Notifications are on for this device|We could not turn on notifications on this device/).waitFor();

      // The subscription the server will push to: this test's keys, on the local push service.
      const keys = browserKeys();
      const subscribed = await api('/api/me/push-subscriptions', {
        method: 'POST',
        token: diner.token,
        body: { endpoint: pushService.endpoint('asha-laptop'), keys: keys.json },
      });
      expect(subscribed.status).toBe(201);
      expect((await api<NotificationPreferences>('/api/me/notification-preferences', { token: diner.token })).body.pushDevices).toBeGreaterThanOrEqual(1);

      // A table frees: the server holds it for Asha and pushes the offer.
      expect((await api(`/api/reservations/${rival.reservationId}/cancel`, { method: 'POST', token: rival.rivalToken, body: {} })).status).toBe(200);
      await expect.poll(() => pushService.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const waitlist = await api<WaitlistResponse>('/api/waitlist', { token: diner.token });
      const holdId = waitlist.body.entries[0]!.offer!.reservationId;
      const [request] = pushService.requests;
      expect(request.headers.authorization).toMatch(/^vapid t=.+, k=.+$/);
      expect(request.headers.ttl).toBe('600');
      const payload = decryptPush(request.body, keys);
      expect(JSON.parse(payload)).toMatchObject({ url: `/hold/${holdId}`, title: expect.stringContaining('is yours') });

      // The real service worker receives that payload and shows the notification.
      const notification = await showPushedNotification(page, server.baseUrl, payload);
      expect(await shownNotifications(page)).toHaveLength(1);
      expect(notification.title).toContain('Chai Point Reserve');
      expect(notification.data).toEqual({ url: `/hold/${holdId}` });

      // The Notifications card at laptop width: the browser's refusal is said on the push row, a device is counted.
      await page.goto(`${server.baseUrl}/me`);
      await page.getByRole('switch', { name: 'SMS' }).waitFor();
      await expectAccessible(page, '/me Notifications at 1280');
      await saveScreenshot(page, 'me-notifications-1280', { dismissToasts: true });
      expect(errors).toEqual([]);
    } finally {
      await pushService.close();
    }
  });

  it('keeps My reservations readable offline, says as of when, and forgets them at sign-out', async () => {
    const diner = await createDiner('Kavya');
    const holdId = await holdFirstFreeTable(api, diner.token, RESTAURANT, addDays(todayInKolkata(), 4));
    expect((await api(`/api/reservations/${holdId}/confirm`, { method: 'POST', body: {} })).status).toBe(200);
    // The server behind a proxy this test can cut: Chromium's offline mode (setOffline) does not reach the
    // service worker's own fetches, so "offline" is both the page's offline mode and no server at all.
    const proxy = new TcpProxy({ host: '127.0.0.1', port: Number(new URL(server.baseUrl).port) });
    const origin = `http://127.0.0.1:${await proxy.start()}`;
    const { page, context } = await pageWithNotifications(diner.token, PHONE, origin);
    const errors = collectPageErrors(page);

    await page.goto(`${origin}/me`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // Installable as Chromium judges it: a worker in charge of the page (waited for above) and a
    // manifest that parses with a name, a start URL, standalone display and 192 and 512 px icons.
    // Lighthouse 12 no longer has its installability audit. Chromium's own list of installability
    // errors is read too; a test's browser context is always incognito, which it names and which
    // is the only entry allowed.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const appManifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[]; data: string };
    expect(appManifest.url).toBe(`${origin}/manifest.webmanifest`);
    expect(appManifest.errors).toEqual([]);
    const manifest = JSON.parse(appManifest.data) as { name?: string; start_url?: string; display?: string; icons?: { sizes: string; type: string }[] };
    expect(manifest).toMatchObject({ name: 'Tablefair', start_url: expect.any(String), display: 'standalone' });
    expect(manifest.icons?.filter((icon) => icon.type === 'image/png').map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const size of ['192', '512']) expect((await page.request.get(`${origin}/icons/icon-${size}.png`)).status()).toBe(200);
    await cdp.detach();
    // Once the worker is in charge, the list's answer goes through it and is kept.
    await page.reload();
    // A booking's own card, not the loading skeleton that shares its class.
    const card = page.locator('[data-testid="reservation"]').first();
    await card.waitFor();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.getByRole('switch', { name: 'WhatsApp' }).waitFor();
    await expectAccessible(page, '/me with the Notifications card');
    await saveScreenshot(page, 'me-notifications-375', { dismissToasts: true });
    await expect
      .poll(() => page.evaluate(async () => Boolean(await (await caches.open('tablefair-data-v1')).match(`${location.origin}/api/reservations`))))
      .toBe(true);

    await context.setOffline(true);
    await proxy.cut();
    await page.reload();
    await page.getByText(/^Offline — showing your reservations as of \d{1,2}:\d\d (AM|PM)$/).waitFor();
    // The kept list draws after the "as of" line may (the profile's kept answer can come first).
    await card.waitFor();
    expect(await card.innerText()).toContain('Chai Point Reserve');
    await expectAccessible(page, '/me offline');
    await saveScreenshot(page, 'me-offline-375', { dismissToasts: true });

    await context.setOffline(false);
    await proxy.restore();
    await page.reload();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${origin}/`);
    expect(await page.evaluate(async () => (await caches.open('tablefair-data-v1')).keys().then((keys) => keys.length))).toBe(0);
    expect(errors).toEqual([]);
    await proxy.cut();
  });
});
