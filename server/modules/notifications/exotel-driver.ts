import type { DeliveryStatus } from '#common/domain/delivery-policy.ts';
import type { ExotelConfig } from '#server/config.ts';
import { callProvider, DeliveryFailure, failureOf, type SendReceipt, type TextDriver, type TextMessage } from './drivers.ts';

/**
 * SMS through Exotel (decision 210), on its documented HTTP API with fetch:
 * - send: POST {apiBase}/v1/Accounts/{sid}/Sms/send.json, Basic auth (API key : token), a form
 *   body with From (the DLT sender id), To, Body, DltEntityId, DltTemplateId (per kind of text),
 *   SmsType transactional, StatusCallback (our receipt URL with its secret token) and CustomField
 *   (our outbox id). A 200 or 202 answers `{ SMSMessage: { Sid, Status } }`; an error answers
 *   `{ RestException: { Status, Message } }`.
 * - receipts: Exotel POSTs a form to the StatusCallback with SmsSid, Status (queued, sending,
 *   submitted, sent, delivered, failed, failed-dnd, undelivered, expired), DetailedStatus and
 *   DetailedStatusCode. It carries no signature, so the URL's token is what proves it is Exotel's.
 * The key and token only ever go into the Authorization header, never a log or an error.
 */
export function createExotelSmsDriver(options: ExotelConfig & { publicUrl: string; timeoutMs: number }): TextDriver {
  const endpoint = `${options.apiBase}/v1/Accounts/${encodeURIComponent(options.accountSid)}/Sms/send.json`;
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:${options.apiToken}`).toString('base64')}`;
  return {
    name: 'exotel',
    isLive: true,
    async send(message: TextMessage): Promise<SendReceipt> {
      const form = new URLSearchParams({
        From: options.senderId,
        To: message.to,
        Body: message.text,
        DltEntityId: options.dltEntityId,
        DltTemplateId: options.dltTemplateIds[message.kind ?? 'code'],
        SmsType: 'transactional',
        StatusCallback: exotelCallbackUrl(options.publicUrl, options.callbackToken),
      });
      if (message.messageId) form.set('CustomField', message.messageId);
      const response = await callProvider(
        endpoint,
        { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form },
        options.timeoutMs,
        'Exotel',
      );
      const answer = (await response.json().catch(() => null)) as {
        SMSMessage?: { Sid?: string; Status?: string };
        RestException?: { Message?: string };
      } | null;
      if (!response.ok) throw failureOf(response, 'Exotel', answer?.RestException?.Message ?? 'no error message');
      const sid = answer?.SMSMessage?.Sid;
      if (!sid) throw new DeliveryFailure('Exotel accepted the text but named no Sid', true);
      if (answer?.SMSMessage?.Status === 'failed') throw new DeliveryFailure('Exotel refused the text at once (failed)', false);
      return { providerMessageId: sid };
    },
  };
}

/** The StatusCallback URL Exotel posts receipts to: the secret token is its only proof. */
export function exotelCallbackUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/notifications/receipts/exotel/${encodeURIComponent(token)}`;
}

/**
 * An Exotel receipt as our status: null for the in-between ones (queued … submitted), which
 * change nothing. Exotel's `sent` with DetailedStatus DELIVERED_TO_HANDSET is the handset's word
 * (its SMS details answer shows exactly that pair); `sent` alone is the carrier's.
 */
export function exotelStatus(status: string | undefined, detailedStatus?: string): Exclude<DeliveryStatus, 'queued'> | null {
  switch (status) {
    case 'sent':
      return detailedStatus === 'DELIVERED_TO_HANDSET' ? 'delivered' : 'sent';
    case 'delivered':
      return 'delivered';
    case 'failed':
    case 'failed-dnd':
    case 'undelivered':
    case 'expired':
      return 'failed';
    default:
      return null;
  }
}
