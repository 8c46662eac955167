/**
 * Tablefair's service worker (docs/decisions/212-web-push-and-installable-app.md).
 * - The app shell (the page and the assets it loaded) is kept, so the app opens offline.
 * - "My reservations" stays readable offline: its API answers are network-first, and the last
 *   answer is kept per account (a hash of the bearer token) and served only to the same account.
 *   The page deletes the kept answers on sign-out.
 * - A push shows a notification; tapping it opens or focuses the screen it names.
 */
const SHELL_CACHE = 'tablefair-shell-v1';
const DATA_CACHE = 'tablefair-data-v1';
/** A client route that the server answers with the plain page (no first screen of its own). */
const SHELL_URL = '/me';
/** The answers kept for offline reading: the diner's reservations and who they are. */
const OFFLINE_READABLE = ['/api/reservations', '/api/auth/me'];
const CACHED_AT = 'x-tablefair-cached-at';
const ACCOUNT = 'x-tablefair-account';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      const page = await fetch(SHELL_URL, { cache: 'no-cache' });
      const html = await page.clone().text();
      await cache.put(SHELL_URL, page);
      // The hashed scripts, styles and fonts the page names: the shell needs them to run offline.
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
      await cache.addAll([...new Set([...assets, '/manifest.webmanifest', '/icons/icon-192.png'])]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL_CACHE && name !== DATA_CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  const message = event.data ?? {};
  if (message.type === 'sign-out') event.waitUntil(caches.delete(DATA_CACHE));
  // The page names the assets it loaded before this worker controlled it (its lazy screens).
  if (message.type === 'keep-assets' && Array.isArray(message.urls)) {
    const urls = message.urls.filter((url) => typeof url === 'string' && url.startsWith('/assets/'));
    event.waitUntil(
      caches
        .open(SHELL_CACHE)
        .then((cache) => cache.addAll(urls))
        .catch(() => undefined),
    );
  }
});

async function accountOf(request) {
  const authorization = request.headers.get('authorization') ?? '';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(authorization));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Network first; a good answer is kept for this account; offline, the kept answer if it is this account's. */
async function offlineReadable(request) {
  const account = await accountOf(request);
  const cache = await caches.open(DATA_CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const headers = new Headers(answer.headers);
      headers.set(CACHED_AT, new Date().toISOString());
      headers.set(ACCOUNT, account);
      await cache.put(request.url, new Response(await answer.clone().blob(), { status: answer.status, headers }));
    }
    return answer;
  } catch (error) {
    const kept = await cache.match(request.url);
    if (!kept || kept.headers.get(ACCOUNT) !== account) throw error;
    const cachedAt = kept.headers.get(CACHED_AT);
    const client = await self.clients.get(request.clientId ?? '');
    client?.postMessage({ type: 'offline-answer', url: new URL(request.url).pathname, cachedAt });
    return kept;
  }
}

/** Pages: network first, the kept shell offline. Assets: the kept copy first (their names change with their content). */
self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (OFFLINE_READABLE.includes(url.pathname) && !url.search) {
    event.respondWith(offlineReadable(request));
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match(SHELL_URL)) ?? Response.error()));
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(
      (async () => {
        const kept = await caches.match(request);
        if (kept) return kept;
        const answer = await fetch(request);
        if (answer.ok) await (await caches.open(SHELL_CACHE)).put(request, answer.clone());
        return answer;
      })(),
    );
  }
});

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  const title = message.title || 'Tablefair';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || '',
      tag: message.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url || '/me' },
      requireInteraction: Boolean(message.tag && message.tag.startsWith('offer-')),
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/me', self.location.origin);
  // Only our own screens open from a notification.
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((client) => client.url === target.href);
      if (same) return same.focus();
      const any = windows[0];
      if (any) {
        const moved = await any.navigate(target.href).catch(() => null);
        return (moved ?? any).focus();
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
