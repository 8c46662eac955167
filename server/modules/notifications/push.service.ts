import type { NotificationPreferences, PushSubscriptionAnswer, PushSubscriptionBody, VapidPublicKeyResponse } from '#common/contract/push.ts';
import type { ChannelChoices } from '#common/contract/push.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput } from '#server/errors.ts';
import { requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import { findUserAddresses } from './outbox.repository.ts';
import {
  countPushSubscriptions,
  deletePushSubscription,
  readDeclinedChannels,
  upsertPushSubscription,
  writeChannelChoices,
} from './push-subscriptions.repository.ts';

/**
 * The push services browsers use: a subscription must name one of them, so the server never posts
 * to an address a caller chose (decision 212). Outside production a local fake on the loopback
 * interface is allowed too, for the tests.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

function isKnownPushService(endpoint: string, production: boolean): boolean {
  const url = new URL(endpoint);
  if (!production && url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost')) return true;
  return url.protocol === 'https:' && PUSH_SERVICE_HOSTS.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`));
}

/** A diner's push subscriptions and channel choices (decision 212). */
export function createPushService(deps: AppDeps, vapidPublicKey: string | null) {
  const { db, clock, config } = deps;

  async function preferencesOf(userId: string): Promise<NotificationPreferences> {
    const declined = await readDeclinedChannels(db, userId);
    const user = await findUserAddresses(db, userId);
    return {
      push: !declined.includes('push'),
      whatsapp: !declined.includes('whatsapp'),
      sms: !declined.includes('sms'),
      email: true,
      pushEnabled: vapidPublicKey !== null,
      pushDevices: await countPushSubscriptions(db, userId),
      verifiedPhone: Boolean(user.phone),
      hasEmail: Boolean(user.email),
    };
  }

  return {
    /** GET /api/push/vapid-public-key: public, the same for everyone. */
    publicKey(): VapidPublicKeyResponse {
      return { enabled: vapidPublicKey !== null, publicKey: vapidPublicKey ?? '' };
    },

    /** POST /api/me/push-subscriptions: this browser's subscription, kept for the signed-in diner. */
    async subscribe(principal: Principal, body: PushSubscriptionBody): Promise<PushSubscriptionAnswer> {
      requireDiner(principal);
      if (!vapidPublicKey) throw badInput('endpoint: this server sends no push notifications');
      if (!isKnownPushService(body.endpoint, config.nodeEnv === 'production')) throw badInput('endpoint: not a push service browsers use');
      await upsertPushSubscription(db, { userId: principal.userId, endpoint: body.endpoint, ...body.keys, now: clock.now() });
      return { subscribed: true, devices: await countPushSubscriptions(db, principal.userId) };
    },

    /** DELETE /api/me/push-subscriptions: this browser stops receiving the diner's pushes (nothing to remove is fine). */
    async unsubscribe(principal: Principal, endpoint: string): Promise<PushSubscriptionAnswer> {
      requireDiner(principal);
      await deletePushSubscription(db, principal.userId, endpoint);
      return { subscribed: false, devices: await countPushSubscriptions(db, principal.userId) };
    },

    /** GET /api/me/notification-preferences */
    async preferences(principal: Principal): Promise<NotificationPreferences> {
      requireDiner(principal);
      return preferencesOf(principal.userId);
    },

    /** PUT /api/me/notification-preferences: the channels on and off; email stays on. */
    async choose(principal: Principal, choices: ChannelChoices): Promise<NotificationPreferences> {
      requireDiner(principal);
      await writeChannelChoices(db, principal.userId, choices, clock.now());
      return preferencesOf(principal.userId);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
