import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationPreferences, PushSubscriptionAnswer, VapidPublicKeyResponse } from '#common/contract/push.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, type TestApp } from '#server/test/app.ts';
import { buildDiner, queueToitOffer } from '#server/test/factories.ts';
import { browserKeys, decryptPush, startFakePushService, verifyVapid, type FakePushService } from '#server/test/fake-push-service.ts';

/**
 * Web Push (decision 212): a diner's browser subscribes, an offer goes out through web-push to a
 * local push service with a VAPID signature, TTL and an aes128gcm body the browser can decrypt;
 * 201 is sent, 410 deletes the subscription and the offer moves to email, 429 is retried; the
 * diner's channel choices and the endpoint rules hold.
 */
let t: TestApp;
let pushService: FakePushService;

beforeAll(async () => {
  pushService = await startFakePushService();
  t = await createTestApp({ env: { VAPID_SUBJECT: 'mailto:ops@tablefair.example' } });
});
afterAll(async () => {
  await t?.close();
  await pushService?.close();
});
beforeEach(() => {
  pushService.requests.length = 0;
});

const subscribe = (token: string, endpoint: string, keys: { p256dh: string; auth: string }) =>
  t.app.inject({ method: 'POST', url: '/api/me/push-subscriptions', headers: bearer(token), payload: { endpoint, expirationTime: null, keys } });

/** The push shows only the body's first paragraph, and opens the offer's own hold. */
const queueOffer = (userId: string, key: string) =>
  queueToitOffer(t, userId, key, {
    body: 'A table for 2 at Toit is held in your name until 7:40 PM.\n\nComplete your booking on Tablefair before then.',
    link: `/hold/${key}`,
  });

const outboxRow = async (id: string) =>
  (
    await queryRows<{ channel: string; delivery_status: string; attempts: number; link: string | null }>(
      t.database.db,
      sql`SELECT channel, delivery_status, attempts, link FROM outbox_messages WHERE id = ${id}`,
    )
  )[0];

const subscriptionsOf = (userId: string) =>
  queryRows<{ endpoint: string; last_success_at: Date | null; last_failure: string | null }>(
    t.database.db,
    sql`SELECT endpoint, last_success_at, last_failure FROM push_subscriptions WHERE user_id = ${userId}`,
  );

async function vapidKey(): Promise<string> {
  const answer = await t.app.inject({ method: 'GET', url: '/api/push/vapid-public-key' });
  expect(answer.statusCode).toBe(200);
  const body = answer.json<VapidPublicKeyResponse>();
  expect(body.enabled).toBe(true);
  return body.publicKey;
}

describe('push subscriptions', () => {
  it('serves the VAPID public key: an uncompressed P-256 point', async () => {
    expect(Buffer.from(await vapidKey(), 'base64url')).toHaveLength(65);
  });

  it('keeps one subscription per browser endpoint, moving it to the account that subscribes again', async () => {
    const asha = await buildDiner(t.database.db);
    const ravi = await buildDiner(t.database.db);
    const keys = browserKeys().json;
    const endpoint = pushService.endpoint('shared-laptop');
    expect((await subscribe(asha.token, endpoint, keys)).json<PushSubscriptionAnswer>()).toEqual({ subscribed: true, devices: 1 });
    expect((await subscribe(asha.token, endpoint, keys)).json<PushSubscriptionAnswer>().devices).toBe(1);
    expect((await subscribe(ravi.token, endpoint, keys)).statusCode).toBe(201);
    expect(await subscriptionsOf(asha.id)).toHaveLength(0);
    expect(await subscriptionsOf(ravi.id)).toHaveLength(1);
    const removed = await t.app.inject({ method: 'DELETE', url: '/api/me/push-subscriptions', headers: bearer(ravi.token), payload: { endpoint } });
    expect(removed.json<PushSubscriptionAnswer>()).toEqual({ subscribed: false, devices: 0 });
  });

  it('refuses an endpoint that is no push service, and malformed keys, naming the field', async () => {
    const diner = await buildDiner(t.database.db);
    const keys = browserKeys().json;
    const foreign = await subscribe(diner.token, 'https://internal.example/admin', keys);
    expect(foreign.statusCode).toBe(400);
    expect(JSON.stringify(foreign.json())).toContain('endpoint: not a push service');
    const bad = await subscribe(diner.token, pushService.endpoint('x'), { p256dh: 'not base64!', auth: keys.auth });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('p256dh');
    expect((await subscribe(diner.token, 'https://fcm.googleapis.com/fcm/send/abc123', keys)).statusCode).toBe(201);
  });
});

describe('an offer through push', () => {
  it('arrives encrypted, signed with VAPID, with a TTL, and opens the hold', async () => {
    const publicKey = await vapidKey();
    const diner = await buildDiner(t.database.db);
    const browser = browserKeys();
    expect((await subscribe(diner.token, pushService.endpoint('phone-1'), browser.json)).statusCode).toBe(201);

    const id = (await queueOffer(diner.id, 'offer-push-1'))!;
    expect(await outboxRow(id)).toMatchObject({ channel: 'push', delivery_status: 'queued', link: '/hold/offer-push-1' });
    expect(await t.app.services.notifications.deliverDue([id])).toBe(1);

    expect(pushService.requests).toHaveLength(1);
    const [request] = pushService.requests;
    expect(request.path).toBe('/push/phone-1');
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(request.headers.ttl).toBe('600');
    expect(request.headers.urgency).toBe('high');
    const claims = verifyVapid(request.headers.authorization!, publicKey);
    expect(claims.aud).toBe(pushService.origin);
    expect(claims.sub).toBe('mailto:ops@tablefair.example');
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    const payload = JSON.parse(decryptPush(request.body, browser)) as { title: string; body: string; url: string; tag: string };
    expect(payload).toEqual({
      title: 'A table at Toit is yours for 10 minutes',
      body: 'A table for 2 at Toit is held in your name until 7:40 PM.',
      url: '/hold/offer-push-1',
      tag: `offer-${id}`,
    });
    expect(await outboxRow(id)).toMatchObject({ channel: 'push', delivery_status: 'sent' });
    expect((await subscriptionsOf(diner.id))[0].last_success_at).not.toBeNull();
  });

  it('deletes a subscription the push service says is gone (410) and sends the offer by email instead', async () => {
    const diner = await buildDiner(t.database.db);
    await subscribe(diner.token, pushService.endpoint('old-phone'), browserKeys().json);
    pushService.script(410);
    const id = (await queueOffer(diner.id, 'offer-push-410'))!;
    await t.app.services.notifications.deliverDue([id]);
    expect(pushService.requests.map((request) => request.path)).toEqual(['/push/old-phone']);
    expect(await subscriptionsOf(diner.id)).toEqual([]);
    expect(await outboxRow(id)).toMatchObject({ channel: 'email', delivery_status: 'sent' });
  });

  it('retries later when the push service is busy (429), keeping the subscription', async () => {
    const diner = await buildDiner(t.database.db);
    await subscribe(diner.token, pushService.endpoint('busy'), browserKeys().json);
    pushService.script(429);
    const id = (await queueOffer(diner.id, 'offer-push-429'))!;
    expect(await t.app.services.notifications.deliverDue([id])).toBe(0);
    expect(await outboxRow(id)).toMatchObject({ channel: 'push', delivery_status: 'queued', attempts: 1 });
    const [subscription] = await subscriptionsOf(diner.id);
    expect(subscription.last_failure).toMatch(/429/);
  });
});

describe("the diner's channels", () => {
  it('starts with every channel on and email always on; push turned off sends the offer by email', async () => {
    const diner = await buildDiner(t.database.db);
    await subscribe(diner.token, pushService.endpoint('laptop'), browserKeys().json);
    const before = await t.app.inject({ method: 'GET', url: '/api/me/notification-preferences', headers: bearer(diner.token) });
    expect(before.json<NotificationPreferences>()).toEqual({
      push: true,
      whatsapp: true,
      sms: true,
      email: true,
      pushEnabled: true,
      pushDevices: 1,
      verifiedPhone: false,
      hasEmail: true,
    });
    const chosen = await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-preferences',
      headers: bearer(diner.token),
      payload: { push: false, whatsapp: true, sms: false },
    });
    expect(chosen.json<NotificationPreferences>()).toMatchObject({ push: false, whatsapp: true, sms: false, email: true });
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-preferences',
      headers: bearer(diner.token),
      payload: { push: true, whatsapp: true, sms: true, email: false },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('Email cannot be turned off');

    const id = (await queueOffer(diner.id, 'offer-push-off'))!;
    expect(await outboxRow(id)).toMatchObject({ channel: 'email' });
    await t.app.services.notifications.deliverDue([id]);
    expect(pushService.requests).toHaveLength(0);
  });
});
