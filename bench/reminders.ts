/**
 * `npm run bench:reminders`: BENCH_REMINDERS (default 10,000) confirmed reservations whose 2-hour
 * reminder falls due in the same minute, swept by two app instances at once (decision 150), beside
 * a baseline measured in the same run: the same number of plain outbox inserts through the
 * driver, 500 per transaction as the sweep batches them. Prints the lag (from the moment they fall
 * due to the last queued, and to the last sent by the outbox) and the rate, then checks that every
 * reminder was claimed once and emailed once.
 *
 *   npm run bench:reminders                                         (embedded PGlite, in memory)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_bench npm run bench:reminders
 *
 * Exit code 1 when a correctness check fails.
 */
import { buildApp } from '#server/app.ts';
import { ManualClock } from '#server/clock.ts';
import { loadConfig } from '#server/config.ts';
import { openPglite, openPostgres } from '#server/db/client.ts';
import { APP_POOL_SIZE, BENCH_SIGNING_SECRET, benchTarget, fmt, machineNote, querySql, table } from './lib.ts';

const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 10_000);
/** Slots hold at most 500 covers: the reservations are spread over restaurants, one slot each. */
const PER_RESTAURANT = 400;
const BATCH = 500;

const target = benchTarget();
let correctnessFailed = false;
const check = (pass: boolean) => {
  if (!pass) correctnessFailed = true;
  return pass ? 'PASS' : 'FAIL';
};

console.log('Tablefair reminders benchmark: a minute with every reminder due');
console.log(`  machine:  ${machineNote()} — shared with other work, so compare ratios, not absolute figures`);
console.log(`  database: ${target.kind === 'postgres' ? target.label : 'embedded PGlite in memory (one connection, inside this process)'}`);
console.log(`  load:     ${REMINDERS} reservations, all starting at 20:00 Kolkata, their 2-hour reminders due at 18:00; two app instances sweep`);

const handle = target.kind === 'postgres' ? await openPostgres({ url: target.databaseUrl!, poolSize: APP_POOL_SIZE }) : await openPglite();
await handle.migrate();

const startsAt = new Date('2030-01-15T14:30:00.000Z'); // 20:00 in Kolkata
const dueAt = new Date(startsAt.getTime() - 120 * 60_000);
const run = Math.random().toString(36).slice(2, 8);
const restaurants = Math.ceil(REMINDERS / PER_RESTAURANT);
await querySql(
  handle,
  `INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category)
   SELECT 'bench-remind-' || $1 || '-' || i, 'Bench Reminders ' || i, '🍛', 'Indiranagar', false, '{}', 'indian' FROM generate_series(1, $2::int) AS i`,
  [run, restaurants],
);
await querySql(
  handle,
  `INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity)
   SELECT id, '2030-01-15', '20:00', $2, 500 FROM restaurants WHERE slug LIKE 'bench-remind-' || $1 || '-%'`,
  [run, startsAt.toISOString()],
);
await querySql(
  handle,
  `INSERT INTO users (username, password_hash, name, email)
   SELECT 'br_' || $1 || '_' || i, 'x', 'Bench Diner ' || i, 'br_' || $1 || '_' || i || '@example.com' FROM generate_series(1, $2::int) AS i`,
  [run, REMINDERS],
);
await querySql(
  handle,
  `INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, starts_at, created_at, updated_at)
   SELECT u.id, s.restaurant_id, s.id, 1, 'CONFIRMED', s.starts_at, '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z'
   FROM (SELECT id, row_number() OVER (ORDER BY username) - 1 AS n FROM users WHERE username LIKE 'br\\_' || $1 || '\\_%') u
   JOIN (SELECT s.id, s.restaurant_id, s.starts_at, row_number() OVER (ORDER BY r.slug) - 1 AS k
         FROM slots s JOIN restaurants r ON r.id = s.restaurant_id WHERE r.slug LIKE 'bench-remind-' || $1 || '-%') s
     ON s.k = u.n / $2`,
  [run, PER_RESTAURANT],
);
const userIds = (await querySql<{ id: string }>(handle, `SELECT id FROM users WHERE username LIKE 'br\\_' || $1 || '\\_%'`, [run])).map((row) => row.id);

// Baseline: the same number of outbox rows, written plainly through the driver in batches.
const baselineStarted = performance.now();
for (let offset = 0; offset < userIds.length; offset += BATCH) {
  const batch = userIds.slice(offset, offset + BATCH);
  const statements = batch.map(
    (_id, i) =>
      `INSERT INTO outbox_messages (channel, recipient, user_id, subject, body, created_at) VALUES ('email', 'baseline@example.com', $${i + 1}, 'Baseline', 'Baseline message', now());`,
  );
  if (handle.pglite) {
    const pglite = handle.pglite;
    await pglite.transaction(async (tx) => {
      for (let i = 0; i < batch.length; i++) await tx.query(statements[i].replace(`$${i + 1}`, '$1'), [batch[i]]);
    });
  } else {
    for (let i = 0; i < batch.length; i++) await querySql(handle, statements[i].replace(`$${i + 1}`, '$1'), [batch[i]]);
  }
}
const baselineSeconds = (performance.now() - baselineStarted) / 1000;
await querySql(handle, `UPDATE outbox_messages SET sent_at = now() WHERE subject = 'Baseline'`);

const config = loadConfig({
  NODE_ENV: 'production',
  PAYMENTS_SANDBOX_DEMO: '1',
  TEXTS_LOG_DEMO: '1',
  LOG_LEVEL: 'silent',
  SEED_DEMO: '0',
  SIGNING_SECRET: BENCH_SIGNING_SECRET,
  DEV_MAILBOX: 'off',
});
const instances = await Promise.all(
  [0, 1].map(async () => {
    const clock = new ManualClock(dueAt);
    const app = await buildApp({ config, database: handle, clock, runBackgroundJobs: false });
    await app.ready();
    return app;
  }),
);

const sweepStarted = performance.now();
const queuedBy = await Promise.all(instances.map((app) => app.services.reminders.sendDue()));
const queuedSeconds = (performance.now() - sweepStarted) / 1000;
// The outbox sends what is left (deliverSoon already started on each batch), as its sweep would.
for (;;) {
  const sent = await Promise.all(instances.map((app) => app.services.notifications.deliverDue()));
  if (sent.every((count) => count === 0)) break;
}
const sentSeconds = (performance.now() - sweepStarted) / 1000;
for (const app of instances) await app.close();

const [counts] = await querySql<{ claims: number; emails: number; sent: number; twice: number }>(
  handle,
  `SELECT (SELECT count(*)::int FROM reservation_reminders) AS claims,
          (SELECT count(*)::int FROM outbox_messages WHERE body LIKE 'Reminder from Tablefair%') AS emails,
          (SELECT count(*)::int FROM outbox_messages WHERE body LIKE 'Reminder from Tablefair%' AND sent_at IS NOT NULL) AS sent,
          (SELECT count(*)::int FROM (SELECT user_id FROM outbox_messages WHERE body LIKE 'Reminder from Tablefair%' GROUP BY user_id HAVING count(*) > 1) d) AS twice`,
);
await handle.close();

const queued = queuedBy.reduce((sum, count) => sum + count, 0);
console.log('');
console.log(
  table(
    ['work', 'rows/s', 'total'],
    [
      ['reminders claimed and queued (two instances)', fmt.rps(REMINDERS / queuedSeconds), `${queuedSeconds.toFixed(2)} s`],
      ['reminders claimed, queued and sent by the outbox', fmt.rps(REMINDERS / sentSeconds), `${sentSeconds.toFixed(2)} s`],
      ['baseline: plain outbox inserts, 500 a transaction', fmt.rps(REMINDERS / baselineSeconds), `${baselineSeconds.toFixed(2)} s`],
    ],
  ),
);
console.log(`  lag from due to the last queued: ${queuedSeconds.toFixed(2)} s; to the last sent: ${sentSeconds.toFixed(2)} s`);
console.log(`  ratio queued/baseline rate: ${(baselineSeconds / queuedSeconds).toFixed(2)}`);
console.log(`  split between the instances: ${queuedBy.join(' + ')}`);
console.log('');
console.log(
  table(
    ['check', 'value', 'verdict'],
    [
      ['reminders claimed', `${counts.claims}/${REMINDERS}`, check(counts.claims === REMINDERS && queued === REMINDERS)],
      ['reminder emails queued', `${counts.emails}/${REMINDERS}`, check(counts.emails === REMINDERS)],
      ['reminder emails sent', `${counts.sent}/${REMINDERS}`, check(counts.sent === REMINDERS)],
      ['diners emailed twice', String(counts.twice), check(counts.twice === 0)],
    ],
  ),
);
console.log(`  machine:  ${machineNote('at end')}`);
if (correctnessFailed) process.exitCode = 1;
