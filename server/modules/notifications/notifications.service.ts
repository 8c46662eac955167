import type { DevMailboxResponse, DinerStreamEvent, OutboxMessage } from '#common/contract/waitlist.ts';
import { iso, isoOrNull, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { textablePhone } from '#common/contract/accounts.ts';
import { AppError, badInput, notFound, unauthenticated } from '#server/errors.ts';
import { rejectInvalidCredential, requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import {
  createDevMailboxMailDriver,
  createLogSmsDriver,
  createLogWhatsAppDriver,
  createSmtpMailDriver,
  type MailDriver,
  type SmsDriver,
  type TextDriver,
  type TextTemplate,
} from './drivers.ts';
import { deliveryRoute, type MessageKind, type Reachability } from '#common/domain/delivery-policy.ts';
import { DAY_MS, HOUR_MS, kolkataInstant, todayInKolkata } from '#common/domain/time.ts';
import { deletePushDataOf, findPushReach, type PushOwner } from './push-subscriptions.repository.ts';
import { resolveVapidKeys } from './vapid-keys.ts';
import { createNoPushDriver, createWebPushDriver, type PushDriver } from './web-push-driver.ts';
import { createExotelSmsDriver } from './exotel-driver.ts';
import { createOutboxDelivery } from './outbox-delivery.ts';
import {
  deleteMessagesOf,
  findUserAddresses,
  findUserEmail,
  insertOutboxMessage,
  listRecentMessages,
  readOutboxStats,
  type OutboxRow,
} from './outbox.repository.ts';
import { createWhatsAppCloudDriver } from './whatsapp-cloud-driver.ts';
import { countSmsInWindow, deleteOldSmsCounts } from './sms-caps.repository.ts';

function toOutboxMessage(row: OutboxRow): OutboxMessage {
  return {
    id: row.id,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    createdAt: iso(row.created_at),
    sentAt: isoOrNull(row.sent_at),
  };
}

/** The diner's (or dating member's) push subscription and turned-off channels, for the delivery policy; none of it when push is off (decision 212). */
async function diningReach(tx: Db, owner: PushOwner, pushOn: boolean): Promise<Pick<Reachability, 'pushTo' | 'declined'>> {
  const reach = await findPushReach(tx, owner);
  return { pushTo: pushOn ? reach.pushTo : null, declined: reach.declined };
}

/**
 * The SMS policy (decision 095), checked in the caller's transaction: only to the allowed countries
 * (400), and within the caps per account, per address and per hour (429). The counts are written in
 * `tx`, so a refusal (which rolls `tx` back) costs nothing.
 */
async function enforceSmsPolicy(tx: Db, deps: AppDeps, message: { userId: string | null; to: string; ip?: string }): Promise<void> {
  const { config, clock, log } = deps;
  const policy = config.sms;
  const allowed = textablePhone(policy.allowedCountryCodes).safeParse(message.to);
  if (!allowed.success) throw badInput(`phone: ${allowed.error.issues[0]?.message ?? 'Enter a valid phone number'}`);
  const now = clock.now();
  const hourStart = new Date(now.getTime() - (now.getTime() % HOUR_MS));
  // A day's caps start at its midnight in Kolkata.
  const dayStart = kolkataInstant(todayInKolkata(now), '00:00');
  if (message.userId && (await countSmsInWindow(tx, `account:${message.userId}`, dayStart)) > policy.maxPerAccountPerDay) {
    throw new AppError(
      'RATE_LIMITED',
      `We have sent this account ${policy.maxPerAccountPerDay} codes today, the most we send in a day. Please try again tomorrow.`,
    );
  }
  if (message.ip && (await countSmsInWindow(tx, `ip:${message.ip}`, dayStart)) > policy.maxPerIpPerDay) {
    throw new AppError('RATE_LIMITED', 'Too many codes have been asked for from this network today. Please try again tomorrow.');
  }
  const thisHour = await countSmsInWindow(tx, 'all', hourStart);
  if (thisHour > policy.maxPerHour) {
    log.warn({ maxPerHour: policy.maxPerHour }, 'SMS cap per hour reached: texts refused until the next hour');
    throw new AppError('RATE_LIMITED', 'We are sending too many texts right now. Please try again within the hour.');
  }
  if (thisHour === 1) await deleteOldSmsCounts(tx, new Date(dayStart.getTime() - 2 * DAY_MS));
}

/**
 * Email and SMS through an outbox (written in the transaction that caused them, sent after it
 * commits, retried by the sweep), and live events to signed-in diners (decision 087).
 */
export function createNotificationsService(deps: AppDeps, drivers: { mail?: MailDriver; sms?: SmsDriver; whatsapp?: TextDriver; push?: PushDriver } = {}) {
  const { db, clock, config, log, events } = deps;
  const mail =
    drivers.mail ??
    (config.notifications.smtpUrl ? createSmtpMailDriver(config.notifications.smtpUrl, config.notifications.mailFrom) : createDevMailboxMailDriver(log));
  const { exotel, whatsapp: cloud, providerTimeoutMs: timeoutMs } = config.notifications;
  const sms =
    drivers.sms ??
    (exotel
      ? createExotelSmsDriver({ ...exotel, publicUrl: config.publicUrl, timeoutMs })
      : createLogSmsDriver(log, { isProduction: config.nodeEnv === 'production' }));
  const whatsapp =
    drivers.whatsapp ??
    (cloud ? createWhatsAppCloudDriver({ ...cloud, timeoutMs }) : createLogWhatsAppDriver(log, { isProduction: config.nodeEnv === 'production' }));
  const vapid = resolveVapidKeys(config);
  if (!vapid && config.notifications.push.driver !== 'off') log.warn('push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (decision 212)');
  const push = drivers.push ?? (vapid ? createWebPushDriver({ db, clock, vapid, timeoutMs }) : createNoPushDriver());
  const pushOn = push.name !== 'off';
  const delivery = createOutboxDelivery(deps, { mail, sms, whatsapp, push });
  /** Live listeners per diner: the streams open on this instance. */
  const listeners = new Map<string, Set<(event: DinerStreamEvent) => void>>();
  // Events reach the diner's streams on whichever instance they are connected to (decision 076).
  const stopHearing = events.subscribe('diner.event', ({ userId, event }) => {
    for (const listener of listeners.get(userId) ?? []) listener(event);
  });

  const service = {
    /** Writes an email to the outbox in `tx` for a diner who gave an address; null when they gave none. */
    /** Removes every message to or about a diner whose account is deleted, sent or not, in `tx` (decision 266). */
    async eraseMessagesOf(tx: Db, userId: string, recipients: readonly string[]): Promise<void> {
      await deleteMessagesOf(tx, userId, recipients);
      await deletePushDataOf(tx, { userId });
    },

    async queueEmailToUser(tx: Db, userId: string, message: { subject: string; body: string }): Promise<string | null> {
      const to = await findUserEmail(tx, userId);
      if (!to) return null;
      return insertOutboxMessage(tx, { channel: 'email', recipient: to, userId, subject: message.subject, body: message.body, now: clock.now() });
    },

    /**
     * Writes a table offer (waitlist or drop) in `tx`, routed by the delivery policy (decision 213):
     * WhatsApp, then SMS, to a verified phone when a real driver is configured, email last; once per
     * `idempotencyKey` (null when that key was already written, or the diner cannot be reached).
     * `values` fill the registered offer template's slots.
     */
    async queueOffer(
      tx: Db,
      userId: string,
      message: { subject: string; body: string; values: string[]; idempotencyKey: string; link: string },
    ): Promise<string | null> {
      const reach = { ...(await findUserAddresses(tx, userId)), ...(await diningReach(tx, { userId }, pushOn)) };
      const route = deliveryRoute('offer', { ...reach, liveChannels: delivery.liveChannels() });
      const [first, ...fallbacks] = route;
      if (!first) return null;
      return insertOutboxMessage(tx, {
        channel: first.channel,
        recipient: first.recipient,
        userId,
        subject: message.subject,
        body: message.body,
        template: { name: '', language: '', values: message.values },
        kind: 'offer',
        idempotencyKey: message.idempotencyKey,
        fallbacks,
        link: message.link,
        now: clock.now(),
      });
    },

    /**
     * Writes a message that goes only to subscribed browsers (a draw's result, a reminder for a
     * diner without a verified phone, a dating member's date-plan change: decision 227) in `tx`;
     * null when no browser of theirs is subscribed, push is turned off, or `idempotencyKey` was already written.
     */
    async queuePush(
      tx: Db,
      to: PushOwner,
      message: { kind: 'result' | 'reminder' | 'datePlan'; title: string; body: string; link: string; idempotencyKey?: string },
    ): Promise<string | null> {
      const [first] = deliveryRoute(message.kind, { phone: null, email: null, liveChannels: [], ...(await diningReach(tx, to, pushOn)) });
      if (first?.channel !== 'push') return null;
      const { title: subject, body, kind, link, idempotencyKey } = message;
      const userId = 'userId' in to ? to.userId : null;
      return insertOutboxMessage(tx, { channel: 'push', recipient: first.recipient, userId, subject, body, kind, link, idempotencyKey, now: clock.now() });
    },

    /**
     * Writes an email to `to` in `tx`: an address the caller has checked is the account's (a reset
     * code, the link that confirms a new diner's address). `userId` is the diner's, when it is one.
     */
    async queueEmail(tx: Db, message: { to: string; userId: string | null; subject: string; body: string }): Promise<string> {
      return insertOutboxMessage(tx, {
        channel: 'email',
        recipient: message.to,
        userId: message.userId,
        subject: message.subject,
        body: message.body,
        now: clock.now(),
      }) as Promise<string>;
    },

    /**
     * Writes a text message to the outbox in `tx`, within the SMS policy (decision 095): only to the
     * allowed countries (400), and at most SMS_MAX_PER_ACCOUNT_PER_DAY per account,
     * SMS_MAX_PER_IP_PER_DAY per address `ip` and SMS_MAX_PER_HOUR in all (429). The counts are
     * written in `tx`, so a refusal (which rolls `tx` back) costs nothing.
     */
    async queueSms(
      tx: Db,
      message: {
        userId: string | null;
        to: string;
        body: string;
        ip?: string;
        /** The channel to put first (reminders: REMINDER_TEXT_CHANNEL); the policy's order otherwise. */
        channel?: 'sms' | 'whatsapp';
        template?: TextTemplate;
        /** The delivery policy's kind (decision 213); a one-time code by default. */
        kind?: Exclude<MessageKind, 'offer' | 'result' | 'datePlan'>;
        /** A code's slot values for a WhatsApp template (the code itself), when `template` is not given. */
        values?: string[];
        idempotencyKey?: string;
        /** A reminder's notification title and screen: its diner's subscribed browsers come first (decision 212). */
        push?: { title: string; link: string };
      },
    ): Promise<string> {
      await enforceSmsPolicy(tx, deps, message);
      const kind = message.kind ?? 'code';
      const diner = message.push && message.userId ? await diningReach(tx, { userId: message.userId }, pushOn) : {};
      const route = deliveryRoute(kind, { phone: message.to, email: null, liveChannels: delivery.liveChannels(), preferred: message.channel, ...diner });
      const [first, ...fallbacks] = route;
      if (!first) throw new AppError('CONFLICT', 'The diner turned off every channel this message could take.');
      const id = await insertOutboxMessage(tx, {
        channel: first.channel,
        recipient: first.recipient,
        userId: message.userId,
        subject: message.push?.title ?? '',
        link: message.push?.link,
        body: message.body,
        template: message.template ?? (message.values ? { name: '', language: '', values: message.values } : undefined),
        kind,
        idempotencyKey: message.idempotencyKey,
        fallbacks,
        now: clock.now(),
      });
      // Only a repeated idempotency key writes nothing; the caller's transaction already holds that message.
      if (!id) throw new AppError('CONFLICT', 'This message has already been sent.');
      return id;
    },

    /** Exotel's receipts, WhatsApp's webhook and its verify handshake (notifications.routes.ts). */
    receiveExotelReceipt: delivery.receiveExotelReceipt,
    /** The key browsers subscribe with; null when push is off (decision 212). */
    vapidPublicKey: vapid?.publicKey ?? null,
    receiveWhatsAppWebhook: delivery.receiveWhatsAppWebhook,
    answerWhatsAppChallenge: delivery.answerWhatsAppChallenge,

    /** The outbox's backlog, for the metrics endpoint only (which checks its own token): counts, never contents. */
    async outboxStats() {
      return readOutboxStats(db, clock.now());
    },

    /**
     * Sends what is due (only `ids`, when given: the messages a transaction just committed).
     * A failure is logged and retried later by the sweep; it never reaches the caller.
     */
    async deliverDue(ids?: string[]): Promise<number> {
      return delivery.deliverDue(ids);
    },

    /** deliverDue without waiting for it: for the request that queued the messages. */
    deliverSoon(ids: (string | null)[]): void {
      const present = ids.filter((id): id is string => id !== null);
      if (present.length === 0) return;
      service.deliverDue(present).catch((error) => log.warn({ err: error }, 'outbox delivery failed'));
    },

    /** Tells a diner, live, that a table is held for them (from a drop or the waitlist). */
    publishOffer(
      userId: string,
      held: { id: string; restaurant_name: string; slot_date: string; slot_time: string; party_size: number; hold_expires_at: Date | string | null },
      origin: { dropId: string } | { waitlistEntryId: string },
    ): void {
      service.publishToUser(userId, {
        type: 'offer',
        source: 'dropId' in origin ? 'drop' : 'waitlist',
        reservationId: held.id,
        restaurantName: held.restaurant_name,
        date: held.slot_date,
        time: held.slot_time,
        partySize: held.party_size,
        holdExpiresAt: iso(held.hold_expires_at!),
        dropId: 'dropId' in origin ? origin.dropId : null,
        waitlistEntryId: 'waitlistEntryId' in origin ? origin.waitlistEntryId : null,
      });
    },

    /** Sends a live event to every open stream of one diner, on any instance. */
    publishToUser(userId: string, event: DinerStreamEvent): void {
      events.publish('diner.event', { userId, event });
    },

    /** GET /api/me/events: the signed-in diner's live events. Returns the function that stops listening. */
    subscribeToMyEvents(principal: Principal, listener: (event: DinerStreamEvent) => void): () => void {
      requireDiner(principal);
      const { userId } = principal;
      let set = listeners.get(userId);
      if (!set) listeners.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(userId) === set) listeners.delete(userId);
      };
    },

    /**
     * GET /api/dev/mailbox: recent email and SMS (decision 093). By default (`own`) a signed-in diner sees
     * only the messages addressed to their account (their email, their verified or pending phone);
     * the whole outbox only with DEV_MAILBOX=all, which production refuses; `off` answers 404.
     */
    async listDevMailbox(principal: Principal, query: { recipient?: string; limit: number }): Promise<DevMailboxResponse> {
      const mode = config.notifications.devMailbox;
      if (mode === 'off') throw notFound('Not found');
      if (mode === 'own') {
        if (principal.kind !== 'diner') throw unauthenticated('Sign in as a diner to see the messages sent to you');
      } else rejectInvalidCredential(principal);
      const userId = mode === 'own' && principal.kind === 'diner' ? principal.userId : undefined;
      const rows = await listRecentMessages(db, { limit: query.limit, recipient: query.recipient?.trim() || undefined, userId });
      return { messages: rows.map(toOutboxMessage) };
    },

    /**
     * The dev mailbox for one message whose id the caller proved they hold (a dating signup's
     * text, decision 101): like the phone itself in the demo. 404 when the mailbox is off.
     */
    async listDevMessages(ids: string[]): Promise<DevMailboxResponse> {
      if (config.notifications.devMailbox === 'off') throw notFound('Not found');
      if (ids.length === 0) return { messages: [] };
      const rows = await listRecentMessages(db, { limit: ids.length, ids });
      return { messages: rows.map(toOutboxMessage) };
    },

    close(): void {
      stopHearing();
      mail.close();
    },
  };
  return service;
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
