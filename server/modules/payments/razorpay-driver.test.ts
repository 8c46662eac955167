import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderRefused, ProviderTimeout, signBody } from './payment-provider.ts';
import { payoutIdempotencyHeader, RazorpayDriver } from './razorpay-driver.ts';

/**
 * The Razorpay driver against a local HTTP server that checks each request against Razorpay's
 * documented shape (method, path, Basic auth, body fields) and answers documented JSON.
 */
interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  /** RazorpayX's X-Payout-Idempotency (absent on other calls; toEqual skips it then). */
  payoutIdempotency?: string;
  body: Record<string, unknown>;
}

const KEY_ID = 'rzp_test_1DP5mmOlF5G5ag';
const KEY_SECRET = 'thisisasecretkey';
const WEBHOOK_SECRET = 'rzp_webhook_secret_example';

let server: Server;
let base: string;
let seen: Seen[] = [];
let answer: (request: Seen) => { status: number; json?: unknown; delayMs?: number } = () => ({ status: 200, json: {} });

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const text = await readBody(request);
    const entry: Seen = {
      method: request.method ?? '',
      path: request.url ?? '',
      authorization: request.headers.authorization,
      payoutIdempotency: request.headers['x-payout-idempotency'] as string | undefined,
      body: text ? JSON.parse(text) : {},
    };
    seen.push(entry);
    const reply = answer(entry);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply.json ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
});

const driver = (options: Partial<ConstructorParameters<typeof RazorpayDriver>[0]> = {}) =>
  new RazorpayDriver({ keyId: KEY_ID, keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET, apiBase: base, timeoutMs: 500, ...options });
const basicAuth = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
const money = {
  providerRef: 'order_EKwxwAgItmmXdp',
  paymentRef: 'pay_29QQoUBi66xm2f',
  amountPaise: 50_000,
  authorisedPaise: 50_000,
  idempotencyKey: 'cap:intent-1',
};

describe('the Razorpay driver', () => {
  it('creates an order in paise, INR, with a receipt and manual capture, and returns its id', async () => {
    answer = () => ({
      status: 200,
      json: {
        id: 'order_EKwxwAgItmmXdp',
        entity: 'order',
        amount: 50000,
        amount_paid: 0,
        amount_due: 50000,
        currency: 'INR',
        receipt: 'hold:abc',
        status: 'created',
        attempts: 0,
        notes: [],
        created_at: 1582628071,
      },
    });
    const created = await driver().createAuthorisation({
      intentId: 'intent-1',
      amountPaise: 50_000,
      purpose: 'reservation_deposit',
      idempotencyKey: 'hold:abc',
    });
    expect(created).toEqual({ providerRef: 'order_EKwxwAgItmmXdp', approvalUrl: null });
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/v1/orders',
        authorization: basicAuth,
        body: {
          amount: 50_000,
          currency: 'INR',
          receipt: 'hold:abc',
          payment_capture: false,
          notes: { tablefair_intent: 'intent-1', purpose: 'reservation_deposit' },
        },
      },
    ]);
  });

  it('asks for a UPI one-time mandate when configured: method upi and a token with the block’s limit and expiry', async () => {
    answer = () => ({ status: 200, json: { id: 'order_upi_1', entity: 'order', amount: 50000, currency: 'INR', status: 'created' } });
    const approveBy = new Date('2026-11-23T05:00:00.000Z');
    await driver({ upiOneTimeMandate: { customerId: 'cust_4xbQrmEoA5WJ0G', validForSeconds: 86_400 } }).createAuthorisation({
      intentId: 'intent-1',
      amountPaise: 50_000,
      purpose: 'reservation_deposit',
      idempotencyKey: 'hold:upi',
      approveBy,
    });
    expect(seen[0].body).toMatchObject({
      method: 'upi',
      customer_id: 'cust_4xbQrmEoA5WJ0G',
      amount: 50_000,
      token: { max_amount: 50_000, expire_at: approveBy.getTime() / 1000 + 86_400, frequency: 'as_presented' },
    });
  });

  it('captures the authorised amount with its currency', async () => {
    answer = () => ({ status: 200, json: { id: 'pay_29QQoUBi66xm2f', entity: 'payment', amount: 50000, currency: 'INR', status: 'captured', captured: true } });
    await driver().capture(money);
    expect(seen).toEqual([
      { method: 'POST', path: '/v1/payments/pay_29QQoUBi66xm2f/capture', authorization: basicAuth, body: { amount: 50_000, currency: 'INR' } },
    ]);
  });

  it('keeps a smaller fee by capturing in full and refunding the rest, marked as the capture’s remainder', async () => {
    answer = (request) => ({
      status: 200,
      json: request.path.endsWith('/refund') ? { id: 'rfnd_FP8QHiV938haTz', entity: 'refund', amount: 30000 } : { id: 'pay_29QQoUBi66xm2f' },
    });
    await driver().capture({ ...money, amountPaise: 20_000 });
    expect(seen.map((request) => [request.path, request.body])).toEqual([
      ['/v1/payments/pay_29QQoUBi66xm2f/capture', { amount: 50_000, currency: 'INR' }],
      ['/v1/payments/pay_29QQoUBi66xm2f/refund', { amount: 30_000, speed: 'normal', receipt: 'cap:intent-1:rest', notes: { tablefair: 'capture_remainder' } }],
    ]);
  });

  it('takes "already captured" on a retried capture as done', async () => {
    answer = () => ({
      status: 400,
      json: {
        error: { code: 'BAD_REQUEST_ERROR', description: 'This payment has already been captured', source: 'business', reason: 'input_validation_failed' },
      },
    });
    await expect(driver().capture(money)).resolves.toBeUndefined();
  });

  it('refunds with amount, speed and receipt', async () => {
    answer = () => ({
      status: 200,
      json: { id: 'rfnd_FP8QHiV938haTz', entity: 'refund', amount: 10000, currency: 'INR', payment_id: 'pay_29QQoUBi66xm2f', status: 'processed' },
    });
    await driver().refund({ ...money, amountPaise: 10_000, idempotencyKey: 'ref:intent-1' });
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/v1/payments/pay_29QQoUBi66xm2f/refund',
        authorization: basicAuth,
        body: { amount: 10_000, speed: 'normal', receipt: 'ref:intent-1' },
      },
    ]);
  });

  it('sends nothing to release: Razorpay refunds an uncaptured authorisation itself', async () => {
    await driver().release();
    expect(seen).toEqual([]);
  });

  it('turns a documented error into a refusal without the keys, and silence into a timeout', async () => {
    answer = () => ({ status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be an integer.', field: 'amount' } } });
    const refusal = await driver()
      .refund(money)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProviderRefused);
    expect((refusal as Error).message).toBe('The amount must be an integer.');
    expect(String((refusal as Error).message)).not.toContain(KEY_SECRET);

    answer = () => ({ status: 200, delayMs: 1_000 });
    await expect(driver({ timeoutMs: 100 }).capture(money)).rejects.toBeInstanceOf(ProviderTimeout);
    answer = () => ({ status: 502 });
    await expect(driver().capture(money)).rejects.toBeInstanceOf(ProviderTimeout);
  });
});

describe('RazorpayX payouts', () => {
  const ACCOUNT_NUMBER = '7878780080316316';
  const payout = {
    payoutId: '3f1c2a8e-5b7d-4c1e-9a2f-6d8e0b4c7a91',
    amountPaise: 30_000,
    toAccountId: '8a6e0f3c-2d4b-4e5f-8c7d-1b2a3c4d5e6f',
    idempotencyKey: 'payout:0b6f1c3e-7a2d-4e8f-9c1b-5d3a7e9f2c4b',
    fundAccountRef: 'fa_00000000000001',
  };

  it('sends POST /v1/payouts in the documented shape, with X-Payout-Idempotency, and returns the payout id', async () => {
    answer = () => ({
      status: 200,
      json: {
        id: 'pout_00000000000001',
        entity: 'payout',
        fund_account_id: 'fa_00000000000001',
        amount: 30000,
        currency: 'INR',
        fees: 0,
        tax: 0,
        status: 'queued',
        utr: null,
        mode: 'UPI',
        purpose: 'payout',
        reference_id: payout.payoutId,
        narration: 'Tablefair date deposit',
        batch_id: null,
        status_details: null,
        created_at: 1545383037,
      },
    });
    const sent = await driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout(payout);
    expect(sent).toEqual({ providerRef: 'pout_00000000000001' });
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/v1/payouts',
        authorization: basicAuth,
        payoutIdempotency: payoutIdempotencyHeader(payout.idempotencyKey),
        body: {
          account_number: ACCOUNT_NUMBER,
          fund_account_id: 'fa_00000000000001',
          amount: 30_000,
          currency: 'INR',
          mode: 'UPI',
          purpose: 'payout',
          queue_if_low_balance: true,
          reference_id: payout.payoutId,
          narration: 'Tablefair date deposit',
          notes: { tablefair_payout: payout.payoutId, to_account: payout.toAccountId },
        },
      },
    ]);
    // RazorpayX takes 4–36 letters, digits, hyphens, underscores or spaces, and ≤ 30 for the narration.
    expect(seen[0].payoutIdempotency).toMatch(/^[A-Za-z0-9_\- ]{4,36}$/);
    expect(String(seen[0].body.narration)).toMatch(/^[A-Za-z0-9 ]{1,30}$/);
  });

  it('sends the same idempotency header for every attempt of one payout, and another for another payout', async () => {
    answer = () => ({ status: 200, json: { id: 'pout_00000000000002', entity: 'payout', status: 'processing' } });
    await driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout(payout);
    await driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout(payout);
    await driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout({ ...payout, idempotencyKey: 'payout:another' });
    expect(seen[0].payoutIdempotency).toBe(seen[1].payoutIdempotency);
    expect(seen[2].payoutIdempotency).not.toBe(seen[0].payoutIdempotency);
    // A key RazorpayX accepts as it is goes as it is.
    expect(payoutIdempotencyHeader('53cda91c-8f81-4e77-bbb9-7388f4ac6bf4')).toBe('53cda91c-8f81-4e77-bbb9-7388f4ac6bf4');
  });

  it('refuses without the member’s fund account or our account number, sending nothing', async () => {
    await expect(driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout({ ...payout, fundAccountRef: null })).rejects.toThrow(
      new ProviderRefused('The member has no payout account yet'),
    );
    await expect(driver().payout(payout)).rejects.toBeInstanceOf(ProviderRefused);
    expect(seen).toEqual([]);
  });

  it('turns a documented error into a refusal, and silence or a 5xx into a timeout', async () => {
    answer = () => ({
      status: 400,
      json: { error: { code: 'BAD_REQUEST_ERROR', description: 'Idempotency key is missing. Include idempotency header and key in the request.' } },
    });
    await expect(driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout(payout)).rejects.toThrow(
      new ProviderRefused('Idempotency key is missing. Include idempotency header and key in the request.'),
    );
    answer = () => ({ status: 200, delayMs: 1_000 });
    await expect(driver({ payoutAccountNumber: ACCOUNT_NUMBER, timeoutMs: 100 }).payout(payout)).rejects.toBeInstanceOf(ProviderTimeout);
    answer = () => ({ status: 503 });
    await expect(driver({ payoutAccountNumber: ACCOUNT_NUMBER }).payout(payout)).rejects.toBeInstanceOf(ProviderTimeout);
  });
});

describe('Razorpay webhooks', () => {
  // The documented payment.authorized sample, trimmed; its signature computed independently with
  // `openssl dgst -sha256 -hmac rzp_webhook_secret_example`.
  const body =
    '{"entity":"event","event":"payment.authorized","payload":{"payment":{"entity":{"id":"pay_6X6jcHoHdRdy79","amount":50000,"currency":"INR","status":"authorized","order_id":"order_6X4mcHoSXRdy79","captured":false}}},"created_at":1400826760}';
  const signature = '0596b9fefb02f57fa9cb292e6c2c4ba5761766da8d7bad51aca29c4798c25e32';

  it('verifies X-Razorpay-Signature and reads the event with its X-Razorpay-Event-Id', () => {
    expect(driver().readWebhook(body, { 'x-razorpay-signature': signature, 'x-razorpay-event-id': 'JBZYPGcx4ZuZb6' })).toEqual({
      verified: true,
      eventId: 'JBZYPGcx4ZuZb6',
      eventType: 'payment.authorized',
      event: {
        eventId: 'JBZYPGcx4ZuZb6',
        eventType: 'payment.authorized',
        type: 'authorised',
        providerRef: 'order_6X4mcHoSXRdy79',
        paymentRef: 'pay_6X6jcHoHdRdy79',
        amountPaise: 50_000,
      },
    });
  });

  it('names an event sent without X-Razorpay-Event-Id by its body’s digest, so a redelivery of the same bytes is known; a bad signature is refused first', () => {
    const first = driver().readWebhook(body, { 'x-razorpay-signature': signature });
    const again = driver().readWebhook(body, { 'x-razorpay-signature': [signature] });
    expect(first).toMatchObject({ verified: true, eventType: 'payment.authorized', eventId: `body:${signBody(body, 'event-id')}` });
    expect(again).toEqual(first);
    const other = `${body} `;
    expect(driver().readWebhook(other, { 'x-razorpay-signature': signBody(other, WEBHOOK_SECRET) })).toMatchObject({
      verified: true,
      eventId: `body:${signBody(other, 'event-id')}`,
    });
    expect(driver().readWebhook(body, { 'x-razorpay-signature': signBody(other, WEBHOOK_SECRET) })).toEqual({ verified: false });
  });

  it('reads RazorpayX’s payout.processed, payout.failed and payout.reversed as payout events naming our payout', () => {
    const payoutBody = (event: string, status: string) =>
      JSON.stringify({
        entity: 'event',
        account_id: 'acc_BfVUrG6tDiL7H0',
        event,
        contains: ['payout'],
        payload: {
          payout: {
            entity: {
              id: 'pout_1Aa00000000001',
              entity: 'payout',
              fund_account_id: 'fa_00000000000001',
              amount: 30000,
              currency: 'INR',
              fees: 590,
              tax: 90,
              status,
              purpose: 'payout',
              utr: null,
              mode: 'UPI',
              reference_id: '3f1c2a8e-5b7d-4c1e-9a2f-6d8e0b4c7a91',
              narration: 'Tablefair date deposit',
              batch_id: null,
              status_details: null,
              created_at: 1545382870,
            },
          },
        },
        created_at: 1545382870,
      });
    const read = (event: string, status: string) => {
      const raw = payoutBody(event, status);
      return driver().readWebhook(raw, { 'x-razorpay-signature': signBody(raw, WEBHOOK_SECRET), 'x-razorpay-event-id': `evt_${status}` });
    };
    expect(read('payout.processed', 'processed')).toEqual({
      verified: true,
      eventId: 'evt_processed',
      eventType: 'payout.processed',
      event: null,
      payout: {
        eventId: 'evt_processed',
        eventType: 'payout.processed',
        type: 'processed',
        payoutRef: 'pout_1Aa00000000001',
        payoutId: '3f1c2a8e-5b7d-4c1e-9a2f-6d8e0b4c7a91',
        amountPaise: 30_000,
      },
    });
    expect(read('payout.failed', 'failed')).toMatchObject({ payout: { type: 'failed' } });
    expect(read('payout.reversed', 'reversed')).toMatchObject({ payout: { type: 'reversed' } });
    // Events we do not act on are verified and change nothing.
    const queued = read('payout.queued', 'queued');
    expect(queued).toMatchObject({ verified: true, event: null });
    expect(queued).not.toHaveProperty('payout');
  });

  it('refuses a wrong, missing or other-secret signature, and a changed body', () => {
    const d = driver();
    expect(d.readWebhook(body, { 'x-razorpay-signature': '0'.repeat(64) })).toEqual({ verified: false });
    expect(d.readWebhook(body, {})).toEqual({ verified: false });
    expect(driver({ webhookSecret: 'another-secret' }).readWebhook(body, { 'x-razorpay-signature': signature })).toEqual({ verified: false });
    expect(d.readWebhook(body.replace('50000', '5000'), { 'x-razorpay-signature': signature })).toEqual({ verified: false });
  });
});
