import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { TextMessageKind } from '#common/domain/delivery-policy.ts';

/** The ports messages leave through (decision 087). A driver throws when a message could not be handed over. */
export interface MailDriver {
  readonly name: string;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

/**
 * A message template registered with a WhatsApp business account (or an SMS sender ID): its name,
 * language and the values of its numbered slots, in order.
 */
export interface TextTemplate {
  name: string;
  language: string;
  values: string[];
}

/**
 * The port every text channel leaves through: SMS and WhatsApp (decision 153). `text` is the whole
 * message as the diner reads it; `template`, when given, is the same message as a registered
 * template, which is what a WhatsApp business account must send outside a conversation.
 */
export interface TextDriver {
  readonly name: string;
  /** True when the driver reaches a real phone (not a log driver): the delivery policy only routes to live channels. */
  readonly isLive?: boolean;
  /** Returns the provider's id for the message, which its delivery receipts name. */
  send(message: TextMessage): Promise<SendReceipt | void>;
}

/** One text as the outbox hands it to a driver. */
export interface TextMessage {
  to: string;
  text: string;
  template?: TextTemplate | null;
  /** The delivery policy's kind (decision 213): picks the DLT template id or the WhatsApp template. */
  kind?: TextMessageKind | null;
  /** Our outbox id, sent along where the provider keeps a reference for us. */
  messageId?: string;
}

export interface SendReceipt {
  providerMessageId: string | null;
}

/**
 * A provider refused or failed a message. `retryable` (a 429, a 5xx, a time-out, a network error)
 * means the outbox tries again with backoff; otherwise (a 4xx: a bad number, a template the
 * provider does not know) this channel is done and the policy's next channel is tried.
 */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

/** Seconds from a Retry-After header (seconds or an HTTP date), or null. */
export function retryAfterSeconds(header: string | null, now: Date = new Date()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * One HTTP call to a provider with a time-out: a network error or the time-out is a retryable
 * DeliveryFailure; the response is returned whatever its status.
 */
export async function callProvider(url: string, init: RequestInit, timeoutMs: number, provider: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new DeliveryFailure(timedOut ? `${provider} did not answer within ${timeoutMs} ms` : `${provider} could not be reached`, true);
  }
}

/** A provider's non-2xx answer as a DeliveryFailure: 429, 408 and 5xx are retried, other 4xx are not. */
export function failureOf(response: Response, provider: string, detail: string): DeliveryFailure {
  const retryable = response.status === 429 || response.status === 408 || response.status >= 500;
  return new DeliveryFailure(
    `${provider} answered ${response.status}: ${detail}`.slice(0, 300),
    retryable,
    retryAfterSeconds(response.headers.get('retry-after')),
  );
}
/** The SMS side of the text port. */
export type SmsDriver = TextDriver;

/** +919876543210 → +91••••••3210, for logs. */
export function maskPhone(phone: string): string {
  return phone.length <= 7 ? '•••' : `${phone.slice(0, 3)}${'•'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

/** a.person@example.com → a•••@example.com, for logs. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  return at <= 0 ? '•••' : `${email[0]}•••${email.slice(at)}`;
}

/** SMTP through nodemailer, when SMTP_URL is set (smtp://user:pass@host:587 or smtps://…:465). */
export function createSmtpMailDriver(smtpUrl: string, from: string): MailDriver {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    name: 'smtp',
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * No SMTP configured: the message stays readable in the dev mailbox (GET /api/dev/mailbox)
 * and the log says it was written there.
 */
export function createDevMailboxMailDriver(log: FastifyBaseLogger): MailDriver {
  return {
    name: 'dev-mailbox',
    async send(message) {
      log.info({ to: maskEmail(message.to), subject: message.subject }, 'email written to the dev mailbox (no SMTP_URL configured)');
    },
    close() {},
  };
}

/**
 * SMS_DRIVER=log: texts are written to the log and kept in the dev mailbox. The text itself
 * (it may carry a one-time code) is logged only outside production.
 */
export function createLogSmsDriver(log: FastifyBaseLogger, options: { isProduction: boolean }): SmsDriver {
  return {
    name: 'log',
    async send(message) {
      if (options.isProduction) log.warn({ to: maskPhone(message.to) }, 'SMS not delivered: SMS_DRIVER=log keeps texts in the outbox only');
      else log.info({ to: maskPhone(message.to), text: message.text }, 'SMS (log driver)');
    },
  };
}

/**
 * WHATSAPP_DRIVER=log: WhatsApp messages are written to the log (the template and its values,
 * outside production) and kept in the dev mailbox, as SMS_DRIVER=log does for texts.
 */
export function createLogWhatsAppDriver(log: FastifyBaseLogger, options: { isProduction: boolean }): TextDriver {
  return {
    name: 'log',
    async send(message) {
      if (options.isProduction)
        log.warn({ to: maskPhone(message.to) }, 'WhatsApp message not delivered: WHATSAPP_DRIVER=log keeps messages in the outbox only');
      else log.info({ to: maskPhone(message.to), template: message.template?.name, values: message.template?.values }, 'WhatsApp (log driver)');
    },
  };
}
