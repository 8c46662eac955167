import type { PushSubscriptionAnswer, VapidPublicKeyResponse } from '#common/contract/push.ts';
import { apiRequest } from '#web/api/client.ts';
import { serviceWorkerRegistered } from '#web/features/offline/service-worker.ts';

/**
 * This browser and Web Push (decision 212): whether it can, what the diner allowed, and
 * subscribing or unsubscribing it for the signed-in diner.
 */
export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/**
 * The worker's registration once it is active, or null when there is none. `ready` never settles
 * for a worker that was never registered (sw.js failed to load, the browser blocks workers), so it
 * is asked only once a registration exists: production builds register at load
 * (web/features/offline/service-worker.ts), development never does.
 */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  const registered = import.meta.env.PROD ? await serviceWorkerRegistered() : await navigator.serviceWorker.getRegistration();
  return registered ? navigator.serviceWorker.ready : null;
}

/** Where this browser stands: no push at all, blocked by the diner, not subscribed, or subscribed. */
export async function readPushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const ready = await registration();
  if (!ready) return 'unsupported';
  return (await ready.pushManager.getSubscription()) ? 'on' : 'off';
}

function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64Url.length % 4)) % 4);
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let index = 0; index < raw.length; index++) bytes[index] = raw.charCodeAt(index);
  return bytes;
}

export class PushRefused extends Error {
  constructor(readonly reason: 'unsupported' | 'denied' | 'disabled' | 'failed') {
    super(reason);
    this.name = 'PushRefused';
  }
}

/**
 * This browser's push subscription, if it has one (a diner's and a dating member's share it:
 * decision 219). Sign-outs wait on this, so it never waits for a worker to become active: a
 * subscription exists only under a registration already made, and the registration as it stands
 * is enough to find it.
 */
export async function browserSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registered = await navigator.serviceWorker.getRegistration();
  return (await registered?.pushManager.getSubscription()) ?? null;
}

/** Asks the person's permission and subscribes this browser with the server's VAPID key (or answers the subscription it has). */
export async function subscribeBrowser(): Promise<PushSubscription> {
  const ready = await registration();
  if (!ready) throw new PushRefused('unsupported');
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushRefused('denied');
  if (permission !== 'granted') throw new PushRefused('failed');
  const key = await apiRequest<VapidPublicKeyResponse>('/api/push/vapid-public-key');
  if (!key.enabled) throw new PushRefused('disabled');
  let subscription = await ready.pushManager.getSubscription();
  if (!subscription) {
    try {
      subscription = await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.publicKey) });
    } catch (error) {
      console.error('The browser could not subscribe to push', error);
      throw new PushRefused('failed');
    }
  }
  return subscription;
}

/** Asks the diner's permission, subscribes this browser with the server's VAPID key and keeps the subscription on the server. */
export async function subscribeThisBrowser(): Promise<PushSubscriptionAnswer> {
  const subscription = await subscribeBrowser();
  return apiRequest<PushSubscriptionAnswer>('/api/me/push-subscriptions', { method: 'POST', body: subscription.toJSON(), auth: 'customer' });
}

/** Stops pushes to this browser: on the server, then in the browser. */
export async function unsubscribeThisBrowser(): Promise<PushSubscriptionAnswer | null> {
  const subscription = await browserSubscription();
  if (!subscription) return null;
  const answer = await apiRequest<PushSubscriptionAnswer>('/api/me/push-subscriptions', {
    method: 'DELETE',
    body: { endpoint: subscription.endpoint },
    auth: 'customer',
  });
  await subscription.unsubscribe();
  return answer;
}

/** The sentence for a refused subscription. */
export function refusalText(error: unknown): string {
  const reason = error instanceof PushRefused ? error.reason : 'failed';
  return {
    unsupported: 'This browser cannot show notifications from Tablefair. On an iPhone, add Tablefair to your Home Screen first.',
    denied: 'Notifications are blocked for Tablefair in this browser. Allow them in the site settings (the icon beside the address), then try again.',
    disabled: 'Notifications are not available on Tablefair right now. We will still email you.',
    failed: 'We could not turn on notifications on this device. Please try again.',
  }[reason];
}
