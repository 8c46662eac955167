import { retryDelayMs, type TextMessageKind } from '#common/domain/delivery-policy.ts';
import type { AppDeps } from '#server/deps.ts';
import { sameText } from '#server/constant-time.ts';
import { DeliveryFailure, type MailDriver, type TextDriver } from './drivers.ts';
import { exotelStatus } from './exotel-driver.ts';
import type { PushDriver } from './web-push-driver.ts';
import {
  claimDueMessages,
  failMessageOnChannel,
  markMessageFailed,
  markMessageSent,
  recordDelivered,
  type OutboxChannel,
  type OutboxRow,
} from './outbox.repository.ts';
import { answerWhatsAppChallenge, isValidWhatsAppSignature, readWhatsAppStatuses } from './whatsapp-cloud-driver.ts';

/** A message is tried this many times on one channel before the policy's next channel (or failed). */
export const MAX_ATTEMPTS = 5;
const LEASE_SECONDS = 60;

/**
 * Sending the outbox and hearing back (decisions 087, 213): claims due messages (the claim's lease
 * and SKIP LOCKED keep two instances off one message), hands each to its channel's driver, retries
 * what may work later with backoff, moves what failed for good to the policy's next channel, and
 * records the providers' receipts: sent, delivered, failed. Each outcome is counted in /metrics.
 */
export function createOutboxDelivery(deps: AppDeps, drivers: { mail: MailDriver; sms: TextDriver; whatsapp: TextDriver; push: PushDriver }) {
  const { db, clock, config, log } = deps;
  const count = (row: Pick<OutboxRow, 'channel' | 'kind'>, outcome: string) =>
    deps.metrics?.messageOutcomes.inc({ channel: row.channel, kind: row.kind ?? 'email', outcome });

  async function send(row: OutboxRow): Promise<string | null> {
    if (row.channel === 'email') {
      await drivers.mail.send({ to: row.recipient, subject: row.subject, text: row.body });
      return null;
    }
    if (row.channel === 'push') {
      // A push's recipient is an account (a diner's, or a dating member's: decision 219): it goes to every browser they subscribed (decision 212).
      const url = row.link ?? '/me';
      await drivers.push.send({ recipient: row.recipient, title: row.subject, body: row.body, url, kind: row.kind, messageId: row.id });
      return null;
    }
    const driver = row.channel === 'whatsapp' ? drivers.whatsapp : drivers.sms;
    // The policy routes only text kinds to a text channel (common/domain/delivery-policy.ts).
    const kind = row.kind as TextMessageKind | null;
    const receipt = await driver.send({ to: row.recipient, text: row.body, template: row.template, kind, messageId: row.id });
    return receipt?.providerMessageId ?? null;
  }

  /** This channel is done: the next one, or failed. Returns the id when the message is due again on another channel. */
  async function giveUpOnChannel(where: Parameters<typeof failMessageOnChannel>[1], failedChannel: OutboxChannel, reason: string): Promise<string | null> {
    const moved = await failMessageOnChannel(db, where, reason, clock.now());
    if (!moved) return null;
    // Counted on the channel that failed, not the one the message moved to.
    count({ channel: failedChannel, kind: moved.row.kind }, moved.outcome);
    if (moved.outcome === 'failed') log.warn({ messageId: moved.row.id, kind: moved.row.kind }, 'message failed on every channel it could take');
    return moved.outcome === 'next_channel' ? moved.row.id : null;
  }

  const delivery = {
    /** Channels with a real driver behind them, for the delivery policy. */
    liveChannels(): ('whatsapp' | 'sms')[] {
      return [...(drivers.whatsapp.isLive ? (['whatsapp'] as const) : []), ...(drivers.sms.isLive ? (['sms'] as const) : [])];
    },

    /**
     * Sends what is due (only `ids`, when given: the messages a transaction just committed).
     * A failure is logged and retried later, or handed to the next channel; it never reaches the caller.
     */
    async deliverDue(ids?: string[]): Promise<number> {
      if (ids && ids.length === 0) return 0;
      const claimed = await claimDueMessages(db, clock.now(), { limit: 50, leaseSeconds: LEASE_SECONDS, maxAttempts: MAX_ATTEMPTS, ids });
      let sent = 0;
      const movedOn: string[] = [];
      for (const row of claimed) {
        try {
          const providerMessageId = await send(row);
          await markMessageSent(db, row.id, clock.now(), providerMessageId);
          count(row, 'sent');
          sent++;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          const retryable = !(error instanceof DeliveryFailure) || error.retryable;
          deps.metrics?.outboxFailures.inc();
          if (retryable && row.attempts < MAX_ATTEMPTS) {
            const delay = retryDelayMs(row.attempts, error instanceof DeliveryFailure ? error.retryAfterSeconds : null);
            log.warn({ err: error, messageId: row.id, channel: row.channel, attempt: row.attempts }, 'outbox message not sent; will retry');
            count(row, 'retried');
            await markMessageFailed(db, row.id, reason, new Date(clock.now().getTime() + delay)).catch(() => {});
          } else {
            log.warn({ err: error, messageId: row.id, channel: row.channel, attempt: row.attempts }, 'outbox message not sent on this channel');
            const next = await giveUpOnChannel({ id: row.id }, row.channel, reason).catch(() => null);
            if (next) movedOn.push(next);
          }
        }
      }
      if (movedOn.length > 0) sent += await delivery.deliverDue(movedOn);
      return sent;
    },

    /** A provider's receipt for one message: delivered is recorded, failed moves it on, the rest changes nothing. */
    async applyReceipt(channel: OutboxChannel, providerMessageId: string, status: 'sent' | 'delivered' | 'failed', error: string | null): Promise<void> {
      if (status === 'delivered') {
        const row = await recordDelivered(db, { channel, providerMessageId }, clock.now());
        if (row) count(row, 'delivered');
      } else if (status === 'failed') {
        const next = await giveUpOnChannel({ channel, providerMessageId }, channel, `${channel} receipt: failed${error ? ` (${error})` : ''}`);
        if (next) await delivery.deliverDue([next]);
      }
    },

    /**
     * POST /api/notifications/receipts/exotel/{token}: Exotel's StatusCallback. Its receipts carry
     * no signature; the secret token in the URL is the proof (decision 210). False when refused.
     */
    async receiveExotelReceipt(token: string, form: Record<string, string | undefined>): Promise<boolean> {
      const expected = config.notifications.exotel?.callbackToken;
      if (!expected || !sameText(token, expected)) return false;
      const status = exotelStatus(form.Status, form.DetailedStatus);
      if (form.SmsSid && status) await delivery.applyReceipt('sms', form.SmsSid, status, form.DetailedStatus ?? null);
      return true;
    },

    /** GET /api/notifications/webhooks/whatsapp: the verify handshake; the challenge, or null (403). */
    answerWhatsAppChallenge(query: Record<string, string | undefined>): string | null {
      const verifyToken = config.notifications.whatsapp?.verifyToken;
      return verifyToken ? answerWhatsAppChallenge(verifyToken, query) : null;
    },

    /** POST /api/notifications/webhooks/whatsapp: statuses, after the X-Hub-Signature-256 check. False when refused. */
    async receiveWhatsAppWebhook(rawBody: string, signature: string | undefined): Promise<boolean> {
      const appSecret = config.notifications.whatsapp?.appSecret;
      if (!appSecret || !isValidWhatsAppSignature(rawBody, appSecret, signature)) return false;
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        return false;
      }
      for (const item of readWhatsAppStatuses(body)) await delivery.applyReceipt('whatsapp', item.providerMessageId, item.status, item.error);
      return true;
    },
  };
  return delivery;
}

export type OutboxDelivery = ReturnType<typeof createOutboxDelivery>;
