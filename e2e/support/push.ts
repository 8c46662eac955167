import type { Page } from 'playwright-core';
import { expect } from 'vitest';

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

/**
 * A CDP session with the ServiceWorker domain on, the id it knows the page's registration by, and
 * the worker versions and errors it has seen.
 */
async function serviceWorkerSession(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  const versions: { status: string; runningStatus: string }[] = [];
  const workerErrors: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
    for (const version of event.versions) versions.push({ status: version.status, runningStatus: version.runningStatus });
  });
  cdp.on('ServiceWorker.workerErrorReported', (event) => workerErrors.push(event.errorMessage.errorMessage));
  const found = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const match = event.registrations.find((registration) => registration.scopeURL === scope && !registration.isDeleted);
      if (match) resolve(match.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await found, versions, workerErrors };
}

/** Hands a decrypted push payload to the page's service worker, as the browser would on a push. */
async function deliverToServiceWorker(page: Page, origin: string, payload: string) {
  const session = await serviceWorkerSession(page);
  await session.cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: session.registrationId, data: payload });
  return session;
}

/**
 * Delivers a push payload to the page's service worker and waits for the notification it shows
 * (one more than before), which it returns. A worker that wakes on a loaded machine can take
 * seconds; when none comes in 20 s, the failure says what the page and the worker were doing.
 */
export async function showPushedNotification(page: Page, origin: string, payload: string): Promise<ShownNotification> {
  const before = (await shownNotifications(page)).length;
  const delivered = Date.now();
  const session = await deliverToServiceWorker(page, origin, payload);
  try {
    await expect.poll(async () => (await shownNotifications(page)).length, { timeout: 20_000 }).toBeGreaterThan(before);
  } catch (error) {
    const pageState = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return {
        permission: Notification.permission,
        controlled: !!navigator.serviceWorker.controller,
        workers: { installing: registration?.installing?.state, waiting: registration?.waiting?.state, active: registration?.active?.state },
      };
    });
    const state = {
      afterMs: Date.now() - delivered,
      registrationId: session.registrationId,
      page: pageState,
      workerVersions: session.versions.slice(-6),
      workerErrors: session.workerErrors,
    };
    throw new Error(`No notification shown for the push: ${JSON.stringify(state)}`, { cause: error });
  } finally {
    await session.cdp.detach();
  }
  return (await shownNotifications(page)).at(-1)!;
}

/** A notification as the page's service worker registration lists it. */
export interface ShownNotification {
  title: string;
  body: string;
  data: unknown;
}

/** The notifications the page's service worker shows now. */
export function shownNotifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({
      title: shown.title,
      body: shown.body,
      data: shown.data as unknown,
    })),
  );
}
