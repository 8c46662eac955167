import type {
  ChannelChoices,
  DatingNotificationPreferences,
  DatingPushChoice,
  NotificationPreferences,
  PushSubscriptionAnswer,
  PushSubscriptionBody,
  VapidPublicKeyResponse,
} from '#common/contract/push.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput } from '#server/errors.ts';
import { requireDating, requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import { findUserAddresses } from './outbox.repository.ts';
import {
  countPushSubscriptions,
  deletePushDataOf,
  deletePushSubscription,
  hasPushSubscription,
  readDeclinedChannels,
  upsertPushSubscription,
  writeChannelChoices,
  type PushOwner,
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

/** Whose browsers a subscription call is about: the diner's under /api/me, the dating member's under /dating/me (decision 219). */
type PushAudience = 'diner' | 'dating';

/** The owner of the subscriptions a call touches, once the principal is the account the path is for. */
function ownerFor(principal: Principal, audience: PushAudience): PushOwner {
  if (audience === 'diner') {
    requireDiner(principal);
    return { userId: principal.userId };
  }
  requireDating(principal);
  return { datingUserId: principal.datingUserId };
}

/**
 * Push subscriptions and channel choices of a diner (decision 212) and of a dating member, a
 * separate account whose browsers receive their date-plan changes (decisions 219, 227).
 */
export function createPushService(deps: AppDeps, vapidPublicKey: string | null) {
  const { db, clock, config } = deps;

  async function preferencesOf(userId: string): Promise<NotificationPreferences> {
    const declined = await readDeclinedChannels(db, { userId });
    const user = await findUserAddresses(db, userId);
    return {
      push: !declined.includes('push'),
      whatsapp: !declined.includes('whatsapp'),
      sms: !declined.includes('sms'),
      email: true,
      pushEnabled: vapidPublicKey !== null,
      pushDevices: await countPushSubscriptions(db, { userId }),
      verifiedPhone: Boolean(user.phone),
      hasEmail: Boolean(user.email),
    };
  }

  /** POST …/push-subscriptions: this browser's subscription, kept for the signed-in diner or dating member. */
  async function subscribe(principal: Principal, audience: PushAudience, body: PushSubscriptionBody): Promise<PushSubscriptionAnswer> {
    const owner = ownerFor(principal, audience);
    if (!vapidPublicKey) throw badInput('endpoint: this server sends no push notifications');
    if (!isKnownPushService(body.endpoint, config.nodeEnv === 'production')) throw badInput('endpoint: not a push service browsers use');
    await upsertPushSubscription(db, owner, { endpoint: body.endpoint, ...body.keys, now: clock.now() });
    return { subscribed: true, devices: await countPushSubscriptions(db, owner) };
  }

  /** DELETE …/push-subscriptions: this browser stops receiving the account's pushes (a dating member's sign-out sends it too); nothing to remove is fine. */
  async function unsubscribe(principal: Principal, audience: PushAudience, endpoint: string): Promise<PushSubscriptionAnswer> {
    const owner = ownerFor(principal, audience);
    await deletePushSubscription(db, owner, endpoint);
    return { subscribed: false, devices: await countPushSubscriptions(db, owner) };
  }

  async function datingPreferencesOf(datingUserId: string, endpoint: string | undefined): Promise<DatingNotificationPreferences> {
    const owner = { datingUserId };
    return {
      push: !(await readDeclinedChannels(db, owner)).includes('push'),
      pushEnabled: vapidPublicKey !== null,
      pushDevices: await countPushSubscriptions(db, owner),
      thisDevice: endpoint ? await hasPushSubscription(db, owner, endpoint) : false,
    };
  }

  return {
    /** GET /api/push/vapid-public-key: public, the same for everyone. */
    publicKey(): VapidPublicKeyResponse {
      return { enabled: vapidPublicKey !== null, publicKey: vapidPublicKey ?? '' };
    },

    subscribe,
    unsubscribe,

    /** GET /api/me/notification-preferences */
    async preferences(principal: Principal): Promise<NotificationPreferences> {
      requireDiner(principal);
      return preferencesOf(principal.userId);
    },

    /** PUT /api/me/notification-preferences: the channels on and off; email stays on. */
    async choose(principal: Principal, choices: ChannelChoices): Promise<NotificationPreferences> {
      requireDiner(principal);
      await writeChannelChoices(db, { userId: principal.userId }, choices, clock.now());
      return preferencesOf(principal.userId);
    },

    /** GET /dating/me/notification-preferences: push on or off, the member's devices, and whether `endpoint` (this browser) is one. */
    async datingPreferences(principal: Principal, endpoint?: string): Promise<DatingNotificationPreferences> {
      requireDating(principal);
      return datingPreferencesOf(principal.datingUserId, endpoint);
    },

    /** PUT /dating/me/notification-preferences: date-plan changes by push on or off on every device of the member. */
    async chooseDating(principal: Principal, choice: DatingPushChoice, endpoint?: string): Promise<DatingNotificationPreferences> {
      requireDating(principal);
      // Date-plan changes go by push alone (decision 227): the text channels stay at their default.
      await writeChannelChoices(db, { datingUserId: principal.datingUserId }, { push: choice.push, whatsapp: true, sms: true }, clock.now());
      return datingPreferencesOf(principal.datingUserId, endpoint);
    },

    /** A dating member's account is erased (decision 266): their browsers, choice and pushes go, in `tx`. */
    async eraseDatingMember(tx: Db, datingUserId: string): Promise<void> {
      await deletePushDataOf(tx, { datingUserId });
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
