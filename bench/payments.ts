/**
 * `npm run bench:payments`: a storm of signed webhooks (BENCH_WEBHOOKS, default 10,000; a fifth of
 * them duplicates, shuffled) sent over HTTP to the app's webhook route, beside the same statements
 * run raw through the driver at the same concurrency (decisions 070, 071, 117). Then a drop whose
 * 40 winners all pay at once (decision 134): each winner's hold is confirmed, the deposit approved
 * on the sandbox and its webhook moves the hold to PENDING, beside the same statements raw. After
 * both the ledger must balance to zero, no intent may be authorised twice and nobody charged twice.
 *
 *   npm run bench:payments                                        (embedded PGlite, in memory)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_bench npm run bench:payments
 *
 * Knobs: BENCH_WEBHOOKS, BENCH_CONCURRENCY (50). Exit code 1 when a correctness check fails.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { inPoolTransaction, openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { signBody } from '#server/modules/payments/payment-provider.ts';
import { SANDBOX_EVENT_ID_HEADER, SANDBOX_SIGNATURE_HEADER } from '#server/modules/payments/sandbox-gateway.ts';
import { APP_POOL_SIZE, benchTarget, fmt, insertDinerSessions, insertSlots, machineNote, percentile, querySql, table } from './lib.ts';

const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const DUPLICATE_SHARE = 0.2;
const AMOUNT = 50_000;
const DROP_TIMES = ['19:00', '19:30', '20:00', '20:30'];
const DROP_SLOT_COVERS = 10;
const DROP_DEPOSIT = 50_000;
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

async function rawWebhook(query: Query, webhook: Webhook, amount = AMOUNT): Promise<void> {
  const [inbox] = (await query(RAW.inbox, [webhook.eventId])).rows;
  if (!inbox) return;
  const [intent] = (await query(RAW.lock, [webhook.orderRef])).rows;
  if (!intent || intent.status !== 'CREATED') {
    await query(RAW.outcome, [inbox.id, intent?.id ?? null, intent ? 'ignored' : 'unmatched']);
    return;
  }
  await query(RAW.move, [intent.id, amount, webhook.orderRef.replace('order', 'pay')]);
  const [posting] = (await query(RAW.posting, [intent.id, webhook.eventId])).rows;
  await query(RAW.lines, [posting.id, amount]);
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

console.log('Tablefair payments benchmark: a webhook storm, then a drop whose winners all pay');
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
  // The storm is the sandbox's signed webhooks, on purpose (decision 201).
  PAYMENTS_SANDBOX_DEMO: '1',
  TEXTS_LOG_DEMO: '1',
  LOG_LEVEL: 'silent',
  PAYMENTS_WEBHOOK_SECRET: SECRET,
  SEED_DEMO: '0',
  DATABASE_POOL_SIZE: String(APP_POOL_SIZE),
  // The drop's 40 winners book from one address within the hour: no limit may refuse them.
  RATE_LIMIT_BOOKING_PER_DINER: '100000',
  MAX_HOLDS_PER_RESTAURANT_PER_HOUR: '100000',
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

const rawLedger = await ledgerCheck(handle, 'sbx_order_raw');
const appLedger = await ledgerCheck(handle, 'sbx_order_app');

/** A table row for `count` operations done in `result.seconds`: their rate, p50, p99 and total time. */
const timedRow = (name: string, count: number, result: { seconds: number; latencies: number[] }) => [
  name,
  fmt.rps(count / result.seconds),
  fmt.ms(percentile(result.latencies, 50)),
  fmt.ms(percentile(result.latencies, 99)),
  `${result.seconds.toFixed(2)} s`,
];
const row = (name: string, result: { seconds: number; latencies: number[] }) => timedRow(name, WEBHOOKS, result);
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

// ---- A drop whose 40 winners all pay (decision 134) ----

const WINNERS = DROP_TIMES.length * DROP_SLOT_COVERS;

/** A restaurant asking `DROP_DEPOSIT` a guest, four slots of 10 covers tomorrow, and `count` winners with a session each (set-based). */
async function prepareDropRestaurant(
  label: string,
): Promise<{ restaurantId: string; slug: string; date: string; winners: { userId: string; token: string }[] }> {
  const slug = `bench-pay-drop-${label}-${randomUUID().slice(0, 8)}`;
  const [row] = await querySql<{ id: string }>(
    handle,
    `INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category) VALUES ($1, 'Bench Drop', '🍛', 'Indiranagar', true, '{}', 'indian') RETURNING id`,
    [slug],
  );
  await querySql(
    handle,
    `INSERT INTO deposit_policies (restaurant_id, default_kind, default_per_cover_paise, free_cancel_minutes, late_cancel_keep_percent, no_show_keep_percent, updated_at)
     VALUES ($1, 'deposit', $2, 120, 100, 100, now())`,
    [row.id, DROP_DEPOSIT],
  );
  const date = addDays(todayInKolkata(), 1);
  await insertSlots(handle, row.id, date, DROP_TIMES, DROP_SLOT_COVERS);
  const users = await querySql<{ id: string }>(
    handle,
    `INSERT INTO users (username, password_hash, name) SELECT 'bpd_' || $1 || '_' || i, 'not-a-hash', 'Drop winner ' || i FROM generate_series(1, $2::int) AS i RETURNING id`,
    [randomBytes(4).toString('hex'), WINNERS],
  );
  const winners = users.map((user) => ({ userId: user.id, token: randomBytes(32).toString('base64url') }));
  await insertDinerSessions(handle, winners);

  return { restaurantId: row.id, slug, date, winners };
}

/** Runs every item at once (the 40 winners pay together); per-item latencies in ms. */
async function allAtOnce<T>(items: T[], work: (item: T) => Promise<void>): Promise<{ seconds: number; latencies: number[] }> {
  const started = performance.now();
  const latencies = await Promise.all(
    items.map(async (item) => {
      const t0 = performance.now();
      await work(item);
      return performance.now() - t0;
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies };
}

// The app: each winner holds a table (before the clock), then all at once: Confirm answers the
// payment, the sandbox approves, its signed webhook authorises, and the listener makes the hold PENDING.
const appDrop = await prepareDropRestaurant('app');
const appHolds: { id: string; token: string }[] = [];
for (const [i, winner] of appDrop.winners.entries()) {
  const held = await fetch(`${base}/api/reservations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${winner.token}` },
    body: JSON.stringify({ restaurantSlug: appDrop.slug, date: appDrop.date, time: DROP_TIMES[i % DROP_TIMES.length], partySize: 1 }),
  });
  if (held.status !== 201) throw new Error(`A winner's hold was refused: ${held.status} ${await held.text()}`);
  appHolds.push({ id: ((await held.json()) as { id: string }).id, token: winner.token });
}
const booked = new Map<string, () => void>();
const stopListening = app.services.payments.onStatusChange((change) => {
  // Listeners run in order, after the reservations module's: by now the hold is PENDING.
  if (change.to === 'AUTHORISED' && change.reservationId) booked.get(change.reservationId)?.();
});
const appDropRun = await allAtOnce(appHolds, async (hold) => {
  const bookedNow = new Promise<void>((resolve) => booked.set(hold.id, resolve));
  const confirmed = await fetch(`${base}/api/reservations/${hold.id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hold.token}` },
    body: '{}',
  });
  const payment = ((await confirmed.json()) as { payment: { intentId: string } | null }).payment;
  if (!payment) throw new Error(`Confirm asked no payment: ${confirmed.status}`);
  const decided = await fetch(`${base}/api/payments/sandbox/${payment.intentId}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ decision: 'approve' }),
  });
  if (!decided.ok) throw new Error(`The sandbox refused the approval: ${decided.status}`);
  await bookedNow;
});
stopListening();
await app.services.payments.sandbox?.settle();
await app.close();

/**
 * The same statements raw, one winner's three transactions as the app runs them: Confirm (lock
 * the hold, read the policy, the intent, the deposit row), the webhook (as the storm's), and the
 * listener (lock the hold, HELD → PENDING, its history, the deposit marked authorised).
 */
const RAW_DROP = {
  lockHold: `SELECT r.*, s.slot_time FROM reservations r JOIN slots s ON s.id = r.slot_id WHERE r.id = $1 FOR UPDATE OF r`,
  policy: `SELECT default_kind, default_per_cover_paise, free_cancel_minutes, late_cancel_keep_percent, no_show_keep_percent FROM deposit_policies WHERE restaurant_id = $1`,
  rules: `SELECT days, from_time, until_time, kind, per_cover_paise FROM deposit_policy_rules WHERE restaurant_id = $1 ORDER BY position`,
  intent: `INSERT INTO payment_intents (account_id, restaurant_id, purpose, reservation_id, amount_paise, provider, provider_ref, status, idempotency_key, created_at, updated_at)
           VALUES ($1, $2, 'reservation_deposit', $3, $4, 'sandbox', $5, 'CREATED', $6, now(), now()) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
  deposit: `INSERT INTO reservation_deposits (reservation_id, intent_id, kind, amount_paise, per_cover_paise, free_cancel_until, late_cancel_keep_paise, no_show_keep_paise, plain_words, created_at, updated_at)
            VALUES ($1, $2, 'deposit', $3, $3, $4, $3, $3, 'Deposit', now(), now()) ON CONFLICT (reservation_id) DO NOTHING`,
  pending: `UPDATE reservations SET status = 'PENDING', hold_expires_at = NULL, updated_at = now() WHERE id = $1`,
  history: `INSERT INTO reservation_events (reservation_id, from_status, to_status, actor_kind, created_at) VALUES ($1, 'HELD', 'PENDING', 'diner', now())`,
  authorised: `UPDATE reservation_deposits SET authorised_at = now(), updated_at = now() WHERE reservation_id = $1`,
};

async function rawWinner(transaction: (work: (query: Query) => Promise<void>) => Promise<void>, hold: { id: string; userId: string; restaurantId: string }) {
  const orderRef = `sbx_order_drop_${hold.id}`;
  await transaction(async (query) => {
    const [row] = (await query(RAW_DROP.lockHold, [hold.id])).rows;
    await query(RAW_DROP.policy, [hold.restaurantId]);
    await query(RAW_DROP.rules, [hold.restaurantId]);
    const [intent] = (await query(RAW_DROP.intent, [hold.userId, hold.restaurantId, hold.id, DROP_DEPOSIT, orderRef, `reservation-deposit:${hold.id}`])).rows;
    await query(RAW_DROP.deposit, [hold.id, intent.id, DROP_DEPOSIT, new Date(Date.parse(String(row.starts_at)) - 2 * 3_600_000).toISOString()]);
  });
  const rawBody = '';
  await transaction((query) => rawWebhook(query, { eventId: `evt_drop_${hold.id}`, orderRef, rawBody }, DROP_DEPOSIT));
  await transaction(async (query) => {
    const [row] = (await query(RAW_DROP.lockHold, [hold.id])).rows;
    if (row.status !== 'HELD') return;
    await query(RAW_DROP.pending, [hold.id]);
    await query(RAW_DROP.history, [hold.id]);
    await query(RAW_DROP.authorised, [hold.id]);
  });
}

const rawDrop = await prepareDropRestaurant('raw');
const rawHolds = await querySql<{ id: string; userId: string; restaurantId: string }>(
  handle,
  `INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, hold_expires_at, starts_at)
   SELECT w.id, s.restaurant_id, s.id, 1, 'HELD', now() + interval '10 minutes', s.starts_at
     FROM unnest($1::uuid[]) WITH ORDINALITY AS w(id, n)
     JOIN (SELECT id, restaurant_id, starts_at, row_number() OVER (ORDER BY slot_time) - 1 AS k FROM slots WHERE restaurant_id = $2) s ON s.k = (w.n - 1) % $3
   RETURNING id, user_id AS "userId", restaurant_id AS "restaurantId"`,
  [rawDrop.winners.map((winner) => winner.userId), rawDrop.restaurantId, DROP_TIMES.length],
);
let rawDropRun: { seconds: number; latencies: number[] };
if (handle.pglite) {
  const pglite = handle.pglite;
  rawDropRun = await allAtOnce(rawHolds, (hold) => rawWinner((work) => pglite.transaction((tx) => work((text, params) => tx.query(text, params))), hold));
} else {
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: APP_POOL_SIZE });
  try {
    rawDropRun = await allAtOnce(rawHolds, (hold) =>
      rawWinner((work) => inPoolTransaction(pool, (client) => work((text, params) => client.query(text, params))), hold),
    );
  } finally {
    await pool.end();
  }
}

/** Per drop restaurant: bookings made, deposits authorised, and anyone charged twice. */
async function dropCheck(restaurantId: string) {
  const [row] = await querySql<{
    pending: number;
    authorised: number;
    intents: number;
    reservations_charged_twice: number;
    posted_twice: number;
    held_paise: string;
  }>(
    handle,
    `SELECT (SELECT count(*)::int FROM reservations WHERE restaurant_id = $1 AND status = 'PENDING') AS pending,
            (SELECT count(*)::int FROM payment_intents WHERE restaurant_id = $1 AND status = 'AUTHORISED') AS authorised,
            (SELECT count(*)::int FROM payment_intents WHERE restaurant_id = $1) AS intents,
            (SELECT count(*)::int FROM (SELECT reservation_id FROM payment_intents WHERE restaurant_id = $1 AND authorised_paise > 0
               GROUP BY reservation_id HAVING count(*) > 1) x) AS reservations_charged_twice,
            (SELECT count(*)::int FROM (SELECT g.intent_id FROM ledger_postings g JOIN payment_intents p ON p.id = g.intent_id
               WHERE p.restaurant_id = $1 GROUP BY g.intent_id, g.kind HAVING count(*) > 1) y) AS posted_twice,
            (SELECT coalesce(sum(l.amount_paise), 0)::text FROM ledger_lines l JOIN ledger_postings g ON g.id = l.posting_id JOIN payment_intents p ON p.id = g.intent_id
               WHERE p.restaurant_id = $1 AND l.account = 'diner_authorised') AS held_paise`,
    [restaurantId],
  );
  return row;
}
const appDropCheck = await dropCheck(appDrop.restaurantId);
const rawDropCheck = await dropCheck(rawDrop.restaurantId);
const [whole] = await querySql<{ total: string; unbalanced: number; posted_twice: number }>(
  handle,
  `SELECT (SELECT coalesce(sum(amount_paise), 0)::text FROM ledger_lines) AS total,
          (SELECT count(*)::int FROM (SELECT posting_id FROM ledger_lines GROUP BY posting_id HAVING sum(amount_paise) <> 0) u) AS unbalanced,
          (SELECT count(*)::int FROM (SELECT intent_id FROM ledger_postings GROUP BY intent_id, kind HAVING count(*) > 1) t) AS posted_twice`,
);
await handle.close();

const dropRow = (name: string, result: { seconds: number; latencies: number[] }) => timedRow(name, WINNERS, result);
console.log('');
console.log(
  `A drop whose ${WINNERS} winners all pay at once (${DROP_TIMES.length} slots of ${DROP_SLOT_COVERS} covers, ${formatRupees(DROP_DEPOSIT)} deposit each)`,
);
console.log(
  table(
    ['winners paying', 'bookings/s', 'p50', 'p99', 'all booked in'],
    [dropRow('app (Confirm, sandbox, signed webhook, listener)', appDropRun), dropRow('same statements raw', rawDropRun)],
  ),
);
console.log(`  ratio app/raw: ${(rawDropRun.seconds / appDropRun.seconds).toFixed(2)}`);
console.log('');
console.log(
  table(
    ['after both', 'app', 'raw', 'verdict'],
    [
      [
        'winners booked (PENDING)',
        `${appDropCheck.pending}/${WINNERS}`,
        `${rawDropCheck.pending}/${WINNERS}`,
        check(appDropCheck.pending === WINNERS && rawDropCheck.pending === WINNERS),
      ],
      [
        'deposits authorised, intents',
        `${appDropCheck.authorised}, ${appDropCheck.intents}`,
        `${rawDropCheck.authorised}, ${rawDropCheck.intents}`,
        check(appDropCheck.authorised === WINNERS && appDropCheck.intents === WINNERS && rawDropCheck.authorised === WINNERS),
      ],
      [
        'blocked on diners (paise)',
        appDropCheck.held_paise,
        rawDropCheck.held_paise,
        check(appDropCheck.held_paise === String(WINNERS * DROP_DEPOSIT) && rawDropCheck.held_paise === String(WINNERS * DROP_DEPOSIT)),
      ],
      [
        'diners charged twice',
        String(appDropCheck.reservations_charged_twice + appDropCheck.posted_twice),
        String(rawDropCheck.reservations_charged_twice + rawDropCheck.posted_twice),
        check(appDropCheck.reservations_charged_twice + appDropCheck.posted_twice + rawDropCheck.reservations_charged_twice + rawDropCheck.posted_twice === 0),
      ],
      [
        'whole ledger: sum (paise), unbalanced postings, intents posted twice',
        `${whole.total}, ${whole.unbalanced}, ${whole.posted_twice}`,
        '',
        check(whole.total === '0' && whole.unbalanced === 0 && whole.posted_twice === 0),
      ],
    ],
  ),
);
console.log(`  machine:  ${machineNote('at end')}`);
if (correctnessFailed) process.exitCode = 1;
