import type { Page } from 'playwright-core';

/**
 * Push in Chromium (decision 212), shared by the journeys that receive one. Headless Chromium refuses
 * pushManager.subscribe, so a journey holds the subscription's keys itself on a local push service
 * (server/test/fake-push-service.ts), decrypts the server's real push, and hands the payload to the
 * page's real service worker through CDP (ServiceWorker.deliverPushMessage).
 */

/** Lets `origin` show notifications in the page's browser context. */
export async function allowNotifications(page: Page, origin: string): Promise<void> {
  await page.context().grantPermissions(['notifications'], { origin });
}

/** A CDP session with the ServiceWorker domain on, and the id it knows the page's registration by. */
export async function serviceWorkerSession(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  const found = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const match = event.registrations.find((registration) => registration.scopeURL === scope && !registration.isDeleted);
      if (match) resolve(match.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await found };
}

/** Hands a decrypted push payload to the page's service worker, as the browser would on a push. */
export async function deliverToServiceWorker(page: Page, origin: string, payload: string): Promise<void> {
  const { cdp, registrationId } = await serviceWorkerSession(page);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: payload });
}

/** The notifications the page's service worker shows now. */
export function shownNotifications(page: Page): Promise<{ title: string; body: string; data: unknown }[]> {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({
      title: shown.title,
      body: shown.body,
      data: shown.data as unknown,
    })),
  );
}
