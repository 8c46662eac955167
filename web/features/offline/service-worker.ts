import { useSyncExternalStore } from 'react';

/**
 * The service worker (web/public/sw.js, decision 212): registered in production builds (the
 * end-to-end tests run those), never by the Vite dev server. It tells the page when it answered
 * from its kept copy because the network was gone; the page says so beside the data.
 */
const DATA_CACHE = 'tablefair-data-v1';

/** This page's attempt to register the worker (registerServiceWorker): undefined until it tries. */
let registered: Promise<ServiceWorkerRegistration | undefined> = Promise.resolve(undefined);

let offlineAnswers: Record<string, string> = {};
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string; cachedAt?: string }>) => {
    if (event.data?.type === 'offline-answer' && event.data.url && event.data.cachedAt) {
      offlineAnswers = { ...offlineAnswers, [event.data.url]: event.data.cachedAt };
      notify();
    }
  });
  window.addEventListener('online', () => {
    offlineAnswers = {};
    notify();
  });
  // Offline as the browser knows it: the kept answers' own times, read from the cache (the worker's
  // message may come before this page listens).
  window.addEventListener('offline', () => void readKeptTimes());
  if (!navigator.onLine) void readKeptTimes();
  registered = new Promise((settle) => {
    window.addEventListener('load', () => {
      const attempt = navigator.serviceWorker.register('/sw.js');
      attempt.then(settle, () => settle(undefined));
      attempt
        .then(() => navigator.serviceWorker.ready)
        .then((registration) => {
          // The scripts and styles this page loaded before the worker was in charge: kept for offline use.
          const urls = performance
            .getEntriesByType('resource')
            .map((entry) => new URL(entry.name))
            .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
            .map((url) => url.pathname);
          registration.active?.postMessage({ type: 'keep-assets', urls });
        })
        .catch((error: unknown) => console.error('The service worker could not be registered', error));
    });
  });
}

/**
 * The worker's registration once this page has tried to register it (at load), or undefined when
 * it could not (sw.js failed to load, the browser blocks workers) or never tries (development).
 * `navigator.serviceWorker.ready` never settles without a registration, so whatever would wait
 * on it asks this first.
 */
export function serviceWorkerRegistered(): Promise<ServiceWorkerRegistration | undefined> {
  return registered;
}

async function readKeptTimes(): Promise<void> {
  if (!('caches' in window)) return;
  const cache = await caches.open(DATA_CACHE);
  for (const request of await cache.keys()) {
    const cachedAt = (await cache.match(request))?.headers.get('x-tablefair-cached-at');
    if (cachedAt) offlineAnswers = { ...offlineAnswers, [new URL(request.url).pathname]: cachedAt };
  }
  notify();
}

/** When `path` was last answered from the worker's kept copy (ISO time), or null when it came from the network. */
export function useOfflineAnswer(path: string): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => offlineAnswers[path] ?? null,
    () => null,
  );
}

/** Sign-out: the kept answers belonged to the diner who left; nobody else may read them offline. */
export async function forgetOfflineData(): Promise<void> {
  offlineAnswers = {};
  notify();
  try {
    navigator.serviceWorker?.controller?.postMessage({ type: 'sign-out' });
    if ('caches' in window) await caches.delete(DATA_CACHE);
  } catch {
    // No worker or no cache storage: nothing was kept.
  }
}
