import type { Page } from 'playwright-core';
import { eventually } from '#server/test/eventually.ts';

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

/** How long one delivery may take to show its notification before it is handed over once more. */
const DELIVERY_WAIT_MS = 12_000;

/**
 * Delivers a push payload to the page's service worker and waits for the notification it shows
 * (one more than before), which it returns.
 *
 * The delivery is DevTools' (ServiceWorker.deliverPushMessage), which Chromium acknowledges to no
 * one: a delivery it drops on a loaded machine is not an error anywhere. Twice in many runs, with
 * the worker activated and running and notifications granted, no notification came in 20 s. So a
 * delivery that shows nothing in 12 s is handed over once more, and the journey says so on its
 * output; what is under test (the server's push reached the push service, its payload decrypts to
 * this title and screen, and the worker shows it) is asserted either way. When the second delivery
 * shows nothing either, the failure says what the page and the worker were doing.
 */
export async function showPushedNotification(page: Page, origin: string, payload: string): Promise<ShownNotification> {
  const before = (await shownNotifications(page)).length;
  const delivered = Date.now();
  const session = await serviceWorkerSession(page);
  const shown = async () => (await shownNotifications(page)).length > before;
  const deliver = () => session.cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: session.registrationId, data: payload });
  try {
    await deliver();
    if (!(await eventually(shown, DELIVERY_WAIT_MS, 100))) {
      console.warn(`push: no notification ${DELIVERY_WAIT_MS / 1000} s after DevTools delivered the push; delivering it once more`);
      await deliver();
      if (!(await eventually(shown, DELIVERY_WAIT_MS, 100)))
        throw new Error(`No notification shown for the push: ${JSON.stringify(await whyNotShown(page, session, delivered))}`);
    }
  } finally {
    await session.cdp.detach();
  }
  return (await shownNotifications(page)).at(-1)!;
}

/** What the page and its worker were doing when a push showed nothing. */
async function whyNotShown(page: Page, session: Awaited<ReturnType<typeof serviceWorkerSession>>, delivered: number) {
  const pageState = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return {
      permission: Notification.permission,
      controlled: !!navigator.serviceWorker.controller,
      workers: { installing: registration?.installing?.state, waiting: registration?.waiting?.state, active: registration?.active?.state },
    };
  });
  return {
    afterMs: Date.now() - delivered,
    registrationId: session.registrationId,
    page: pageState,
    workerVersions: session.versions.slice(-6),
    workerErrors: session.workerErrors,
  };
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
