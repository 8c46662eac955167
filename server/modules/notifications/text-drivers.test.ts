import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exotelError, startFakeProvider, whatsAppError, type FakeProvider } from '#server/test/fake-provider.ts';
import { urlForLog } from '#server/logging.ts';
import { DeliveryFailure } from './drivers.ts';
import { createExotelSmsDriver, exotelStatus } from './exotel-driver.ts';
import { answerWhatsAppChallenge, createWhatsAppCloudDriver, isValidWhatsAppSignature, readWhatsAppStatuses } from './whatsapp-cloud-driver.ts';

/** The SMS and WhatsApp drivers against the shared fake of the providers' documented requests and answers. */
let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const exotel = (timeoutMs = 2_000) =>
  createExotelSmsDriver({
    apiBase: fake.base,
    accountSid: 'tablefair1',
    apiKey: 'key123',
    apiToken: 'token456',
    senderId: 'TBLFAR',
    dltEntityId: '1101000000000012345',
    dltTemplateIds: { code: '1107000000000000001', notice: '1107000000000000002', reminder: '1107000000000000003', offer: '1107000000000000004' },
    callbackToken: 'a-secret-callback-token-0123456789',
    publicUrl: 'https://tablefair.example',
    timeoutMs,
  });

const whatsapp = (timeoutMs = 2_000) =>
  createWhatsAppCloudDriver({
    apiBase: fake.base,
    phoneNumberId: '106540352242922',
    accessToken: 'EAAJB-test-token',
    appSecret: 'app-secret',
    verifyToken: 'verify-me',
    language: 'en',
    templates: { code: 'tablefair_code', notice: 'tablefair_account_notice', offer: 'tablefair_table_offer' },
    timeoutMs,
  });

async function failureOf(promise: Promise<unknown>): Promise<DeliveryFailure> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DeliveryFailure);
  return error as DeliveryFailure;
}

describe('Exotel SMS', () => {
  it('posts the documented form with Basic auth, the DLT entity and the template id of the kind, and returns the Sid', async () => {
    const receipt = await exotel().send({ to: '+919876543210', text: '123456 is your code', kind: 'offer', messageId: 'm-1' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.path).toBe('/v1/Accounts/tablefair1/Sms/send.json');
    expect(request.authorization).toBe(`Basic ${Buffer.from('key123:token456').toString('base64')}`);
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(request.body).toEqual({
      From: 'TBLFAR',
      To: '+919876543210',
      Body: '123456 is your code',
      DltEntityId: '1101000000000012345',
      DltTemplateId: '1107000000000000004',
      SmsType: 'transactional',
      StatusCallback: 'https://tablefair.example/api/notifications/receipts/exotel/a-secret-callback-token-0123456789',
      CustomField: 'm-1',
    });
    expect(receipt).toEqual({ providerMessageId: request.providerMessageId });
  });

  it('a 4xx is final, a 5xx and a 429 are retried (with Retry-After), a time-out is retried', async () => {
    fake.script('exotel', { status: 400, json: exotelError(400, 'Invalid To number') });
    const refused = await failureOf(exotel().send({ to: '+919876543210', text: 'x', kind: 'code' }));
    expect(refused).toMatchObject({ retryable: false });
    expect(refused.message).toContain('Invalid To number');
    expect(refused.message).not.toContain('token456');

    fake.script('exotel', { status: 503, json: exotelError(503, 'Service Unavailable') });
    expect(await failureOf(exotel().send({ to: '+919876543210', text: 'x', kind: 'code' }))).toMatchObject({ retryable: true });

    fake.script('exotel', { status: 429, json: exotelError(429, 'Too many requests'), retryAfter: '120' });
    expect(await failureOf(exotel().send({ to: '+919876543210', text: 'x', kind: 'code' }))).toMatchObject({ retryable: true, retryAfterSeconds: 120 });

    fake.script('exotel', { status: 200, json: {}, delayMs: 1_000 });
    const late = await failureOf(exotel(100).send({ to: '+919876543210', text: 'x', kind: 'code' }));
    expect(late).toMatchObject({ retryable: true });
    expect(late.message).toMatch(/did not answer within 100 ms/);
  });

  it("keeps the receipt URL's secret token out of the logs", () => {
    expect(urlForLog('/api/notifications/receipts/exotel/a-secret-callback-token-0123456789')).toBe('/api/notifications/receipts/exotel/…');
  });

  it("reads the StatusCallback's statuses: delivered to the handset, sent, failed, and in-between ones change nothing", () => {
    expect(exotelStatus('sent', 'DELIVERED_TO_HANDSET')).toBe('delivered');
    expect(exotelStatus('sent', 'DELIVERED_TO_OPERATOR')).toBe('sent');
    expect(exotelStatus('failed-dnd', 'FAILED_DND')).toBe('failed');
    expect(exotelStatus('submitted')).toBeNull();
  });
});

/** A Cloud API template whose values fill its body, in order, as the API's documentation writes one. */
const bodyTemplate = (name: string, values: string[]) => ({
  name,
  language: { code: 'en' },
  components: [{ type: 'body', parameters: values.map((text) => ({ type: 'text', text })) }],
});

describe('WhatsApp Business Cloud API', () => {
  it('sends a code in the authentication template: the code fills the body and the copy-code button', async () => {
    const receipt = await whatsapp().send({
      to: '+919876543210',
      text: '123456 is your code',
      kind: 'code',
      template: { name: '', language: '', values: ['123456'] },
    });
    const [request] = fake.requests;
    expect(request.path).toBe('/106540352242922/messages');
    expect(request.authorization).toBe('Bearer EAAJB-test-token');
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'template',
      template: {
        name: 'tablefair_code',
        language: { code: 'en' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
        ],
      },
    });
    expect(receipt).toEqual({ providerMessageId: request.providerMessageId });
  });

  it('sends a reminder in its own template and an offer in the offer template, slot by slot', async () => {
    await whatsapp().send({
      to: '+919876543210',
      text: 'r',
      kind: 'reminder',
      template: { name: 'tablefair_reservation_reminder_v2', language: 'en', values: ['Toit', 'tomorrow'] },
    });
    await whatsapp().send({ to: '+919876543210', text: 'o', kind: 'offer', template: { name: '', language: '', values: ['Toit', '2 guests'] } });
    expect(fake.requests.map((request) => (request.body as { template: unknown }).template)).toEqual([
      bodyTemplate('tablefair_reservation_reminder_v2', ['Toit', 'tomorrow']),
      bodyTemplate('tablefair_table_offer', ['Toit', '2 guests']),
    ]);
  });

  it('a throughput limit (130429) is retried even on a 400; an unknown template (132001) is final; a 500 is retried', async () => {
    fake.script('whatsapp', { status: 400, json: whatsAppError(130429, 'Rate limit hit') });
    expect(await failureOf(whatsapp().send({ to: '+919876543210', text: 'x', kind: 'offer' }))).toMatchObject({ retryable: true });
    fake.script('whatsapp', { status: 404, json: whatsAppError(132001, 'Template name does not exist in the translation') });
    expect(await failureOf(whatsapp().send({ to: '+919876543210', text: 'x', kind: 'offer' }))).toMatchObject({ retryable: false });
    fake.script('whatsapp', { status: 500, json: whatsAppError(131000, 'Something went wrong') });
    expect(await failureOf(whatsapp().send({ to: '+919876543210', text: 'x', kind: 'offer' }))).toMatchObject({ retryable: true });
  });

  it('answers the verify handshake only for our token, and checks X-Hub-Signature-256 against the raw body', () => {
    expect(answerWhatsAppChallenge('verify-me', { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' })).toBe(
      '1158201444',
    );
    expect(answerWhatsAppChallenge('verify-me', { 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1158201444' })).toBeNull();
    const body = '{"object":"whatsapp_business_account"}';
    const signature = `sha256=${createHmac('sha256', 'app-secret').update(body).digest('hex')}`;
    expect(isValidWhatsAppSignature(body, 'app-secret', signature)).toBe(true);
    expect(isValidWhatsAppSignature(`${body} `, 'app-secret', signature)).toBe(false);
    expect(isValidWhatsAppSignature(body, 'other-secret', signature)).toBe(false);
    expect(isValidWhatsAppSignature(body, 'app-secret', undefined)).toBe(false);
  });

  it('reads statuses from the documented webhook body; read counts as delivered', () => {
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA_ID',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550000000', phone_number_id: '106540352242922' },
                statuses: [
                  { id: 'wamid.A', status: 'delivered', timestamp: '1700000000', recipient_id: '919876543210' },
                  { id: 'wamid.B', status: 'read', timestamp: '1700000000', recipient_id: '919876543210' },
                  {
                    id: 'wamid.C',
                    status: 'failed',
                    timestamp: '1700000000',
                    recipient_id: '919876543210',
                    errors: [{ code: 131026, title: 'Message undeliverable' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    expect(readWhatsAppStatuses(body)).toEqual([
      { providerMessageId: 'wamid.A', status: 'delivered', error: null },
      { providerMessageId: 'wamid.B', status: 'delivered', error: null },
      { providerMessageId: 'wamid.C', status: 'failed', error: '131026 Message undeliverable' },
    ]);
  });
});
