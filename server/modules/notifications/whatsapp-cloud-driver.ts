import { createHmac } from 'node:crypto';
import type { DeliveryStatus } from '#common/domain/delivery-policy.ts';
import type { WhatsAppCloudConfig } from '#server/config.ts';
import { sameText } from '#server/constant-time.ts';
import { callProvider, DeliveryFailure, failureOf, type SendReceipt, type TextDriver, type TextMessage } from './drivers.ts';

/**
 * Graph API error codes that mean "not now" rather than "never": throughput and pair rate limits,
 * and the platform's temporary errors. They are retried with backoff whatever the HTTP status.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131048, 131056]);

/**
 * WhatsApp through Meta's WhatsApp Business Cloud API (decision 211), with fetch:
 * POST {apiBase}/{phone-number-id}/messages with a bearer token and a template message
 * (`messaging_product: whatsapp`, `type: template`). A one-time code goes in the authentication
 * template: the code fills the body's one slot and the copy-code button's URL parameter.
 * Reminders and offers fill their utility templates' numbered body slots. The answer names the
 * message `messages[0].id` (a wamid), which the webhook's statuses name again.
 */
export function createWhatsAppCloudDriver(options: WhatsAppCloudConfig & { timeoutMs: number }): TextDriver {
  const endpoint = `${options.apiBase}/${encodeURIComponent(options.phoneNumberId)}/messages`;
  return {
    name: 'cloud',
    isLive: true,
    async send(message: TextMessage): Promise<SendReceipt> {
      const response = await callProvider(
        endpoint,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${options.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(whatsAppTemplateMessage(options, message)),
        },
        options.timeoutMs,
        'WhatsApp',
      );
      const answer = (await response.json().catch(() => null)) as { messages?: { id?: string }[]; error?: { message?: string; code?: number } } | null;
      if (!response.ok) {
        const failure = failureOf(response, 'WhatsApp', answer?.error?.message ?? 'no error message');
        const code = answer?.error?.code;
        if (code !== undefined && RETRYABLE_CODES.has(code)) throw new DeliveryFailure(failure.message, true, failure.retryAfterSeconds);
        throw failure;
      }
      const id = answer?.messages?.[0]?.id;
      if (!id) throw new DeliveryFailure('WhatsApp accepted the message but named no id', true);
      return { providerMessageId: id };
    },
  };
}

/** The Cloud API request body for one message: always a template, since we write first. */
export function whatsAppTemplateMessage(options: Pick<WhatsAppCloudConfig, 'language' | 'templates'>, message: TextMessage) {
  const values = message.template?.values ?? [];
  const bodyParameters = values.map((text) => ({ type: 'text', text }));
  const kind = message.kind ?? 'code';
  const name = kind === 'reminder' ? (message.template?.name ?? '') : options.templates[kind];
  const components: unknown[] = bodyParameters.length > 0 ? [{ type: 'body', parameters: bodyParameters }] : [];
  // An authentication template's copy-code button carries the code as its URL parameter.
  if (kind === 'code') components.push({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: values[0] ?? '' }] });
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    template: { name, language: { code: kind === 'reminder' ? (message.template?.language ?? options.language) : options.language }, components },
  };
}

/** The webhook's verify handshake: the challenge to echo back, or null when the token is wrong. */
export function answerWhatsAppChallenge(
  verifyToken: string,
  query: { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string },
): string | null {
  if (query['hub.mode'] !== 'subscribe' || !query['hub.challenge'] || !query['hub.verify_token']) return null;
  return sameText(query['hub.verify_token'], verifyToken) ? query['hub.challenge'] : null;
}

/** X-Hub-Signature-256 is `sha256=` and the HMAC-SHA256 hex of the raw body with the app secret; compared in constant time. */
export function isValidWhatsAppSignature(rawBody: string, appSecret: string, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
  return sameText(header, expected);
}

/** The statuses of a webhook's body: each message id with our status (read counts as delivered; unknown ones are left out). */
export function readWhatsAppStatuses(body: unknown): { providerMessageId: string; status: Exclude<DeliveryStatus, 'queued'>; error: string | null }[] {
  const statuses: { providerMessageId: string; status: Exclude<DeliveryStatus, 'queued'>; error: string | null }[] = [];
  const entries = (body as { entry?: { changes?: { value?: { statuses?: unknown[] } }[] }[] } | null)?.entry ?? [];
  for (const entry of Array.isArray(entries) ? entries : []) {
    for (const change of entry.changes ?? []) {
      for (const raw of change.value?.statuses ?? []) {
        const item = raw as { id?: unknown; status?: unknown; errors?: { code?: number; title?: string }[] };
        if (typeof item.id !== 'string') continue;
        const status =
          item.status === 'sent' ? 'sent' : item.status === 'delivered' || item.status === 'read' ? 'delivered' : item.status === 'failed' ? 'failed' : null;
        if (!status) continue;
        const error = item.errors?.[0] ? `${item.errors[0].code ?? ''} ${item.errors[0].title ?? ''}`.trim() : null;
        statuses.push({ providerMessageId: item.id, status, error });
      }
    }
  }
  return statuses;
}
