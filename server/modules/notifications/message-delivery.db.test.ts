import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, type TestApp } from '#server/test/app.ts';
import { waitFor } from '#server/test/eventually.ts';
import { exotelError, startFakeProvider, whatsAppError, type FakeProvider } from '#server/test/fake-provider.ts';
import { buildDiner, queueToitOffer } from '#server/test/factories.ts';
import { reminderText } from '#server/modules/reminders/reminder-messages.ts';

/**
 * Codes, reminders and offers through the Exotel and WhatsApp Cloud drivers to the shared fake of
 * both providers, back with their receipts, once per person with two instances on one database
 * (decisions 210–214).
 */
const CALLBACK_TOKEN = 'exotel-callback-token-0123456789abcdef';
const APP_SECRET = 'whatsapp-app-secret';
let fake: FakeProvider;
let one: TestApp;
let two: TestApp;

const providerEnv = (base: string): Record<string, string> => ({
  PUBLIC_URL: 'https://tablefair.example',
  METRICS_TOKEN: 'metrics-token-0123456789',
  MESSAGE_PROVIDER_TIMEOUT_MS: '2000',
  SMS_DRIVER: 'exotel',
  EXOTEL_API_BASE: base,
  EXOTEL_ACCOUNT_SID: 'tablefair1',
  EXOTEL_API_KEY: 'key123',
  EXOTEL_API_TOKEN: 'token456',
  EXOTEL_SENDER_ID: 'TBLFAR',
  EXOTEL_DLT_ENTITY_ID: '1101000000000012345',
  EXOTEL_DLT_TEMPLATE_CODE: '1107000000000000001',
  EXOTEL_DLT_TEMPLATE_NOTICE: '1107000000000000002',
  EXOTEL_DLT_TEMPLATE_REMINDER: '1107000000000000003',
  EXOTEL_DLT_TEMPLATE_OFFER: '1107000000000000004',
  EXOTEL_CALLBACK_TOKEN: CALLBACK_TOKEN,
  WHATSAPP_DRIVER: 'cloud',
  WHATSAPP_API_BASE: base,
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_ACCESS_TOKEN: 'EAAJB-test-token',
  WHATSAPP_APP_SECRET: APP_SECRET,
  WHATSAPP_VERIFY_TOKEN: 'verify-me',
});

beforeAll(async () => {
  fake = await startFakeProvider();
  one = await createTestApp({ env: providerEnv(fake.base) });
  // A second instance on the same database: its own drivers, services and metrics.
  two = await createTestApp({ env: providerEnv(fake.base), database: one.database });
});
afterAll(async () => {
  await two?.app.close();
  await one?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

interface Row {
  id: string;
  channel: string;
  recipient: string;
  kind: string;
  delivery_status: string;
  provider_message_id: string | null;
  attempts: number;
}
const message = async (id: string) =>
  (
    await queryRows<Row>(
      one.database.db,
      sql`SELECT id, channel, recipient, kind, delivery_status, provider_message_id, attempts FROM outbox_messages WHERE id = ${id}`,
    )
  )[0];

async function dinerWithPhone(phone: string) {
  const diner = await buildDiner(one.database.db);
  await one.database.db.execute(sql`UPDATE users SET verified_phone = ${phone}, phone_verified_at = now() WHERE id = ${diner.id}`);
  return diner;
}

const queueOffer = (app: TestApp, userId: string, key: string) =>
  queueToitOffer(app, userId, key, { body: 'Good news from the waitlist: a table for 2 at Toit is held in your name until 7:40 PM.', link: '/hold/x' });

const exotelReceipt = (app: TestApp, token: string, form: Record<string, string>) =>
  app.app.inject({
    method: 'POST',
    url: `/api/notifications/receipts/exotel/${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

function whatsAppWebhook(app: TestApp, statuses: { id: string; status: string; errors?: unknown[] }[], secret = APP_SECRET) {
  const payload = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', statuses: statuses.map((s) => ({ ...s, timestamp: '1700000000', recipient_id: '919876543210' })) },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
  return app.app.inject({
    method: 'POST',
    url: '/api/notifications/webhooks/whatsapp',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    payload,
  });
}

describe('messages through Exotel and WhatsApp', () => {
  it('a phone code goes by SMS with its DLT ids, and Exotel’s receipt (with the secret token only) marks it delivered', async () => {
    const diner = await buildDiner(one.database.db);
    const started = await one.app.inject({ method: 'POST', url: '/api/auth/phone/start', headers: bearer(diner.token), payload: { phone: '+919876500001' } });
    expect(started.statusCode, started.body).toBe(202);
    // The route hands the code to the outbox at once (deliverSoon); the sweep would otherwise.
    await waitFor(
      async () => {
        await one.app.services.notifications.deliverDue();
        return fake.requests.length === 1 && (await message(String(fake.requests[0].body.CustomField)))?.delivery_status === 'sent';
      },
      10_000,
      'the code to be sent through Exotel',
    );
    const sent = fake.requests.filter((request) => request.provider === 'exotel');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ To: '+919876500001', From: 'TBLFAR', DltTemplateId: '1107000000000000001', DltEntityId: '1101000000000012345' });
    expect(String(sent[0].body.Body)).toMatch(/^\d{6} is your Tablefair verification code/);
    const id = String(sent[0].body.CustomField);
    expect(await message(id)).toMatchObject({ channel: 'sms', kind: 'code', delivery_status: 'sent', provider_message_id: sent[0].providerMessageId });

    const forged = await exotelReceipt(two, 'not-the-token-000000000000000000', {
      SmsSid: sent[0].providerMessageId!,
      Status: 'sent',
      DetailedStatus: 'DELIVERED_TO_HANDSET',
    });
    expect(forged.statusCode).toBe(403);
    expect((await message(id)).delivery_status).toBe('sent');
    // The receipt may reach either instance.
    const receipt = await exotelReceipt(two, CALLBACK_TOKEN, {
      SmsSid: sent[0].providerMessageId!,
      Status: 'sent',
      DetailedStatus: 'DELIVERED_TO_HANDSET',
      DetailedStatusCode: '20005',
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect((await message(id)).delivery_status).toBe('delivered');
  });

  it('a code and a reminder by WhatsApp, in their templates, delivered by the signed webhook; a bad signature and a wrong verify token are refused', async () => {
    const tx = one.app.services.notifications;
    const text = reminderText(
      { restaurantName: 'Toit', date: 'Tue, 24 Nov', time: '7:30 PM', partySize: 2, offsetMinutes: 120 },
      { coming: 'https://t.example/c', release: 'https://t.example/r', calendar: 'https://t.example/i' },
    );
    const [codeId, reminderId] = await one.database.db.transaction(async (db) => [
      await tx.queueSms(db, { userId: null, to: '+919876500002', body: '654321 is your code', kind: 'code', values: ['654321'], channel: 'whatsapp' }),
      await tx.queueSms(db, { userId: null, to: '+919876500002', body: text.body, template: text.template, kind: 'reminder', channel: 'whatsapp' }),
    ]);
    await one.app.services.notifications.deliverDue([codeId, reminderId]);
    const sent = fake.requests.filter((request) => request.provider === 'whatsapp');
    const templateOf = (request: (typeof sent)[number]) => request.body.template as { name: string; components: unknown[] };
    sent.sort((a, b) => templateOf(a).name.localeCompare(templateOf(b).name));
    expect(sent.map((request) => templateOf(request).name)).toEqual(['tablefair_code', 'tablefair_reservation_reminder_v2']);
    expect(templateOf(sent[0]).components).toHaveLength(2);

    expect((await whatsAppWebhook(two, [{ id: sent[0].providerMessageId!, status: 'delivered' }], 'wrong-secret')).statusCode).toBe(403);
    const accepted = await whatsAppWebhook(two, [
      { id: sent[0].providerMessageId!, status: 'delivered' },
      { id: sent[1].providerMessageId!, status: 'read' },
    ]);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await message(codeId)).delivery_status).toBe('delivered');
    expect((await message(reminderId)).delivery_status).toBe('delivered');

    const challenge = await two.app.inject({
      method: 'GET',
      url: '/api/notifications/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444',
    });
    expect({ status: challenge.statusCode, body: challenge.body }).toEqual({ status: 200, body: '1158201444' });
    const wrong = await two.app.inject({
      method: 'GET',
      url: '/api/notifications/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444',
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('an offer is written once per person by two instances, sent once by WhatsApp, and its failure receipt moves it to SMS, then email', async () => {
    const diner = await dinerWithPhone('+919876500003');
    const [first, second] = await Promise.all([queueOffer(one, diner.id, 'offer:test-1'), queueOffer(two, diner.id, 'offer:test-1')]);
    const id = (first ?? second)!;
    expect([first, second].filter(Boolean)).toHaveLength(1);
    // Both instances' outbox runs at once: one of them sends it.
    await Promise.all([one.app.services.notifications.deliverDue(), two.app.services.notifications.deliverDue()]);
    const whatsapp = fake.requests.filter((request) => request.provider === 'whatsapp');
    expect(whatsapp).toHaveLength(1);
    expect(whatsapp[0].body.template).toMatchObject({ name: 'tablefair_table_offer' });
    expect(await message(id)).toMatchObject({ channel: 'whatsapp', kind: 'offer', delivery_status: 'sent' });

    // WhatsApp says it could not deliver: the policy's next channel, SMS, goes at once with the offer's DLT template.
    await whatsAppWebhook(one, [{ id: whatsapp[0].providerMessageId!, status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] }]);
    const sms = fake.requests.filter((request) => request.provider === 'exotel');
    expect(sms).toHaveLength(1);
    expect(sms[0].body).toMatchObject({ To: '+919876500003', DltTemplateId: '1107000000000000004' });
    expect(await message(id)).toMatchObject({ channel: 'sms', delivery_status: 'sent', provider_message_id: sms[0].providerMessageId });
    // A late repeat of WhatsApp's failure changes nothing.
    await whatsAppWebhook(one, [{ id: whatsapp[0].providerMessageId!, status: 'failed' }]);
    expect(fake.requests).toHaveLength(2);

    // Exotel's receipt: failed (DND). Email is left, and takes it.
    await exotelReceipt(one, CALLBACK_TOKEN, { SmsSid: sms[0].providerMessageId!, Status: 'failed-dnd', DetailedStatus: 'FAILED_DND' });
    expect(await message(id)).toMatchObject({ channel: 'email', recipient: `${diner.username}@example.com`, delivery_status: 'sent' });
    expect(fake.requests).toHaveLength(2);
  });

  it('a 429 waits for its Retry-After, a 5xx backs off, a 4xx moves on; every outcome is counted in /metrics', async () => {
    const diner = await dinerWithPhone('+919876500004');
    const id = (await queueOffer(one, diner.id, 'offer:test-2'))!;
    fake.script('whatsapp', { status: 429, json: whatsAppError(80007, 'Rate limit issues'), retryAfter: '120' });
    expect(await one.app.services.notifications.deliverDue([id])).toBe(0);
    expect(await message(id)).toMatchObject({ channel: 'whatsapp', delivery_status: 'queued', attempts: 1 });
    one.clock.advance(119_000);
    await one.app.services.notifications.deliverDue();
    expect(fake.requests).toHaveLength(1);
    one.clock.advance(2_000);
    fake.script('whatsapp', { status: 503, json: whatsAppError(2, 'Service temporarily unavailable') });
    await one.app.services.notifications.deliverDue();
    expect(fake.requests).toHaveLength(2);
    expect(await message(id)).toMatchObject({ delivery_status: 'queued', attempts: 2 });
    // The second wait is 60 s (30 s doubled).
    one.clock.advance(59_000);
    await one.app.services.notifications.deliverDue();
    expect(fake.requests).toHaveLength(2);
    one.clock.advance(2_000);
    fake.script('whatsapp', { status: 400, json: whatsAppError(131026, 'Message undeliverable') });
    fake.script('exotel', { status: 400, json: exotelError(400, 'Invalid To number') });
    await one.app.services.notifications.deliverDue();
    // WhatsApp refused for good, SMS refused for good: the email is the last channel, and it went.
    expect(fake.requests.map((request) => request.provider)).toEqual(['whatsapp', 'whatsapp', 'whatsapp', 'exotel']);
    expect(await message(id)).toMatchObject({ channel: 'email', delivery_status: 'sent' });

    const metrics = await one.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/tablefair_messages_total\{channel="whatsapp",kind="offer",outcome="retried"\} 2/);
    expect(metrics.body).toMatch(/tablefair_messages_total\{channel="whatsapp",kind="offer",outcome="next_channel"\} \d/);
    expect(metrics.body).toMatch(/tablefair_messages_total\{channel="email",kind="offer",outcome="sent"\} \d/);
  });

  it('a message with no channel left ends as failed', async () => {
    const id = await one.database.db.transaction((tx) =>
      one.app.services.notifications.queueSms(tx, { userId: null, to: '+919876500005', body: '111111 is your code', kind: 'code', values: ['111111'] }),
    );
    fake.script('exotel', { status: 400, json: exotelError(400, 'Invalid To number') });
    fake.script('whatsapp', { status: 400, json: whatsAppError(131026, 'Message undeliverable') });
    await one.app.services.notifications.deliverDue([id]);
    expect(fake.requests.map((request) => request.provider)).toEqual(['exotel', 'whatsapp']);
    expect(await message(id)).toMatchObject({ channel: 'whatsapp', delivery_status: 'failed' });
  });
});
