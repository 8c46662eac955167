import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

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
  send(message: { to: string; text: string; template?: TextTemplate | null }): Promise<void>;
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
