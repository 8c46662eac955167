/**
 * `npm run bench:payments`: a storm of signed webhooks (BENCH_WEBHOOKS, default 10,000; a fifth of
 * them duplicates, shuffled) sent over HTTP to the app's webhook route, beside the same statements
 * run raw through the driver at the same concurrency (decisions 070, 071, 117). After the storm the
 * ledger must balance to zero and no intent may be authorised twice.
 *
 *   npm run bench:payments                                        (embedded PGlite, in memory)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_bench npm run bench:payments
 *
 * Knobs: BENCH_WEBHOOKS, BENCH_CONCURRENCY (50). Exit code 1 when a correctness check fails.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { inPoolTransaction, openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { signBody } from '#server/modules/payments/payment-provider.ts';
import { SANDBOX_EVENT_ID_HEADER, SANDBOX_SIGNATURE_HEADER } from '#server/modules/payments/sandbox-gateway.ts';
import { APP_POOL_SIZE, benchTarget, fmt, machineNote, percentile, querySql, table } from './lib.ts';

const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const DUPLICATE_SHARE = 0.2;
const AMOUNT = 50_000;
const SECRET = 'bench-only-payments-webhook-secret-0123';

const target = benchTarget();
let correctnessFailed = false;
const check = (pass: boolean) => {
  if (!pass) correctnessFailed = true;
  return pass ? 'PASS' : 'FAIL';
};

interface Webhook {
  eventId: string;
  orderRef: string;
  rawBody: string;
}

/** `count` intents waiting for approval, inserted set-based, and the webhooks that authorise them. */
async function prepare(handle: DatabaseHandle, label: string, restaurantId: string, accountId: string): Promise<Webhook[]> {
  const unique = Math.round(WEBHOOKS * (1 - DUPLICATE_SHARE));
  const run = randomUUID().slice(0, 8);
  await querySql(
    handle,
    `INSERT INTO payment_intents (account_id, restaurant_id, purpose, reservation_id, amount_paise, provider, provider_ref, status, idempotency_key, created_at, updated_at)
     SELECT $1, $2, 'reservation_deposit', gen_random_uuid(), $3, 'sandbox', 'sbx_order_' || $4 || '_' || i, 'CREATED', $4 || ':' || i, now(), now()
       FROM generate_series(1, $5::int) AS i`,
    [accountId, restaurantId, AMOUNT, `${label}${run}`, unique],
  );
  const events: Webhook[] = Array.from({ length: unique }, (_, i) => {
    const orderRef = `sbx_order_${label}${run}_${i + 1}`;
    const rawBody = JSON.stringify({
      entity: 'event',
      event: 'payment.authorized',
      contains: ['payment'],
      payload: {
        payment: {
          entity: { id: orderRef.replace('order', 'pay'), order_id: orderRef, amount: AMOUNT, currency: 'INR', status: 'authorized', captured: false },
        },
      },
      created_at: 1_700_000_000,
    });
    return { eventId: `evt_${label}${run}_${i + 1}`, orderRef, rawBody };
  });
  // A fifth of the deliveries repeat an event already in the list; then everything is shuffled.
  const storm = [...events];
  for (let i = 0; storm.length < WEBHOOKS; i++) storm.push(events[(i * 7919) % events.length]);
  for (let i = storm.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [storm[i], storm[j]] = [storm[j], storm[i]];
  }
  return storm;
}

/** Runs `work` over every item with `CONCURRENCY` at a time; per-item latencies in ms. */
async function storm<T>(items: T[], work: (item: T) => Promise<void>): Promise<{ seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const t0 = performance.now();
        await work(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies };
}

/**
 * The webhook transaction's statements as receiveWebhook runs them for an authorisation: take
 * the event once, lock the intent by its order, move it, post the two balanced lines, mark the event.
 */
const RAW = {
  inbox: `INSERT INTO payment_events (provider, event_id, event_type, outcome, received_at) VALUES ('sandbox', $1, 'payment.authorized', 'unmatched', now())
          ON CONFLICT (provider, event_id) DO NOTHING RETURNING id`,
  lock: `SELECT p.*, r.name AS restaurant_name FROM payment_intents p JOIN restaurants r ON r.id = p.restaurant_id
         WHERE p.provider = 'sandbox' AND p.provider_ref = $1 FOR UPDATE OF p`,
  move: `UPDATE payment_intents SET status = 'AUTHORISED', authorised_paise = $2, provider_payment_ref = $3, updated_at = now() WHERE id = $1`,
  posting: `INSERT INTO ledger_postings (intent_id, kind, source, created_at) VALUES ($1, 'authorise', $2, now()) ON CONFLICT (intent_id, kind) DO NOTHING RETURNING id`,
  lines: `INSERT INTO ledger_lines (posting_id, account, amount_paise) SELECT $1, account, amount
          FROM unnest('{diner_authorised,diner_funds}'::text[], ARRAY[$2::int, -$2::int]) AS l(account, amount)`,
  outcome: `UPDATE payment_events SET intent_id = $2, outcome = $3 WHERE id = $1`,
};

type Query = (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

async function rawWebhook(query: Query, webhook: Webhook): Promise<void> {
  const [inbox] = (await query(RAW.inbox, [webhook.eventId])).rows;
  if (!inbox) return;
  const [intent] = (await query(RAW.lock, [webhook.orderRef])).rows;
  if (!intent || intent.status !== 'CREATED') {
    await query(RAW.outcome, [inbox.id, intent?.id ?? null, intent ? 'ignored' : 'unmatched']);
    return;
  }
  await query(RAW.move, [intent.id, AMOUNT, webhook.orderRef.replace('order', 'pay')]);
  const [posting] = (await query(RAW.posting, [intent.id, webhook.eventId])).rows;
  await query(RAW.lines, [posting.id, AMOUNT]);
  await query(RAW.outcome, [inbox.id, intent.id, 'applied']);
}

async function rawStorm(handle: DatabaseHandle, webhooks: Webhook[]) {
  if (handle.pglite) {
    const pglite = handle.pglite;
    return storm(webhooks, (webhook) => pglite.transaction((tx) => rawWebhook((text, params) => tx.query(text, params), webhook)));
  }
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: APP_POOL_SIZE });
  try {
    return await storm(webhooks, (webhook) => inPoolTransaction(pool, (client) => rawWebhook((text, params) => client.query(text, params), webhook)));
  } finally {
    await pool.end();
  }
}

/** Ledger checks over a batch of intents (by order prefix). */
async function ledgerCheck(handle: DatabaseHandle, prefix: string) {
  const [row] = await querySql<{ intents: number; authorised: number; authorise_postings: number; twice: number; total: string; unbalanced: number }>(
    handle,
    `SELECT (SELECT count(*)::int FROM payment_intents WHERE provider_ref LIKE $1 || '%') AS intents,
            (SELECT count(*)::int FROM payment_intents WHERE provider_ref LIKE $1 || '%' AND status = 'AUTHORISED') AS authorised,
            (SELECT count(*)::int FROM ledger_postings g JOIN payment_intents p ON p.id = g.intent_id WHERE p.provider_ref LIKE $1 || '%' AND g.kind = 'authorise') AS authorise_postings,
            (SELECT count(*)::int FROM (SELECT g.intent_id FROM ledger_postings g JOIN payment_intents p ON p.id = g.intent_id
               WHERE p.provider_ref LIKE $1 || '%' GROUP BY g.intent_id, g.kind HAVING count(*) > 1) x) AS twice,
            (SELECT coalesce(sum(amount_paise), 0)::text FROM ledger_lines) AS total,
            (SELECT count(*)::int FROM (SELECT posting_id FROM ledger_lines GROUP BY posting_id HAVING sum(amount_paise) <> 0) u) AS unbalanced`,
    [prefix],
  );
  return row;
}

console.log('Tablefair payments benchmark: a webhook storm');
console.log(`  machine:  ${machineNote()} — shared with other work, so compare ratios, not absolute figures`);
console.log(`  database: ${target.kind === 'postgres' ? target.label : 'embedded PGlite in memory (one connection, inside this process)'}`);
console.log(
  `  load:     ${WEBHOOKS} webhooks, ${fmt.pct(DUPLICATE_SHARE)} duplicates, shuffled; ${CONCURRENCY} at a time, over HTTP on loopback to the app in this process`,
);

const handle = target.kind === 'postgres' ? await openPostgres({ url: target.databaseUrl!, poolSize: APP_POOL_SIZE }) : await openPglite();
await handle.migrate();
const [restaurant] = await querySql<{ id: string }>(
  handle,
  `INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category) VALUES ('bench-pay-' || gen_random_uuid(), 'Bench Payments', '🍛', 'Indiranagar', false, '{}', 'indian') RETURNING id`,
);
const accountId = randomUUID();

const rawWebhooks = await prepare(handle, 'raw', restaurant.id, accountId);
const appWebhooks = await prepare(handle, 'app', restaurant.id, accountId);

const raw = await rawStorm(handle, rawWebhooks);

const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  PAYMENTS_WEBHOOK_SECRET: SECRET,
  SEED_DEMO: '0',
  DATABASE_POOL_SIZE: String(APP_POOL_SIZE),
});
const app = await buildApp({ config, database: handle, runBackgroundJobs: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const outcomes = new Map<string, number>();
const viaApp = await storm(appWebhooks, async (webhook) => {
  const response = await fetch(`${base}/api/payments/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signBody(webhook.rawBody, SECRET), [SANDBOX_EVENT_ID_HEADER]: webhook.eventId },
    body: webhook.rawBody,
  });
  const outcome = response.ok ? ((await response.json()) as { outcome: string }).outcome : `HTTP ${response.status}`;
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
});
await app.close();

const rawLedger = await ledgerCheck(handle, 'sbx_order_raw');
const appLedger = await ledgerCheck(handle, 'sbx_order_app');
await handle.close();

const row = (name: string, result: { seconds: number; latencies: number[] }) => [
  name,
  fmt.rps(WEBHOOKS / result.seconds),
  fmt.ms(percentile(result.latencies, 50)),
  fmt.ms(percentile(result.latencies, 99)),
  `${result.seconds.toFixed(2)} s`,
];
console.log('');
console.log(table(['webhook storm', 'webhooks/s', 'p50', 'p99', 'total'], [row('app (HTTP, verify, state machine)', viaApp), row('same statements raw', raw)]));
console.log(`  ratio app/raw: ${(WEBHOOKS / viaApp.seconds / (WEBHOOKS / raw.seconds)).toFixed(2)}`);
const unique = Math.round(WEBHOOKS * (1 - DUPLICATE_SHARE));
console.log('');
console.log(
  table(
    ['check', 'app', 'raw', 'verdict'],
    [
      [
        'intents authorised (each once)',
        `${appLedger.authorised}/${appLedger.intents}`,
        `${rawLedger.authorised}/${rawLedger.intents}`,
        check(appLedger.authorised === unique && rawLedger.authorised === unique),
      ],
      ['authorise postings', String(appLedger.authorise_postings), String(rawLedger.authorise_postings), check(appLedger.authorise_postings === unique)],
      ['intents posted twice', String(appLedger.twice), String(rawLedger.twice), check(appLedger.twice === 0 && rawLedger.twice === 0)],
      ['duplicates answered "duplicate"', String(outcomes.get('duplicate') ?? 0), '', check((outcomes.get('duplicate') ?? 0) === WEBHOOKS - unique)],
      [
        'other answers',
        [...outcomes]
          .filter(([k]) => k !== 'applied' && k !== 'duplicate')
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ') || 'none',
        '',
        check([...outcomes.keys()].every((k) => k === 'applied' || k === 'duplicate')),
      ],
      [
        'ledger sum (paise), unbalanced postings',
        `${appLedger.total}, ${appLedger.unbalanced}`,
        '',
        check(appLedger.total === '0' && appLedger.unbalanced === 0),
      ],
    ],
  ),
);
console.log(`  machine:  ${machineNote('at end')}`);
if (correctnessFailed) process.exitCode = 1;
