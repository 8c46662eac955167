import type { DevMailboxResponse, DinerStreamEvent, OutboxMessage } from '#common/contract/waitlist.ts';
import { asDate, type Db } from '#server/db/client.ts';
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
import {
  claimDueMessages,
  findUserEmail,
  insertOutboxMessage,
  deleteMessagesOf,
  listRecentMessages,
  markMessageFailed,
  readOutboxStats,
  markMessageSent,
  type OutboxRow,
} from './outbox.repository.ts';
import { countSmsInWindow, deleteOldSmsCounts } from './sms-caps.repository.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Kolkata is UTC+05:30 all year: a day's caps start at its midnight. */
const KOLKATA_OFFSET_MS = 5.5 * HOUR_MS;

/** A message is tried this many times, a minute further apart each time. */
const MAX_ATTEMPTS = 5;
const LEASE_SECONDS = 60;

function toOutboxMessage(row: OutboxRow): OutboxMessage {
  return {
    id: row.id,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    createdAt: asDate(row.created_at).toISOString(),
    sentAt: row.sent_at ? asDate(row.sent_at).toISOString() : null,
  };
}

/**
 * Email and SMS through an outbox (written in the transaction that caused them, sent after it
 * commits, retried by the sweep), and live events to signed-in diners (decision 087).
 */
export function createNotificationsService(deps: AppDeps, drivers: { mail?: MailDriver; sms?: SmsDriver; whatsapp?: TextDriver } = {}) {
  const { db, clock, config, log, events } = deps;
  const mail =
    drivers.mail ??
    (config.notifications.smtpUrl ? createSmtpMailDriver(config.notifications.smtpUrl, config.notifications.mailFrom) : createDevMailboxMailDriver(log));
  const sms = drivers.sms ?? createLogSmsDriver(log, { isProduction: config.nodeEnv === 'production' });
  const whatsapp = drivers.whatsapp ?? createLogWhatsAppDriver(log, { isProduction: config.nodeEnv === 'production' });
  /** Live listeners per diner: the streams open on this instance. */
  const listeners = new Map<string, Set<(event: DinerStreamEvent) => void>>();
  // Events reach the diner's streams on whichever instance they are connected to (decision 076).
  const stopHearing = events.subscribe('diner.event', ({ userId, event }) => {
    for (const listener of listeners.get(userId) ?? []) listener(event);
  });

  async function send(row: OutboxRow): Promise<void> {
    if (row.channel === 'email') await mail.send({ to: row.recipient, subject: row.subject, text: row.body });
    else await (row.channel === 'whatsapp' ? whatsapp : sms).send({ to: row.recipient, text: row.body, template: row.template });
  }

  const service = {
    /** Writes an email to the outbox in `tx` for a diner who gave an address; null when they gave none. */
    /** Removes every message to or about a diner whose account is deleted, sent or not, in `tx` (decision 266). */
    async eraseMessagesOf(tx: Db, userId: string, recipients: readonly string[]): Promise<void> {
      await deleteMessagesOf(tx, userId, recipients);
    },

    async queueEmailToUser(tx: Db, userId: string, message: { subject: string; body: string }): Promise<string | null> {
      const to = await findUserEmail(tx, userId);
      if (!to) return null;
      return insertOutboxMessage(tx, { channel: 'email', recipient: to, userId, subject: message.subject, body: message.body, now: clock.now() });
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
      });
    },

    /**
     * Writes a text message to the outbox in `tx`, within the SMS policy (decision 095): only to the
     * allowed countries (400), and at most SMS_MAX_PER_ACCOUNT_PER_DAY per account,
     * SMS_MAX_PER_IP_PER_DAY per address `ip` and SMS_MAX_PER_HOUR in all (429). The counts are
     * written in `tx`, so a refusal (which rolls `tx` back) costs nothing.
     */
    async queueSms(
      tx: Db,
      message: { userId: string | null; to: string; body: string; ip?: string; channel?: 'sms' | 'whatsapp'; template?: TextTemplate },
    ): Promise<string> {
      const policy = config.sms;
      const allowed = textablePhone(policy.allowedCountryCodes).safeParse(message.to);
      if (!allowed.success) throw badInput(`phone: ${allowed.error.issues[0]?.message ?? 'Enter a valid phone number'}`);
      const now = clock.now().getTime();
      const hourStart = new Date(now - (now % HOUR_MS));
      const dayStart = new Date(Math.floor((now + KOLKATA_OFFSET_MS) / DAY_MS) * DAY_MS - KOLKATA_OFFSET_MS);
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
      return insertOutboxMessage(tx, {
        channel: message.channel ?? 'sms',
        recipient: message.to,
        userId: message.userId,
        subject: '',
        body: message.body,
        template: message.template,
        now: clock.now(),
      });
    },

    /** The outbox's backlog, for the metrics endpoint only (which checks its own token): counts, never contents. */
    async outboxStats() {
      return readOutboxStats(db, clock.now());
    },

    /**
     * Sends what is due (only `ids`, when given: the messages a transaction just committed).
     * A failure is logged and retried later by the sweep; it never reaches the caller.
     */
    async deliverDue(ids?: string[]): Promise<number> {
      if (ids && ids.length === 0) return 0;
      const now = clock.now();
      const claimed = await claimDueMessages(db, now, { limit: 50, leaseSeconds: LEASE_SECONDS, maxAttempts: MAX_ATTEMPTS, ids });
      let sent = 0;
      for (const row of claimed) {
        try {
          await send(row);
          await markMessageSent(db, row.id, clock.now());
          sent++;
        } catch (error) {
          const retryAt = new Date(clock.now().getTime() + row.attempts * 60_000);
          log.warn({ err: error, messageId: row.id, channel: row.channel, attempt: row.attempts }, 'outbox message not sent; will retry');
          deps.metrics?.outboxFailures.inc();
          await markMessageFailed(db, row.id, error instanceof Error ? error.message : String(error), retryAt).catch(() => {});
        }
      }
      return sent;
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
        holdExpiresAt: asDate(held.hold_expires_at!).toISOString(),
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
