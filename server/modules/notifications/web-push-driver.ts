import webpush from 'web-push';
import type { MessageKind } from '#common/domain/delivery-policy.ts';
import type { Clock } from '#server/clock.ts';
import type { Db } from '#server/db/client.ts';
import { callProvider, DeliveryFailure, failureOf, type SendReceipt } from './drivers.ts';
import { deletePushSubscriptionById, listPushSubscriptions, pushOwnerOf, recordPushOutcome } from './push-subscriptions.repository.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** What a push notification shows, and the screen it opens when tapped. */
export interface PushMessage {
  /** The outbox row's recipient: a diner's account id, or `dating:<id>` for a dating member (decision 219). */
  recipient: string;
  title: string;
  body: string;
  url: string;
  kind: MessageKind | null;
  messageId: string;
}

export interface PushDriver {
  readonly name: string;
  send(message: PushMessage): Promise<SendReceipt>;
}

/** How long a push service keeps a push for an offline browser: an offer is worth nothing once its hold ends. */
const TTL_SECONDS: Partial<Record<MessageKind, number>> = { offer: 600, reminder: 3600, result: 3600, datePlan: 3600 };

/**
 * Web Push with VAPID (decision 212): the web-push library encrypts the payload (aes128gcm) and
 * signs the VAPID Authorization header; the request goes out through `fetch` with the providers'
 * time-out, like every other driver. A message goes to every browser its owner (a diner or a dating
 * member, decision 219) subscribed and is
 * sent when at least one push service took it (201). A 404 or 410 means that subscription is gone:
 * it is deleted. 429, 5xx and network errors are retried from the outbox; with no subscription
 * left the policy's next channel is tried.
 */
export function createWebPushDriver(options: { db: Db; clock: Clock; vapid: VapidKeys; timeoutMs: number }): PushDriver {
  const { db, clock, vapid } = options;
  return {
    name: 'webpush',
    async send(message) {
      const subscriptions = await listPushSubscriptions(db, pushOwnerOf(message.recipient));
      if (subscriptions.length === 0) throw new DeliveryFailure('push: no browser is subscribed any more', false);
      // The first paragraph is the notification; the rest (links, small print) belongs to the screen it opens.
      const payload = JSON.stringify({
        title: message.title,
        body: message.body.split('\n\n')[0],
        url: message.url,
        tag: `${message.kind ?? 'message'}-${message.messageId}`,
      });
      let taken = 0;
      let retry: DeliveryFailure | null = null;
      for (const subscription of subscriptions) {
        const request = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          payload,
          {
            vapidDetails: vapid,
            TTL: TTL_SECONDS[message.kind ?? 'result'] ?? 86_400,
            urgency: message.kind === 'offer' ? 'high' : 'normal',
            contentEncoding: 'aes128gcm',
          },
        );
        try {
          const response = await callProvider(
            request.endpoint,
            { method: 'POST', headers: request.headers as Record<string, string>, body: new Uint8Array(request.body) },
            options.timeoutMs,
            'push service',
          );
          if (response.ok) {
            taken++;
            await recordPushOutcome(db, subscription.id, clock.now(), null);
            continue;
          }
          if (response.status === 404 || response.status === 410) {
            await deletePushSubscriptionById(db, subscription.id);
            continue;
          }
          const failure = failureOf(response, 'push service', (await response.text().catch(() => '')).slice(0, 120));
          await recordPushOutcome(db, subscription.id, clock.now(), failure.message);
          if (failure.retryable) retry = failure;
        } catch (error) {
          if (!(error instanceof DeliveryFailure)) throw error;
          await recordPushOutcome(db, subscription.id, clock.now(), error.message);
          retry = error;
        }
      }
      if (taken > 0) return { providerMessageId: null };
      throw retry ?? new DeliveryFailure('push: every subscribed browser was refused', false);
    },
  };
}

/** PUSH_DRIVER=off, or production without keys: push is never routed to, so this is never called. */
export function createNoPushDriver(): PushDriver {
  return {
    name: 'off',
    async send() {
      throw new DeliveryFailure('push is off on this server', false);
    },
  };
}
